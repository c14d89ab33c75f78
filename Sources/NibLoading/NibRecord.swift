import ArchiveCoding

/// A structured value of a document that is not an object: `<color>`, `<fontDescription>`, `<state>`,
/// `<autoresizingMask>`, `<inset>`. Interface classes read it in `init(coder:)`.
public struct NibRecord: Sendable, Hashable {
  /// The element name (`"color"`).
  public let name: String
  /// Its fields (attributes and keyed children).
  public let fields: [ObjectField]
  /// `Double(text)` of each text field, parsed once: XIB attributes are text, and a nib's records are read on
  /// every instantiation.
  private let numbers: [Double?]
  /// The UTF-8 length of each field's key: a lookup compares a key only with keys of its length (an interface
  /// class reads several keys of a record, most of them absent, on every instantiation).
  private let keyLengths: [Int]

  /// Creates a record.
  public init(name: String, fields: [ObjectField]) {
    self.name = name
    self.fields = fields
    numbers = fields.map { field in
      if case .string(let text) = field.value { return Double(text) }
      return nil
    }
    keyLengths = fields.map { $0.key.utf8.count }
  }

  /// The position of the first field with the key.
  private func position(of key: String) -> Int? {
    let length = key.utf8.count
    return keyLengths.withUnsafeBufferPointer { lengths in
      for i in lengths.indices where lengths[i] == length && fields[i].key == key { return i }
      return nil
    }
  }

  /// Records are equal when their names and fields are.
  public static func == (lhs: NibRecord, rhs: NibRecord) -> Bool { lhs.name == rhs.name && lhs.fields == rhs.fields }

  /// Hashes the name and the fields.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(fields)
  }

  /// A field's value.
  public subscript(key: String) -> FieldValue? { position(of: key).map { fields[$0].value } }

  /// A field as a string.
  public func string(_ key: String) -> String? {
    if case .string(let v)? = self[key] { return v }
    return nil
  }

  /// A field as a number (`"0.5"`, `0.5`, `3`).
  public func number(_ key: String) -> Double? {
    guard let i = position(of: key) else { return nil }
    switch fields[i].value {
    case .string: return numbers[i]
    case .real(let v): return v
    case .integer(let v): return Double(v)
    default: return nil
    }
  }

  /// A field as a boolean (`"YES"`, `true`).
  public func bool(_ key: String) -> Bool? {
    switch self[key] {
    case .string(let v)?: v == "YES" || v == "true" || v == "1"
    case .bool(let v)?: v
    case .integer(let v)?: v != 0
    default: nil
    }
  }
}
