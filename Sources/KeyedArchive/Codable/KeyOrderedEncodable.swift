/// A `Dictionary` whose keys have an order of their own (`String`, `Int`): the Codable encoder writes its entries in
/// key order, as `Dictionary.encode(to:)` writes them (a keyed container under the same keys) but not in the
/// dictionary's iteration order, which follows a hash seeded per process. So the same dictionary gives the same
/// archive bytes in every run (ARC-021), as a Foundation dictionary does through `KeyedArchiver`.
protocol KeyOrderedEncodable {
  /// Whether the keys are `String` or `Int`, which ``encodeInKeyOrder(to:)`` orders; other dictionaries encode
  /// themselves.
  static var ordersKeys: Bool { get }
  /// Encodes the entries into a keyed container of `encoder`, in key order (only when ``ordersKeys``).
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
}

extension Dictionary: KeyOrderedEncodable where Value: Encodable {
  static var ordersKeys: Bool { Key.self == String.self || Key.self == Int.self }

  func encodeInKeyOrder(to encoder: any Encoder) throws {
    var entries: [(key: DictionaryEntryKey, value: Value)] = []
    entries.reserveCapacity(count)
    for (key, value) in self {
      if let name = key as? String {
        entries.append((DictionaryEntryKey(stringValue: name), value))
      } else if let number = key as? Int {
        entries.append((DictionaryEntryKey(intValue: number), value))
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
}
