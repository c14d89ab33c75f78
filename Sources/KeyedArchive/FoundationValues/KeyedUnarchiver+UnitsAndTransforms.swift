import ArchiveCoding
import Foundation
import FoundationForms

// `NSMeasurement` with its units and converters (ARC-155), `NSAffineTransform` (ARC-161) and `NSSortDescriptor`
// (ARC-162).
extension KeyedUnarchiver {
  /// `NSAffineTransform`: Darwin's `NSTransformStruct` in any of its lengths, or the six reals of the toolchain's
  /// unkeyed array under `$0`; no field is the identity.
  func affineTransform() throws -> AffineTransform {
    if containsValue(forKey: FoundationKeys.nsTransformStruct) {
      return try Self.affineTransform(structBytes: try packedBytes(FoundationKeys.nsTransformStruct))
    }
    let unkeyed = ArchiveKeys.unkeyedKey(0)
    guard let ref = storedFieldRef(unkeyed) else { return .identity }
    let object = try located(unkeyed) {
      try self.object(atFieldRef: ref, key: unkeyed, allowed: [FoundationClass.oldStyleArray])
    }
    guard let reals = object as? [Double], reals.count == 6 else {
      throw ArchiveError(
        .corruptData, "expected an array of six reals, found \(object.map { "\(type(of: $0))" } ?? "nil")",
        at: .init(keyPath: unkeyed))
    }
    return AffineTransform(
      m11: reals[0], m12: reals[1], m21: reals[2], m22: reals[3], tX: reals[4], tY: reals[5])
  }

  /// The transform `NSTransformStruct` holds: big-endian 32-bit reals, six (`m11 m12 m21 m22 tX tY`), four for a
  /// scale and a translation (`m11 m22 tX tY`), or a tag byte and two (1: `tX tY`, 2: `m11 m22`); none is the
  /// identity.
  static func affineTransform(structBytes bytes: Data) throws -> AffineTransform {
    let bytes = [UInt8](bytes)
    func real(_ offset: Int) -> Double {
      var bits: UInt32 = 0
      for byte in bytes[offset..<offset + 4] { bits = bits << 8 | UInt32(byte) }
      return Double(Float(bitPattern: bits))
    }
    switch (bytes.count, bytes.first) {
    case (0, _): return .identity
    case (24, _):
      return AffineTransform(m11: real(0), m12: real(4), m21: real(8), m22: real(12), tX: real(16), tY: real(20))
    case (16, _): return AffineTransform(m11: real(0), m12: 0, m21: 0, m22: real(4), tX: real(8), tY: real(12))
    case (9, 1): return AffineTransform(m11: 1, m12: 0, m21: 0, m22: 1, tX: real(1), tY: real(5))
    case (9, 2): return AffineTransform(m11: real(1), m12: 0, m21: 0, m22: real(5), tX: 0, tY: 0)
    default:
      throw ArchiveError(
        .corruptData,
        "\(FoundationKeys.nsTransformStruct) of \(bytes.count) bytes is none of the transform forms (0, 9, 16 or 24 bytes)",
        at: .init(keyPath: FoundationKeys.nsTransformStruct))
    }
  }

  /// `_NSKeyedCoderOldStyleArray`: the `NS.count` reals (`NS.type` `f` or `d`) of an unkeyed C array under `$0`,
  /// `$1`, …
  func oldStyleArray() throws -> [Double] {
    let count = try int(FoundationKeys.oldStyleArrayCount)
    let type = try int(FoundationKeys.oldStyleArrayType)
    guard type == Int64(UInt8(ascii: "f")) || type == Int64(UInt8(ascii: "d")) else {
      throw ArchiveError(
        .corruptData, "expected an array of reals (type f or d), found type \(type)",
        at: .init(keyPath: FoundationKeys.oldStyleArrayType))
    }
    // Each element is a field of its own, so the dictionary bounds the count.
    guard count >= 0, count <= Int64(currentHeader.count) else {
      throw ArchiveError(
        .corruptData, "a count of \(count) does not fit in the object's \(currentHeader.count) fields",
        at: .init(keyPath: FoundationKeys.oldStyleArrayCount))
    }
    return try (0..<Int(count)).map { index in
      let key = ArchiveKeys.unkeyedKey(index)
      guard let ref = storedFieldRef(key) else {
        throw ArchiveError(.corruptData, "missing element \(index) of \(count)", at: .init(keyPath: key))
      }
      switch try codedValue(ref, key: key) {
      case .double(let v)?: return v
      case .float(let v)?: return Double(v)
      case .integer(let v)?: return Double(v)
      case let other:
        let found = other.map(\.typeName) ?? "nil"
        throw ArchiveError(.typeMismatch, "expected a real, found \(found)", at: .init(keyPath: key))
      }
    }
  }

  /// `NSSortDescriptor`: `NSKey`, `NSAscending` and `NSSelector`.
  func sortDescriptor() throws -> ArchivedSortDescriptor {
    ArchivedSortDescriptor(
      key: try string(FoundationKeys.nsSortKey), ascending: try decodeBool(forKey: FoundationKeys.nsAscending),
      selector: try string(FoundationKeys.nsSelector))
  }
}
