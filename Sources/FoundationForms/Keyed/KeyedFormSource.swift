import ArchiveCoding
import Foundation

/// What a reader of Foundation's keyed forms reads one object's fields through. The unarchiver (typed decoding)
/// and the canonical walk each give the forms their own view of the object, so that a class's keys, shape and
/// checks are read in one place (`Specs/FoundationForms.md`, FORM-001).
///
/// A form reader asks for fields by the keys the Foundation class stores them under; a reference to another
/// archived object is reported as such (``KeyedFormField/object(_:)``), and the form keeps it for its consumer to
/// resolve, except where the form needs the text or bytes of a string or data object, which the source gives.
package protocol KeyedFormSource {
  /// The field stored under `key` (one of Foundation's keys, never `$`-escaped), or `nil` when the object has none.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the field cannot be read (a reference past the end of `$objects`).
  mutating func field(_ key: String) throws -> KeyedFormField?
  /// The text of archived object `index`, which field `key` refers to, when it is an `NSString` or
  /// `NSMutableString` whose text the source can read, else `nil`.
  mutating func text(ofObject index: Int, forKey key: String) throws -> String?
  /// The bytes of archived object `index`, which field `key` refers to, when it is an `NSData` or `NSMutableData`,
  /// else `nil`.
  mutating func bytes(ofObject index: Int, forKey key: String) throws -> Data?
}

/// One field of an archived object, as the forms read it.
package enum KeyedFormField {
  /// An inline value.
  case value(CodedValue)
  /// A reference to a string, number or data entry of `$objects`: its index and value.
  case entry(Int, CodedValue)
  /// `$null`: UID 0, or an entry that is the string `$null`.
  case null
  /// A reference to an archived object (an `$objects` dictionary with `$class`), by its index.
  case object(Int)
  /// Anything else (an inline array, dictionary or date): what it is, for messages.
  case other(String)

  /// The value of an inline value or of the entry a reference leads to; `nil` for anything else.
  package var codedValue: CodedValue? {
    switch self {
    case .value(let value), .entry(_, let value): value
    default: nil
    }
  }

  /// The `$objects` index a reference leads to (0 for `$null`); `nil` for an inline value.
  package var referencedIndex: Int? {
    switch self {
    case .entry(let index, _), .object(let index): index
    case .null: 0
    case .value, .other: nil
    }
  }

  /// What the field holds, for messages.
  package var kindName: String {
    switch self {
    case .value(let value), .entry(_, let value): value.typeName
    case .null: "nil"
    case .object(let index): "object #\(index)"
    case .other(let kind): kind
    }
  }
}

/// A field that does not hold what a form needs (missing, or of another type): the object is not of the form. The
/// canonical view then writes the object as a class object (ARC-150); typed decoding throws ``error``.
package struct FormMismatch: Error {
  /// What typed decoding reports.
  package var error: ArchiveError

  package init(_ code: ArchiveError.Code, _ message: String, key: String?) {
    error = ArchiveError(code, message, at: .init(keyPath: key))
  }
}

extension KeyedFormSource {
  /// The string under `key`: an inline string, a string entry or an `NSString` object; `nil` when the key is
  /// absent or holds `$null`.
  /// - Throws: ``FormMismatch`` for anything else.
  package mutating func string(_ key: String) throws -> String? {
    let field = try field(key)
    if case .string(let text)? = field?.codedValue { return text }
    switch field {
    case nil, .null?: return nil
    case .object(let index)?:
      if let text = try text(ofObject: index, forKey: key) { return text }
      throw FormMismatch(.typeMismatch, "expected a string, found object #\(index)", key: key)
    case let other?: throw FormMismatch(.typeMismatch, "expected a string, found \(other.kindName)", key: key)
    }
  }

  /// The string under `key`, which the form needs.
  /// - Throws: ``FormMismatch`` when it is absent, `$null` or not a string.
  package mutating func requiredString(_ key: String, of className: String) throws -> String {
    guard let text = try string(key) else {
      throw FormMismatch(.corruptData, "\(className) without \(key)", key: key)
    }
    return text
  }

  /// The integer under `key` (inline or a number entry, in the signed 64-bit range); `nil` when absent.
  /// - Throws: ``FormMismatch`` for `$null` or another type.
  package mutating func integer(_ key: String) throws -> Int64? {
    guard let field = try field(key) else { return nil }
    if case .integer(let value)? = field.codedValue { return value }
    throw FormMismatch(.typeMismatch, "expected an integer, found \(field.kindName)", key: key)
  }

  /// The real under `key` (a 64- or 32-bit real, or an integer read as one); `nil` when absent.
  /// - Throws: ``FormMismatch`` for `$null` or another type.
  package mutating func real(_ key: String) throws -> Double? {
    guard let field = try field(key) else { return nil }
    switch field.codedValue {
    case .double(let value)?: return value
    case .float(let value)?: return Double(value)
    case .integer(let value)?: return Double(value)
    case .unsignedInteger(let value)?: return Double(value)
    default: throw FormMismatch(.typeMismatch, "expected a real, found \(field.kindName)", key: key)
    }
  }

  /// The Boolean under `key`, as `decodeBool(forKey:)` reads one: absent or `$null` is `false`, an integer is
  /// `true` when not 0, a string `YES`, `true` or `1` (`NO`, `false`, `0` or empty for `false`).
  /// - Throws: ``FormMismatch`` for anything else.
  package mutating func flag(_ key: String) throws -> Bool {
    guard let field = try field(key) else { return false }
    if case .null = field { return false }
    switch field.codedValue {
    case .bool(let value)?: return value
    case .integer(let value)?: return value != 0
    case .unsignedInteger?: return true
    case .string(let text)? where ["YES", "true", "1"].contains(text): return true
    case .string(let text)? where ["NO", "false", "0", ""].contains(text): return false
    default: throw FormMismatch(.typeMismatch, "expected a boolean, found \(field.kindName)", key: key)
    }
  }

  /// The bytes under `key`: inline data, a data entry or an `NSData` object; `nil` when absent or `$null`.
  /// - Throws: ``FormMismatch`` for anything else.
  package mutating func data(_ key: String) throws -> Data? {
    let field = try field(key)
    if case .bytes(let bytes)? = field?.codedValue { return bytes }
    switch field {
    case nil, .null?: return nil
    case .object(let index)?:
      if let bytes = try bytes(ofObject: index, forKey: key) { return bytes }
      throw FormMismatch(.typeMismatch, "expected data, found object #\(index)", key: key)
    case let other?: throw FormMismatch(.typeMismatch, "expected data, found \(other.kindName)", key: key)
    }
  }

  /// The `$objects` entry `key` refers to (an archived object, or a plain entry where an object is expected, which
  /// its reader then refuses); `nil` when absent or `$null`.
  /// - Throws: ``FormMismatch`` for an inline value.
  package mutating func reference(_ key: String) throws -> Int? {
    switch try field(key) {
    case nil, .null?: return nil
    case .object(let index)?, .entry(let index, _)?: return index
    case let other?: throw FormMismatch(.typeMismatch, "expected an object, found \(other.kindName)", key: key)
    }
  }

  /// `true` when the object stores a field under `key`.
  package mutating func contains(_ key: String) throws -> Bool { try field(key) != nil }
}
