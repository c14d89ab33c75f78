import ArchiveCoding
import Foundation

/// A property-list value: the data model shared by the binary (`bplist00`) and XML forms.
///
/// Equality is exact and structural: reals compare by bit pattern (so `NaN == NaN` and `-0.0 != 0.0`), strings
/// by code units (two spellings of "café", precomposed and decomposed, are two values, as they are two `NSString`s),
/// `1`, `1.0`, `Float(1)` and `true` are four different values, and dictionaries compare as unordered maps.
public enum PropertyListValue: Sendable {
  /// The null object of binary property lists (marker `0x00`), which CoreFoundation reads as `NSNull`. XML has no
  /// element for it: the XML writer refuses it.
  case null
  /// A boolean (`<true/>`, `<false/>`; markers `0x09`, `0x08`).
  case bool(Bool)
  /// An integer in the signed 64-bit range.
  case integer(Int64)
  /// An integer above `Int64.max` (the 16-byte binary form). Readers produce it only for such values.
  case unsignedInteger(UInt64)
  /// A 64-bit real (`0x23`).
  case real(Double)
  /// A 32-bit real (`0x22`). XML has one real type; XML readers produce ``real(_:)``.
  case float(Float)
  /// A date, stored as seconds since 2001-01-01T00:00:00Z.
  case date(Date)
  /// Raw bytes.
  case data(Data)
  /// A string.
  case string(String)
  /// A keyed-archiver reference (`0x8n`; `<dict><key>CF$UID</key><integer>N</integer></dict>` in XML).
  case uid(UInt64)
  /// An ordered array.
  case array([PropertyListValue])
  /// A set (`0xCn`; binary only, never produced for archives). XML writes it as an array.
  case set([PropertyListValue])
  /// A dictionary whose keys keep their order of appearance.
  case dictionary(PropertyListDictionary)
}

extension PropertyListValue {
  /// Makes an integer value from any unsigned integer, choosing ``integer(_:)`` when it fits in `Int64`.
  public static func integer(unsigned value: UInt64) -> PropertyListValue {
    value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsignedInteger(value)
  }

  /// The string, if this is a string.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The integer, if this is an integer that fits in `Int64`.
  public var integerValue: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The UID, if this is a UID.
  public var uidValue: UInt64? {
    if case .uid(let value) = self { return value }
    return nil
  }

  /// The elements, if this is an array.
  public var arrayValue: [PropertyListValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The dictionary, if this is a dictionary.
  public var dictionaryValue: PropertyListDictionary? {
    if case .dictionary(let value) = self { return value }
    return nil
  }

  /// A short name of the value's type, for messages: `"string"`, `"integer"`, `"dictionary"`, …
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .integer, .unsignedInteger: "integer"
    case .real: "real"
    case .float: "32-bit real"
    case .date: "date"
    case .data: "data"
    case .string: "string"
    case .uid: "UID"
    case .array: "array"
    case .set: "set"
    case .dictionary: "dictionary"
    }
  }
}

extension PropertyListValue: CustomStringConvertible {
  /// A short, bounded description for messages: scalars as themselves (strings quoted and cut at 64 characters,
  /// dates as seconds since 2001), data and containers by their size.
  ///
  /// Never Foundation's `Date.description`, which traps on dates outside its calendar's range (a hostile archive
  /// can hold any 64-bit real as a date), and never a whole container, which could be gigabytes in a message.
  public var description: String {
    switch self {
    case .null: "null"
    case .bool(let v): String(v)
    case .integer(let v): String(v)
    case .unsignedInteger(let v): String(v)
    case .real(let v): String(v)
    case .float(let v): String(v)
    case .date(let v): "date \(v.timeIntervalSinceReferenceDate) s after 2001-01-01"
    case .data(let v): "\(v.count) bytes of data"
    case .string(let v): v.count > 64 ? "\"\(v.prefix(64))…\" (\(v.count) characters)" : "\"\(v)\""
    case .uid(let v): "UID \(v)"
    case .array(let v): "array of \(v.count)"
    case .set(let v): "set of \(v.count)"
    case .dictionary(let v): "dictionary of \(v.entries.count)"
    }
  }
}

