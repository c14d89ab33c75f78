import ArchiveCoding
import Foundation
import KeyedArchive
import NibLoading

/// Reading interface values whatever the source: XIB keys (`frame`, `backgroundColor`) give geometry values and
/// records; compiled UIKit nibs (`UIBounds`, `UICenter`) give packed data; AppKit nibs give `{{x, y}, {w, h}}`
/// strings. Each helper takes the keys to try in order (XIB key first, then the compiled keys).
///
/// Built on the public coder calls alone (`containsValue(forKey:)`, `decodeObject(forKey:)`, the typed decoders), so
/// that a class of yours can copy them: a nib's coder makes them fast where it matters by keeping what a
/// ``PlainFields`` initialiser made of them (NIB-300).
extension DecodingCoder {
  /// The first key of `keys` the object has.
  func firstKey(_ keys: [String]) -> String? {
    for key in keys where containsValue(forKey: key) { return key }
    return nil
  }

  /// Numbers of a geometry value: `ArchivedValue`, packed data (`0x07` + doubles, `0x06` + floats) or a string.
  func geometry(_ keys: [String]) throws -> [Double]? {
    guard let key = firstKey(keys), let value = try decodeObject(forKey: key) else { return nil }
    return Self.numbers(in: value)
  }

  static func numbers(in value: Any) -> [Double]? {
    switch value {
    case let v as ArchivedValue:
      switch v {
      case .point(let x, let y): return [x, y]
      case .size(let w, let h): return [w, h]
      case .rect(let x, let y, let w, let h): return [x, y, w, h]
      case .edgeInsets(let t, let l, let b, let r, _): return [t, l, b, r]
      case .range(let location, let length): return [Double(location), Double(length)]
      case .transform(let a, let b, let c, let d, let tx, let ty): return [a, b, c, d, tx, ty]
      }
    case let data as Data:
      return packedNumbers(data)
    case let text as String:
      let numbers = text.split(whereSeparator: { "{}, \t\n".contains($0) }).compactMap { Double($0) }
      return numbers.isEmpty ? nil : numbers
    default:
      return nil
    }
  }

  /// UIKit's packed geometry: a type byte (`0x07` doubles, `0x06` floats) then the numbers, little-endian.
  static func packedNumbers(_ data: Data) -> [Double]? {
    let bytes = [UInt8](data)
    guard let kind = bytes.first else { return nil }
    let width = kind == 0x07 ? 8 : kind == 0x06 ? 4 : 0
    guard width > 0, (bytes.count - 1) % width == 0 else { return nil }
    return stride(from: 1, to: bytes.count, by: width).map { start in
      var bits: UInt64 = 0
      for i in 0..<width { bits |= UInt64(bytes[start + i]) << UInt64(8 * i) }
      return width == 8 ? Double(bitPattern: bits) : Double(Float(bitPattern: UInt32(bits)))
    }
  }

  /// A rectangle from a rect value (`frame`, `NSFrame`) or from bounds and centre (`UIBounds`, `UICenter`).
  func decodeFrame() throws -> Rect? {
    if let n = try geometry(["frame", "NSFrame", "UIFrame"]), n.count == 4 {
      return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }
    if let bounds = try geometry(["UIBounds"]), bounds.count == 4 {
      let center = try geometry(["UICenter"]) ?? [bounds[2] / 2, bounds[3] / 2]
      guard center.count == 2 else { return nil }
      return Rect(x: center[0] - bounds[2] / 2, y: center[1] - bounds[3] / 2, width: bounds[2], height: bounds[3])
    }
    if let size = try geometry(["NSFrameSize"]), size.count == 2 {
      return Rect(x: 0, y: 0, width: size[0], height: size[1])
    }
    return nil
  }

  /// A string under the first present key (a record's `value` or `title`, for `<string>` and `<state>` records).
  func string(_ keys: [String]) throws -> String? {
    guard let key = firstKey(keys) else { return nil }
    switch try decodeObject(forKey: key) {
    case let text as String: return text
    case let record as NibRecord: return record.string("value") ?? record.string("title")
    default: return nil
    }
  }

  /// A string under the first present key, and nothing else (no record's title).
  func text(_ keys: [String]) throws -> String? {
    guard let key = firstKey(keys) else { return nil }
    return try decodeObject(forKey: key) as? String
  }

  /// The record (`<state>`, `<color>`) under a key.
  func record(_ key: String) throws -> NibRecord? {
    guard containsValue(forKey: key) else { return nil }
    return try decodeObject(forKey: key) as? NibRecord
  }

  /// A number under the first present key (XIB attributes are text).
  func number(_ keys: [String]) throws -> Double? {
    guard let key = firstKey(keys) else { return nil }
    return try decodeDouble(forKey: key)
  }

  /// A boolean under the first present key.
  func flag(_ keys: [String]) throws -> Bool? {
    guard let key = firstKey(keys) else { return nil }
    return try decodeBool(forKey: key)
  }

  /// A colour from a XIB `<color>` record or a compiled `UIColor`/`NSColor` object.
  func color(_ keys: [String]) throws -> Color? {
    guard let key = firstKey(keys) else { return nil }
    switch try decodeObject(forKey: key) {
    case let record as NibRecord: return Color(record: record)
    case let object as ColorObject: return object.color
    default: return nil
    }
  }

  /// A font from a XIB `<fontDescription>`/`<font>` record or a compiled `UIFont` object.
  func font(_ keys: [String]) throws -> Font? {
    guard let key = firstKey(keys) else { return nil }
    switch try decodeObject(forKey: key) {
    case let record as NibRecord: return Self.font(record)
    case let object as FontObject: return object.font
    default: return nil
    }
  }

  private static func font(_ record: NibRecord) -> Font {
    Font(
      name: record.string("name"), pointSize: record.number("pointSize") ?? record.number("size") ?? 17,
      style: record.string("type") ?? record.string("weight") ?? record.string("style") ?? record.string("metaFont"))
  }

  /// The instances of `T` in the collection under the first present key (`decodeObjectReferences(forKey:)`), or
  /// none.
  @inline(__always)
  func objects<T: AnyObject>(_ keys: [String], of type: T.Type) throws -> [T] {
    guard let key = firstKey(keys) else { return [] }
    return try decodeObjectReferences(forKey: key)?.instances(of: type) ?? []
  }
}

extension Color {
  /// A colour from a XIB `<color>` element's attributes.
  init?(record: NibRecord) {
    if let white = record.number("white") {
      self.init(white: white, alpha: record.number("alpha") ?? 1)
    } else if let red = record.number("red") {
      self.init(
        red: red, green: record.number("green") ?? 0, blue: record.number("blue") ?? 0,
        alpha: record.number("alpha") ?? 1)
    } else if let name = record.string("systemColor") ?? record.string("cocoaTouchSystemColor") ?? record.string("name")
    {
      self.init(red: 0, green: 0, blue: 0, alpha: 1, name: name)
    } else {
      return nil
    }
  }
}
