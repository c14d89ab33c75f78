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

  /// Creates a record.
  public init(name: String, fields: [ObjectField]) {
    self.name = name
    self.fields = fields
    numbers = fields.map { field in
      if case .string(let text) = field.value { return Double(text) }
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
  public subscript(key: String) -> FieldValue? { fields.first { $0.key == key }?.value }

  /// A field as a string.
  public func string(_ key: String) -> String? {
    if case .string(let v)? = self[key] { return v }
    return nil
  }

  /// A field as a number (`"0.5"`, `0.5`, `3`).
  public func number(_ key: String) -> Double? {
    guard let i = fields.firstIndex(where: { $0.key == key }) else { return nil }
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
