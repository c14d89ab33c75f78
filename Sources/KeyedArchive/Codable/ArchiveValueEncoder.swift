import Foundation

/// The `Encoder` handed to `encode(to:)`: its containers write strings and numbers to the archive at once and
/// collect the rest in ``EncodedValue``s (see ``ArchiveEncodingState``).
final class ArchiveValueEncoder: Encoder {
  let state: ArchiveEncodingState
  let path: CodingPathNode
  /// What the value encoded to; `nil` while nothing was encoded (written as an empty dictionary).
  var result: EncodedValue?

  init(state: ArchiveEncodingState, path: CodingPathNode) {
    self.state = state
    self.path = path
  }

  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let storage = result?.keyedStorage ?? record(KeyedEncodingStorage(), as: EncodedValue.keyed)
    return KeyedEncodingContainer(KeyedContainer<Key>(state: state, storage: storage, path: path))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let storage = result?.unkeyedStorage ?? record(UnkeyedEncodingStorage(), as: EncodedValue.unkeyed)
    return UnkeyedContainer(state: state, storage: storage, path: path)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(encoder: self)
  }

  /// Makes `storage`, a new container, what this encoder encoded to, and gives it back.
  private func record<Storage>(_ storage: Storage, as value: (Storage) -> EncodedValue) -> Storage {
    result = value(storage)
    return storage
  }

  // MARK: Containers

  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: ArchiveEncodingState
    let storage: KeyedEncodingStorage
    let path: CodingPathNode

    var codingPath: [any CodingKey] { path.keys }

    private func put(_ uid: Int, _ key: Key) { storage.set(.uid(uid), forKey: keyUID(key)) }

    /// The UID of a key's string.
    private func keyUID(_ key: Key) -> Int { state.key(key, at: storage.keys.count) }

    /// An explicit `encodeNil(forKey:)` writes `NSNull`; `encodeIfPresent` with `nil` writes nothing.
    mutating func encodeNil(forKey key: Key) throws { put(state.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(state.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(state.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(state.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(state.float(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(state.integer(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(state.integer(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(state.integer(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(state.integer(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(state.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(state.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(state.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(state.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(state.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(state.unsigned(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      let boxed: EncodedValue
      if let uid = state.leaf(value) {
        boxed = .uid(uid)
      } else {
        boxed = try state.boxComposite(value, at: path.appending(key))
      }
      storage.set(boxed, forKey: keyUID(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      let child = KeyedEncodingStorage()
      storage.set(.keyed(child), forKey: keyUID(key))
      return KeyedEncodingContainer(
        KeyedContainer<NestedKey>(state: state, storage: child, path: path.appending(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      let child = UnkeyedEncodingStorage()
      storage.set(.unkeyed(child), forKey: keyUID(key))
      return UnkeyedContainer(state: state, storage: child, path: path.appending(key))
    }

    mutating func superEncoder() -> any Encoder { superEncoder(key: ArchiveCodingKey.superKey) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(key: key) }

    private func superEncoder(key: any CodingKey) -> any Encoder {
      let encoder = ArchiveValueEncoder(state: state, path: path.appending(key))
      storage.set(
        .pending(encoder), forKey: state.key(key.stringValue, type: type(of: key), at: storage.keys.count))
      return encoder
    }
  }

  struct UnkeyedContainer: UnkeyedEncodingContainer, PrimitiveEncodingContainer {
    let state: ArchiveEncodingState
    let storage: UnkeyedEncodingStorage
    let path: CodingPathNode

    var codingPath: [any CodingKey] { path.keys }
    var count: Int { storage.values.count }

    func put(_ uid: Int) { storage.values.append(.uid(uid)) }
    private var nextPath: CodingPathNode { path.appending(index: storage.values.count) }

    // The primitives come from `PrimitiveEncodingContainer`; `nil` in an array is `NSNull` (Foundation arrays
    // hold no `nil`).

    mutating func encode<T: Encodable>(_ value: T) throws {
      if let uid = state.leaf(value) {
        put(uid)
      } else {
        storage.values.append(try state.boxComposite(value, at: nextPath))
      }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
      let path = nextPath
      let child = KeyedEncodingStorage()
      storage.values.append(.keyed(child))
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(state: state, storage: child, path: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      let path = nextPath
      let child = UnkeyedEncodingStorage()
      storage.values.append(.unkeyed(child))
      return UnkeyedContainer(state: state, storage: child, path: path)
    }

    mutating func superEncoder() -> any Encoder {
      let encoder = ArchiveValueEncoder(state: state, path: nextPath)
      storage.values.append(.pending(encoder))
      return encoder
    }
  }

  struct SingleValueContainer: SingleValueEncodingContainer, PrimitiveEncodingContainer {
    let encoder: ArchiveValueEncoder

    var state: ArchiveEncodingState { encoder.state }
    var codingPath: [any CodingKey] { encoder.codingPath }

    func put(_ uid: Int) { encoder.result = .uid(uid) }

    mutating func encode<T: Encodable>(_ value: T) throws {
      encoder.result = try state.box(value, at: encoder.path)
    }
  }
}

/// The primitive `encode` calls of the unkeyed and single-value containers, which differ only in where a value goes
/// (`put`): appended to an array, or stored as the single value.
protocol PrimitiveEncodingContainer {
  var state: ArchiveEncodingState { get }
  func put(_ uid: Int)
}

extension PrimitiveEncodingContainer {
  mutating func encodeNil() throws { put(state.null) }
  mutating func encode(_ value: Bool) throws { put(state.bool(value)) }
  mutating func encode(_ value: String) throws { put(state.string(value)) }
  mutating func encode(_ value: Double) throws { put(state.double(value)) }
  mutating func encode(_ value: Float) throws { put(state.float(value)) }
  mutating func encode(_ value: Int) throws { put(state.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { put(state.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { put(state.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { put(state.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { put(state.integer(value)) }
  mutating func encode(_ value: UInt) throws { put(state.unsigned(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { put(state.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { put(state.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { put(state.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { put(state.unsigned(value)) }
}
