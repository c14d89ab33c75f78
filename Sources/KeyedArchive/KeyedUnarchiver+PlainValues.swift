import ArchiveCoding
import Foundation
import PropertyList

extension KeyedUnarchiver {
  /// A plain `$objects` entry (string, number, data) as a Swift value; `"$null"` is `nil`.
  func plainValue(_ ref: Int, header: BinaryPropertyListReader.Header) throws -> Any? {
    switch header.kind {
    case .asciiString, .utf16String:
      let string = try reader.string(header, object: ref)
      return string == ArchiveKeys.null ? nil : string
    case .null: return nil
    case .bool: return header.count == 1
    case .integer, .real:
      switch try ArchiveNumber(ref, header: header, in: reader) {
      case .signed(let v): return Int(v)
      case .unsigned(let v): return v
      case .double(let v): return v
      case .float(let v): return v
      case nil: return nil
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
    case .null: return nil
    case .bool: return .bool(header.count == 1)
    case .integer, .real:
      switch try ArchiveNumber(ref, header: header, in: reader) {
      case .signed(let v): return .integer(v)
      case .unsigned(let v): return .unsignedInteger(v)
      case .double(let v): return .double(v)
      case .float(let v): return .float(v)
      case nil: return nil
      }
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

extension ArchiveNumber {
  /// The number a plist integer or real object holds; `nil` for any other kind of object, or an integer of a width
  /// the reader does not give as a 64-bit value.
  init?(_ ref: Int, header: BinaryPropertyListReader.Header, in reader: BinaryPropertyListReader) throws {
    switch header.kind {
    case .integer:
      switch try reader.integer(header, object: ref) {
      case .integer(let v): self = .signed(v)
      case .unsignedInteger(let v): self = .unsigned(v)
      default: return nil
      }
    case .real:
      switch reader.real(header) {
      case .real(let v): self = .double(v)
      case .float(let v): self = .float(v)
      default: return nil
      }
    default: return nil
    }
  }
}
