import ArchiveCoding
import Foundation
@_spi(PropertyListInternals) import PropertyList

extension KeyedUnarchiver {
  /// A plain `$objects` entry (string, number, data) as a Swift value; `"$null"` is `nil`.
  func plainValue(_ ref: Int, header: BinaryPropertyListReader.Header) throws -> Any? {
    switch header.kind {
    case .asciiString, .utf16String:
      let string = try reader.string(header, object: ref)
      return string == ArchiveKeys.null ? nil : string
    case .bool: return header.count == 1
    case .integer:
      switch try reader.integer(header, object: ref) {
      case .integer(let v): return Int(v)
      case .unsignedInteger(let v): return v
      default: return nil
      }
    case .real:
      switch reader.real(header) {
      case .float(let v): return v
      case .real(let v): return v
      default: return nil
      }
    case .data: return reader.data(header)
    case .date: return reader.date(header)
    case .uid, .array, .set, .dictionary:
      throw ArchiveError(
        .corruptData, "expected an object or a plain value, found a \(header.kind)",
        at: .init(byteOffset: (try? reader.offset(of: ref)) ?? 0, objectIndex: nil))
    }
  }

  func codedValue(_ ref: Int, key: String) throws -> CodedValue? {
    let header = try reader.header(of: ref)
    switch header.kind {
    case .bool: return .bool(header.count == 1)
    case .integer:
      switch try reader.integer(header, object: ref) {
      case .unsignedInteger(let v): return .unsignedInteger(v)
      case .integer(let v): return .integer(v)
      default: return nil
      }
    case .real:
      if case .float(let v) = reader.real(header) { return .float(v) }
      if case .real(let v) = reader.real(header) { return .double(v) }
      return nil
    case .data: return .bytes(reader.data(header))
    case .asciiString, .utf16String: return .string(try reader.string(header, object: ref))
    case .uid:
      let uid = try checkedUID(reader.uid(header), key: key)
      if uid == 0 { return nil }
      let target = reader.element(objectsHeader, uid)
      let targetHeader = try reader.header(of: target)
      guard targetHeader.kind != .dictionary, targetHeader.kind != .array, targetHeader.kind != .uid else {
        throw ArchiveError(
          .typeMismatch, "expected a primitive value, found a reference to object #\(uid)", at: .init(keyPath: key))
      }
      if targetHeader.kind == .asciiString, reader.isASCIIString(target, equalTo: ArchiveKeys.null) {
        return nil
      }
      return try codedValue(target, key: key)
    case .date: return .double(reader.date(header).timeIntervalSinceReferenceDate)
    case .array, .set, .dictionary:
      throw ArchiveError(
        .typeMismatch, "expected a primitive value, found an inline \(header.kind)", at: .init(keyPath: key))
    }
  }
}