extension PropertyListValue: Hashable {
  /// Exact structural equality: reals by bit pattern, strings by code units, sets and dictionaries unordered.
  public static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)): a == b
    case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
    case (.float(let a), .float(let b)): a.bitPattern == b.bitPattern
    case (.date(let a), .date(let b)):
      a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
    case (.data(let a), .data(let b)): a == b
    case (.string(let a), .string(let b)): a.hasSameCodeUnits(as: b)
    case (.uid(let a), .uid(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.set(let a), .set(let b)): a.count == b.count && Self.multisetEqual(a, b)
    case (.dictionary(let a), .dictionary(let b)): a == b
    default: false
    }
  }

  /// Hashes consistently with `==`.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(12)
    case .bool(let v): hasher.combine(0); hasher.combine(v)
    case .integer(let v): hasher.combine(1); hasher.combine(v)
    case .unsignedInteger(let v): hasher.combine(2); hasher.combine(v)
    case .real(let v): hasher.combine(3); hasher.combine(v.bitPattern)
    case .float(let v): hasher.combine(4); hasher.combine(v.bitPattern)
    case .date(let v): hasher.combine(5); hasher.combine(v.timeIntervalSinceReferenceDate.bitPattern)
    case .data(let v): hasher.combine(6); hasher.combine(v)
    case .string(let v): hasher.combine(7); hasher.combine(LiteralString(v))
    case .uid(let v): hasher.combine(8); hasher.combine(v)
    case .array(let v): hasher.combine(9); hasher.combine(v)
    case .set(let v):
      hasher.combine(10)
      hasher.combine(v.count)
      hasher.combine(v.reduce(0) { $0 &+ $1.hashValue })
    case .dictionary(let v): hasher.combine(11); hasher.combine(v)
    }
  }

  private static func multisetEqual(_ a: [PropertyListValue], _ b: [PropertyListValue]) -> Bool {
    var counts: [PropertyListValue: Int] = [:]
    for element in a { counts[element, default: 0] += 1 }
    for element in b {
      guard let count = counts[element], count > 0 else { return false }
      counts[element] = count - 1
    }
    return true
  }
}

/// A property-list dictionary: entries in order of appearance, looked up by key.
///
/// Keys are usually strings, but binary property lists allow any non-container value as a key (keyed archives
/// never use that; `NSDictionary` archives keep non-string keys in `NS.keys` instead). When a key appears twice,
/// the last value wins and keeps the first key's position, as Python's `plistlib` and Foundation do.
public struct PropertyListDictionary: Sendable, Hashable, RandomAccessCollection {
  /// One key-value pair.
  public typealias Entry = KeyedEntry<PropertyListValue, PropertyListValue>

  /// The entries in order.
  public private(set) var entries: [Entry]
  private var index: [PropertyListValue: Int]

  /// Creates an empty dictionary.
  public init() {
    entries = []
    index = [:]
  }

  /// Creates a dictionary from pairs; a repeated key keeps its first position and takes the last value.
  public init<S: Sequence>(_ pairs: S) where S.Element == (PropertyListValue, PropertyListValue) {
    self.init()
    for (key, value) in pairs { self[key] = value }
  }

  /// Creates a dictionary with string keys, in the given order.
  public init(stringKeyed pairs: KeyValuePairs<String, PropertyListValue>) {
    self.init(pairs.map { (PropertyListValue.string($0.key), $0.value) })
  }

  /// The first index of the collection.
  public var startIndex: Int { entries.startIndex }
  /// The index past the last entry.
  public var endIndex: Int { entries.endIndex }
  /// The entry at a position.
  public subscript(position: Int) -> Entry { entries[position] }

  /// The value for a key, or `nil`; setting `nil` removes the entry.
  public subscript(key: PropertyListValue) -> PropertyListValue? {
    get { index[key].map { entries[$0].value } }
    set {
      if let position = index[key] {
        if let newValue {
          entries[position].value = newValue
        } else {
          entries.remove(at: position)
          rebuildIndex()
        }
      } else if let newValue {
        index[key] = entries.count
        entries.append(Entry(key: key, value: newValue))
      }
    }
  }

  /// The value for a string key, or `nil`.
  public subscript(key: String) -> PropertyListValue? {
    get { self[.string(key)] }
    set { self[.string(key)] = newValue }
  }

  /// `true` when every key is a string.
  public var hasOnlyStringKeys: Bool {
    entries.allSatisfy { if case .string = $0.key { true } else { false } }
  }

  private mutating func rebuildIndex() {
    index = [:]
    for (position, entry) in entries.enumerated() { index[entry.key] = position }
  }

  /// Equal when both hold the same keys with equal values, in any order.
  public static func == (lhs: PropertyListDictionary, rhs: PropertyListDictionary) -> Bool {
    guard lhs.entries.count == rhs.entries.count else { return false }
    for entry in lhs.entries where rhs[entry.key] != entry.value { return false }
    return true
  }

  /// Hashes independently of the entries' order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(entries.count)
    hasher.combine(entries.reduce(0) { $0 &+ $1.hashValue })
  }
}

extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// A string literal makes a ``string(_:)``.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An integer literal makes an ``integer(_:)``.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// A float literal makes a ``real(_:)``.
  public init(floatLiteral value: Double) { self = .real(value) }
  /// A boolean literal makes a ``bool(_:)``.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An array literal makes an ``array(_:)``.
  public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
  /// A dictionary literal makes a ``dictionary(_:)`` in literal order.
  public init(dictionaryLiteral elements: (PropertyListValue, PropertyListValue)...) {
    self = .dictionary(PropertyListDictionary(elements))
  }
}
