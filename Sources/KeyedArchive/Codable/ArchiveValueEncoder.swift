import Foundation

/// The `Encoder` handed to `encode(to:)`: it fills an ``ArchiveEncodingNode``.
final class ArchiveValueEncoder: Encoder {
  /// Deeper nesting than this is refused (a cycle of `Codable` classes would otherwise recurse forever).
  static let maxDepth = 512

  let node: ArchiveEncodingNode
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]
  /// The one `NSNull` of the archive: every `nil` refers to it (corelibs' `NSKeyedArchiver` traps on graphs with
  /// two `NSNull` instances, so archives are kept to one).
  let null: NSNull

  init(
    node: ArchiveEncodingNode, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any], null: NSNull = NSNull()
  ) {
    self.node = node
    self.codingPath = codingPath
    self.userInfo = userInfo
    self.null = null
  }

  /// An encoder for a nested value, sharing this one's user info and `NSNull`.
  func child(_ node: ArchiveEncodingNode, at path: [any CodingKey]) -> ArchiveValueEncoder {
    ArchiveValueEncoder(node: node, codingPath: path, userInfo: userInfo, null: null)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.makeKeyed()
    return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.makeUnkeyed()
    return UnkeyedContainer(encoder: self, node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(encoder: self, codingPath: codingPath)
  }

  /// The node for a value: Foundation values the archiver writes natively (`Date`, `Data`, `URL`, `UUID`,
  /// `Decimal`) are leaves; every other value encodes itself into a new node.
  func box<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> ArchiveEncodingNode {
    switch value {
    case let v as Date: return ArchiveEncodingNode(leaf: v)
    case let v as Data: return ArchiveEncodingNode(leaf: v)
    case let v as URL: return ArchiveEncodingNode(leaf: v)
    case let v as UUID: return ArchiveEncodingNode(leaf: v)
    case let v as Decimal: return ArchiveEncodingNode(leaf: v)
    default: break
    }
    guard path.count <= Self.maxDepth else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path,
          debugDescription:
            "nesting deeper than \(Self.maxDepth) levels at \(ArchiveCodingKey.describe(path)) "
            + "(a cycle of Codable classes is not supported)"))
    }
    let node = ArchiveEncodingNode()
    try value.encode(to: child(node, at: path))
    return node
  }

  /// A number or string leaf.
  static func leaf(_ value: Any) -> ArchiveEncodingNode { ArchiveEncodingNode(leaf: value) }

  // MARK: Containers

  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ArchiveValueEncoder
    let node: ArchiveEncodingNode
    let codingPath: [any CodingKey]

    private func put(_ value: Any, _ key: Key) { node.set(ArchiveEncodingNode(leaf: value), forKey: key.stringValue) }

    /// An explicit `encodeNil(forKey:)` writes `NSNull`; `encodeIfPresent` with `nil` writes nothing.
    mutating func encodeNil(forKey key: Key) throws { put(encoder.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      node.set(try encoder.box(value, at: codingPath + [key]), forKey: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      let child = ArchiveEncodingNode()
      child.makeKeyed()
      node.set(child, forKey: key.stringValue)
      return KeyedEncodingContainer(
        KeyedContainer<NestedKey>(encoder: encoder, node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      let child = ArchiveEncodingNode()
      child.makeUnkeyed()
      node.set(child, forKey: key.stringValue)
      return UnkeyedContainer(encoder: encoder, node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(key: ArchiveCodingKey.superKey) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(key: key) }

    private func superEncoder(key: any CodingKey) -> any Encoder {
      let child = ArchiveEncodingNode()
      node.set(child, forKey: key.stringValue)
      return encoder.child(child, at: codingPath + [key])
    }
  }

  struct UnkeyedContainer: UnkeyedEncodingContainer, PrimitiveEncodingContainer {
    let encoder: ArchiveValueEncoder
    let node: ArchiveEncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    func put(_ value: Any) { node.append(ArchiveEncodingNode(leaf: value)) }
    private var nextKey: ArchiveCodingKey { ArchiveCodingKey(intValue: node.count) }

    // The primitives come from `PrimitiveEncodingContainer`; `nil` in an array is `NSNull` (Foundation arrays
    // hold no `nil`).

    mutating func encode<T: Encodable>(_ value: T) throws {
      node.append(try encoder.box(value, at: codingPath + [nextKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
      let path = codingPath + [nextKey]
      let child = ArchiveEncodingNode()
      child.makeKeyed()
      node.append(child)
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      let path = codingPath + [nextKey]
      let child = ArchiveEncodingNode()
      child.makeUnkeyed()
      node.append(child)
      return UnkeyedContainer(encoder: encoder, node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
      let path = codingPath + [nextKey]
      let child = ArchiveEncodingNode()
      node.append(child)
      return encoder.child(child, at: path)
    }
  }

  struct SingleValueContainer: SingleValueEncodingContainer, PrimitiveEncodingContainer {
    let encoder: ArchiveValueEncoder
    let codingPath: [any CodingKey]

    func put(_ value: Any) { encoder.node.content = .leaf(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
      encoder.node.content = try encoder.box(value, at: codingPath).content
    }
  }
}

/// The primitive `encode` calls of the unkeyed and single-value containers, which differ only in where a value goes
/// (`put`): appended to an array, or stored as the single value.
protocol PrimitiveEncodingContainer {
  var encoder: ArchiveValueEncoder { get }
  func put(_ value: Any)
}

extension PrimitiveEncodingContainer {
  mutating func encodeNil() throws { put(encoder.null) }
  mutating func encode(_ value: Bool) throws { put(value) }
  mutating func encode(_ value: String) throws { put(value) }
  mutating func encode(_ value: Double) throws { put(value) }
  mutating func encode(_ value: Float) throws { put(value) }
  mutating func encode(_ value: Int) throws { put(value) }
  mutating func encode(_ value: Int8) throws { put(value) }
  mutating func encode(_ value: Int16) throws { put(value) }
  mutating func encode(_ value: Int32) throws { put(value) }
  mutating func encode(_ value: Int64) throws { put(value) }
  mutating func encode(_ value: UInt) throws { put(value) }
  mutating func encode(_ value: UInt8) throws { put(value) }
  mutating func encode(_ value: UInt16) throws { put(value) }
  mutating func encode(_ value: UInt32) throws { put(value) }
  mutating func encode(_ value: UInt64) throws { put(value) }
}
