import Foundation

/// A `Dictionary`, which the Codable encoder writes in an order of its keys rather than in its iteration order
/// (which follows a hash seeded per process), in the containers `Dictionary.encode(to:)` uses. So the same
/// dictionary gives the same archive bytes in every run (ARC-021), as a Foundation dictionary does through
/// `KeyedArchiver`.
protocol KeyOrderedEncodable {
  /// Whether ``encodeInKeyOrder(to:)`` applies (every dictionary whose values are `Encodable`); other values encode
  /// themselves.
  static var ordersKeys: Bool { get }
  /// Encodes the entries in key order, into the container `Dictionary.encode(to:)` would use:
  /// - `String` and `Int` keys: a keyed container, in string order and in numeric order;
  /// - `CodingKeyRepresentable` keys: a keyed container under each key's coding key, in the order of its string;
  /// - other keys: an unkeyed container of alternating keys and values, in the keys' own order when they are
  ///   `Comparable`, else in the order of their descriptions for value types (class-type keys, whose descriptions
  ///   say nothing of their contents, stay in iteration order).
  func encodeInKeyOrder(to encoder: any Encoder) throws
}

/// The key of a dictionary entry, with the string and integer values `Dictionary.encode(to:)` gives its keys.
struct DictionaryEntryKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = Int(stringValue)
  }

  init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }

  /// The key `Dictionary.encode(to:)` writes for a `CodingKeyRepresentable` key: its coding key's two values.
  init(_ key: any CodingKey) {
    stringValue = key.stringValue
    intValue = key.intValue
  }
}

extension Dictionary: KeyOrderedEncodable where Value: Encodable {
  static var ordersKeys: Bool { true }

  func encodeInKeyOrder(to encoder: any Encoder) throws {
    if Key.self == String.self || Key.self == Int.self || Key.self is any CodingKeyRepresentable.Type {
      try encodeKeyed(to: encoder)
    } else {
      try encodePairs(to: encoder)
    }
  }

  private func encodeKeyed(to encoder: any Encoder) throws {
    var entries: [(key: DictionaryEntryKey, value: Value)] = []
    entries.reserveCapacity(count)
    for (key, value) in self {
      if let name = key as? String {
        entries.append((DictionaryEntryKey(stringValue: name), value))
      } else if let number = key as? Int {
        entries.append((DictionaryEntryKey(intValue: number), value))
      } else if let representable = key as? any CodingKeyRepresentable {
        entries.append((DictionaryEntryKey(representable.codingKey), value))
      }
    }
    if Key.self == Int.self {
      entries.sort { ($0.key.intValue ?? 0) < ($1.key.intValue ?? 0) }
    } else {
      entries.sort { $0.key.stringValue < $1.key.stringValue }
    }
    var container = encoder.container(keyedBy: DictionaryEntryKey.self)
    for entry in entries { try container.encode(entry.value, forKey: entry.key) }
  }

  /// Keys of other types, as `Dictionary.encode(to:)` writes them: key, value, key, value, … in key order.
  private func encodePairs(to encoder: any Encoder) throws {
    var entries = Array(self)
    if entries.count > 1, let comparable = Key.self as? any Comparable.Type {
      entries = Self.sorted(entries, by: comparable)
    } else if entries.count > 1, !(Key.self is AnyObject.Type) {
      // A value's description (its stored properties, by reflection) is deterministic for the value types that
      // make keys, and never encodes anything: encoding each key with an encoder of its own lost the identity of
      // the class instances being written, and a key leading back to its dictionary recursed without end.
      let described = entries.map { (String(describing: $0.key), $0) }
      entries = described.sorted { $0.0 < $1.0 }.map(\.1)
    }
    var container = encoder.unkeyedContainer()
    for (key, value) in entries {
      guard let encodableKey = key as? any Encodable else {
        throw EncodingError.invalidValue(
          key, .init(codingPath: encoder.codingPath, debugDescription: "a dictionary key that is not Encodable"))
      }
      // Opened to the key's own type, as `Dictionary.encode(to:)` passes it (a `UUID` stays an `NSUUID`).
      try container.encode(encodableKey)
      try container.encode(value)
    }
  }

  /// `entries` in the order of their keys, which are `C` (`Key` is `C`).
  private static func sorted<C: Comparable>(_ entries: [Element], by _: C.Type) -> [Element] {
    let keyed = entries.compactMap { entry in (entry.key as? C).map { ($0, entry) } }
    guard keyed.count == entries.count else { return entries }
    return keyed.sorted { $0.0 < $1.0 }.map(\.1)
  }
}
