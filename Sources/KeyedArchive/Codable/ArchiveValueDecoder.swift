import Foundation

/// The `Decoder` handed to `init(from:)`: it reads the entry `$objects[uid]` in place through
/// ``ArchiveDecodingState``.
final class ArchiveValueDecoder: Decoder {
  let state: ArchiveDecodingState
  let uid: Int
  let path: CodingPathNode

  init(state: ArchiveDecodingState, uid: Int, path: CodingPathNode) {
    self.state = state
    self.uid = uid
    self.path = path
  }

  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(
      KeyedContainer<Key>(
        state: state, uid: uid, entries: try state.keyedEntries(uid: uid, path: path), path: path))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    UnkeyedContainer(state: state, uid: uid, elements: try state.elements(uid: uid, path: path), path: path)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueContainer(state: state, uid: uid, path: path)
  }

  // MARK: Containers

  struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: ArchiveDecodingState
    /// The dictionary's own UID, for errors about a missing key.
    let uid: Int
    let entries: KeyedEntries
    let path: CodingPathNode

    var codingPath: [any CodingKey] { path.keys }

    var allKeys: [Key] { entries.keys.compactMap { state.cachedString($0).flatMap(Key.init(stringValue:)) } }

    func contains(_ key: Key) -> Bool { entries.value(forKey: key.stringValue, strings: state) != nil }

    private func value(_ key: Key) throws -> Int {
      guard let value = entries.value(forKey: key.stringValue, strings: state) else {
        throw state.keyNotFound(key, uid: uid, path: path)
      }
      return value
    }

    /// A missing key and `NSNull` both read as `nil`.
    func decodeNil(forKey key: Key) throws -> Bool {
      guard let value = entries.value(forKey: key.stringValue, strings: state) else { return true }
      return try state.isNull(value)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      try state.bool(value(key), path: path.appending(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      try state.string(value(key), path: path.appending(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      try state.double(value(key), path: path.appending(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      try state.float(value(key), path: path.appending(key))
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
      try state.integer(type, value(key), path: path.appending(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try state.unbox(type, uid: value(key), path: path.appending(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
      let nested = path.appending(key)
      let uid = try value(key)
      return KeyedDecodingContainer(
        KeyedContainer<NestedKey>(
          state: state, uid: uid, entries: try state.keyedEntries(uid: uid, path: nested), path: nested))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      let nested = path.appending(key)
      let uid = try value(key)
      return UnkeyedContainer(
        state: state, uid: uid, elements: try state.elements(uid: uid, path: nested), path: nested)
    }

    /// A super decoder for an absent key decodes `nil` (UID 0).
    func superDecoder() throws -> any Decoder { superDecoder(key: ArchiveCodingKey.superKey) }

    func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(key: key) }

    private func superDecoder(key: any CodingKey) -> any Decoder {
      ArchiveValueDecoder(
        state: state, uid: entries.value(forKey: key.stringValue, strings: state) ?? 0, path: path.appending(key))
    }
  }

  struct UnkeyedContainer: UnkeyedDecodingContainer {
    let state: ArchiveDecodingState
    let uid: Int
    let elements: [Int]
    let path: CodingPathNode
    private(set) var currentIndex = 0

    init(state: ArchiveDecodingState, uid: Int, elements: [Int], path: CodingPathNode) {
      self.state = state
      self.uid = uid
      self.elements = elements
      self.path = path
    }

    var codingPath: [any CodingKey] { path.keys }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }
    private var currentPath: CodingPathNode { path.appending(index: currentIndex) }

    private func current(_ type: Any.Type) throws -> Int {
      guard currentIndex < elements.count else {
        let message = "unkeyed container at \(ArchiveCodingKey.describe(path.keys)) is at its end"
        throw DecodingError.valueNotFound(
          type, DecodingError.Context(codingPath: currentPath.keys, debugDescription: message + " (object #\(uid))"))
      }
      return elements[currentIndex]
    }

    private mutating func next<T>(
      _ type: Any.Type, _ read: (ArchiveDecodingState, Int, CodingPathNode) throws -> T
    ) throws -> T {
      let value = try read(state, try current(type), currentPath)
      currentIndex += 1
      return value
    }

    /// `NSNull` (or `$null`) reads as `nil` and advances; anything else does not advance.
    mutating func decodeNil() throws -> Bool {
      guard try state.isNull(current(Never.self)) else { return false }
      currentIndex += 1
      return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.bool($1, path: $2) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.string($1, path: $2) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.double($1, path: $2) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.float($1, path: $2) } }
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
      try next(type) { try $0.integer(type, $1, path: $2) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      try next(type) { try $0.unbox(type, uid: $1, path: $2) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
      try next([String: Any].self) { state, uid, path in
        KeyedDecodingContainer(
          KeyedContainer<NestedKey>(
            state: state, uid: uid, entries: try state.keyedEntries(uid: uid, path: path), path: path))
      }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      try next([Any].self) { state, uid, path in
        UnkeyedContainer(state: state, uid: uid, elements: try state.elements(uid: uid, path: path), path: path)
      }
    }

    mutating func superDecoder() throws -> any Decoder {
      try next(Any.self) { state, uid, path in ArchiveValueDecoder(state: state, uid: uid, path: path) }
    }
  }

  struct SingleValueContainer: SingleValueDecodingContainer {
    let state: ArchiveDecodingState
    let uid: Int
    let path: CodingPathNode

    var codingPath: [any CodingKey] { path.keys }

    func decodeNil() -> Bool { (try? state.isNull(uid)) ?? false }
    func decode(_ type: Bool.Type) throws -> Bool { try state.bool(uid, path: path) }
    func decode(_ type: String.Type) throws -> String { try state.string(uid, path: path) }
    func decode(_ type: Double.Type) throws -> Double { try state.double(uid, path: path) }
    func decode(_ type: Float.Type) throws -> Float { try state.float(uid, path: path) }
    func decode(_ type: Int.Type) throws -> Int { try state.integer(type, uid, path: path) }
    func decode(_ type: Int8.Type) throws -> Int8 { try state.integer(type, uid, path: path) }
    func decode(_ type: Int16.Type) throws -> Int16 { try state.integer(type, uid, path: path) }
    func decode(_ type: Int32.Type) throws -> Int32 { try state.integer(type, uid, path: path) }
    func decode(_ type: Int64.Type) throws -> Int64 { try state.integer(type, uid, path: path) }
    func decode(_ type: UInt.Type) throws -> UInt { try state.integer(type, uid, path: path) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try state.integer(type, uid, path: path) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try state.integer(type, uid, path: path) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try state.integer(type, uid, path: path) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try state.integer(type, uid, path: path) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try state.unbox(type, uid: uid, path: path) }
  }
}
