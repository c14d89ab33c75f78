import Foundation

/// The `Decoder` handed to `init(from:)`: it walks the Foundation values the unarchiver returned
/// (`[AnyHashable: Any]`, `[Any]`, strings, numbers, `Data`, `Date`, `URL`, `UUID`, `Decimal`, `NSNull`).
final class ArchiveValueDecoder: Decoder {
  let value: Any
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  init(value: Any, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
    self.value = value
    self.codingPath = codingPath
    self.userInfo = userInfo
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(
      KeyedContainer<Key>(decoder: self, entries: try dictionary(value, at: codingPath), codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    UnkeyedContainer(decoder: self, elements: try array(value, at: codingPath), codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueContainer(decoder: self, value: value, codingPath: codingPath)
  }

  // MARK: Conversions

  static func isNull(_ value: Any) -> Bool { value is NSNull }

  static func kind(of value: Any) -> String {
    switch value {
    case is NSNull: "null"
    case is [AnyHashable: Any], is NSDictionary: "a dictionary"
    case is [Any], is NSArray: "an array"
    case is String: "a string"
    case is Bool: "a boolean"
    default: ArchiveNumber(value).map { "the number \($0.description)" } ?? "a value of type \(type(of: value))"
    }
  }

  static func mismatch(_ type: Any.Type, _ value: Any, at path: [any CodingKey]) -> DecodingError {
    if isNull(value) {
      return DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: path,
          debugDescription: "expected \(type) at \(ArchiveCodingKey.describe(path)), found null"))
    }
    return DecodingError.typeMismatch(
      type,
      DecodingError.Context(
        codingPath: path,
        debugDescription: "expected \(type) at \(ArchiveCodingKey.describe(path)), found \(kind(of: value))"))
  }

  func dictionary(_ value: Any, at path: [any CodingKey]) throws -> [String: Any] {
    guard let dictionary = value as? [AnyHashable: Any] else {
      throw Self.mismatch([String: Any].self, value, at: path)
    }
    var entries: [String: Any] = [:]
    entries.reserveCapacity(dictionary.count)
    for (key, element) in dictionary {
      guard let string = key.base as? String else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path,
            debugDescription:
              "expected string keys in the dictionary at \(ArchiveCodingKey.describe(path)), found \(Self.kind(of: key.base))"
          ))
      }
      entries[string] = element
    }
    return entries
  }

  func array(_ value: Any, at path: [any CodingKey]) throws -> [Any] {
    guard let array = value as? [Any], !(value is [AnyHashable: Any]) else {
      throw Self.mismatch([Any].self, value, at: path)
    }
    return array
  }

  static func bool(_ value: Any, at path: [any CodingKey]) throws -> Bool {
    // Only a boolean: the number 1 is not `true` (Swift would bridge it through `NSNumber` on Darwin).
    guard Swift.type(of: value) == Bool.self, let bool = value as? Bool else {
      throw mismatch(Bool.self, value, at: path)
    }
    return bool
  }

  static func string(_ value: Any, at path: [any CodingKey]) throws -> String {
    guard let string = value as? String, Swift.type(of: value) == String.self || value is NSString else {
      throw mismatch(String.self, value, at: path)
    }
    return string
  }

  static func number(_ value: Any, _ type: Any.Type, at path: [any CodingKey]) throws -> ArchiveNumber {
    guard let number = ArchiveNumber(value) else { throw mismatch(type, value, at: path) }
    return number
  }

  static func notRepresentable(_ number: ArchiveNumber, _ type: Any.Type, at path: [any CodingKey]) -> DecodingError {
    DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: path,
        debugDescription:
          "the number \(number.description) at \(ArchiveCodingKey.describe(path)) does not fit in \(type)"))
  }

  static func integer<T: FixedWidthInteger>(_ value: Any, _ type: T.Type, at path: [any CodingKey]) throws -> T {
    let number = try number(value, type, at: path)
    guard let result = number.integer(type) else { throw notRepresentable(number, type, at: path) }
    return result
  }

  static func double(_ value: Any, at path: [any CodingKey]) throws -> Double {
    let number = try number(value, Double.self, at: path)
    guard let result = number.double else { throw notRepresentable(number, Double.self, at: path) }
    return result
  }

  static func float(_ value: Any, at path: [any CodingKey]) throws -> Float {
    let number = try number(value, Float.self, at: path)
    guard let result = number.float else { throw notRepresentable(number, Float.self, at: path) }
    return result
  }

  /// Decodes `type` from `value`: Foundation values the archive holds natively are returned as they are, every
  /// other type decodes itself from a nested decoder.
  func unbox<T: Decodable>(_ value: Any, as type: T.Type, at path: [any CodingKey]) throws -> T {
    if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == UUID.self {
      guard let result = value as? T else { throw Self.mismatch(type, value, at: path) }
      return result
    }
    if T.self == Decimal.self {
      if let decimal = value as? Decimal, let result = decimal as? T { return result }
      let number = try Self.number(value, type, at: path)
      let decimal: Decimal? =
        switch number {
        case .signed(let v): Decimal(v)
        case .unsigned(let v): Decimal(v)
        case .double(let v): v.isFinite ? Decimal(v) : nil
        case .float(let v): v.isFinite ? Decimal(Double(v)) : nil
        }
      guard let decimal, let result = decimal as? T else { throw Self.notRepresentable(number, type, at: path) }
      return result
    }
    return try T(from: ArchiveValueDecoder(value: value, codingPath: path, userInfo: userInfo))
  }

  // MARK: Containers

  struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ArchiveValueDecoder
    let entries: [String: Any]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { entries.keys.sorted().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    private func value(_ key: Key) throws -> Any {
      guard let value = entries[key.stringValue] else {
        throw DecodingError.keyNotFound(
          key,
          DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "no value for the key \"\(key.stringValue)\" at \(ArchiveCodingKey.describe(codingPath))"
          ))
      }
      return value
    }

    /// A missing key and `NSNull` both read as `nil`.
    func decodeNil(forKey key: Key) throws -> Bool {
      entries[key.stringValue].map(ArchiveValueDecoder.isNull) ?? true
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      try ArchiveValueDecoder.bool(value(key), at: codingPath + [key])
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      try ArchiveValueDecoder.string(value(key), at: codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      try ArchiveValueDecoder.double(value(key), at: codingPath + [key])
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      try ArchiveValueDecoder.float(value(key), at: codingPath + [key])
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
      try ArchiveValueDecoder.integer(value(key), type, at: codingPath + [key])
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try decoder.unbox(value(key), as: type, at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
      let path = codingPath + [key]
      return KeyedDecodingContainer(
        KeyedContainer<NestedKey>(
          decoder: decoder, entries: try decoder.dictionary(value(key), at: path), codingPath: path))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      let path = codingPath + [key]
      return UnkeyedContainer(decoder: decoder, elements: try decoder.array(value(key), at: path), codingPath: path)
    }

    func superDecoder() throws -> any Decoder { superDecoder(key: ArchiveCodingKey.superKey) }

    func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(key: key) }

    /// A super decoder for an absent key decodes `NSNull` (as Foundation's coders do).
    private func superDecoder(key: any CodingKey) -> any Decoder {
      ArchiveValueDecoder(
        value: entries[key.stringValue] ?? NSNull(), codingPath: codingPath + [key], userInfo: decoder.userInfo)
    }
  }

  struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: ArchiveValueDecoder
    let elements: [Any]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(decoder: ArchiveValueDecoder, elements: [Any], codingPath: [any CodingKey]) {
      self.decoder = decoder
      self.elements = elements
      self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var key: ArchiveCodingKey { ArchiveCodingKey(intValue: currentIndex) }

    private func current(_ type: Any.Type) throws -> Any {
      guard !isAtEnd else {
        throw DecodingError.valueNotFound(
          type,
          DecodingError.Context(
            codingPath: codingPath + [key],
            debugDescription:
              "expected \(type) at \(ArchiveCodingKey.describe(codingPath + [key])), but the array has only \(elements.count) elements"
          ))
      }
      return elements[currentIndex]
    }

    /// Decodes the current element with `body` and moves past it only when that succeeds.
    private mutating func next<T>(_ type: T.Type, _ body: (Any, [any CodingKey]) throws -> T) throws -> T {
      let result = try body(current(type), codingPath + [key])
      currentIndex += 1
      return result
    }

    mutating func decodeNil() throws -> Bool {
      guard !isAtEnd, ArchiveValueDecoder.isNull(elements[currentIndex]) else {
        if isAtEnd { _ = try current(Never.self) }
        return false
      }
      currentIndex += 1
      return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type, ArchiveValueDecoder.bool) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type, ArchiveValueDecoder.string) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type, ArchiveValueDecoder.double) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type, ArchiveValueDecoder.float) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
      try next(type) { try ArchiveValueDecoder.integer($0, type, at: $1) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      let decoder = self.decoder
      return try next(type) { try decoder.unbox($0, as: type, at: $1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
      let decoder = self.decoder
      return try next(KeyedDecodingContainer<NestedKey>.self) { value, path in
        KeyedDecodingContainer(
          KeyedContainer<NestedKey>(
            decoder: decoder, entries: try decoder.dictionary(value, at: path), codingPath: path)
        )
      }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      let decoder = self.decoder
      return try next((any UnkeyedDecodingContainer).self) { value, path in
        UnkeyedContainer(decoder: decoder, elements: try decoder.array(value, at: path), codingPath: path)
      }
    }

    mutating func superDecoder() throws -> any Decoder {
      let userInfo = decoder.userInfo
      return try next((any Decoder).self) { value, path in
        ArchiveValueDecoder(value: value, codingPath: path, userInfo: userInfo)
      }
    }
  }

  struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: ArchiveValueDecoder
    let value: Any
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { ArchiveValueDecoder.isNull(value) }
    func decode(_ type: Bool.Type) throws -> Bool { try ArchiveValueDecoder.bool(value, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try ArchiveValueDecoder.string(value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try ArchiveValueDecoder.double(value, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try ArchiveValueDecoder.float(value, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
      try ArchiveValueDecoder.integer(value, type, at: codingPath)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unbox(value, as: type, at: codingPath) }
  }
}
