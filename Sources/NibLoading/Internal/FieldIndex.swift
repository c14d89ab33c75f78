import ArchiveCoding

/// One object's fields, prepared for the many lookups of its `init(coder:)`: a catalog initialiser tries several
/// keys per property (`"hidden"`, `"isHidden"`, `"UIHidden"`, `"NSHidden"`), most of them absent, so a lookup must
/// reject a missing key without comparing strings. Each entry keeps its key's UTF-8 length, which rejects nearly
/// every other key with one integer comparison, and, for a text value, the number it reads as (XIB attributes are
/// text), so `decodeDouble` does not parse the same string on every instantiation.
struct FieldIndex: Sendable {
  struct Entry: Sendable {
    let key: String
    let length: Int
    let value: FieldValue
    /// `Double(text)` of a `.string` value, else `nil`.
    let number: Double?
  }

  let entries: [Entry]

  init(_ fields: [ObjectField]) {
    entries = fields.map { field in
      var number: Double?
      if case .string(let text) = field.value { number = Double(text) }
      return Entry(key: field.key, length: field.key.utf8.count, value: field.value, number: number)
    }
  }

  /// The position of the first field with the key, or `nil`.
  @inline(__always)
  func position(of key: String) -> Int? {
    let length = key.utf8.count
    return entries.withUnsafeBufferPointer { buffer in
      for i in buffer.indices where buffer[i].length == length && buffer[i].key == key { return i }
      return nil
    }
  }

  /// The value of the first field with the key, or `nil`.
  @inline(__always)
  func value(of key: String) -> FieldValue? {
    guard let i = position(of: key) else { return nil }
    return entries[i].value
  }
}
