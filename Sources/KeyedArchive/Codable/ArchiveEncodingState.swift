import ArchiveCoding
import Foundation
import PropertyList

/// The state of one archive's `Codable` encoding: the archiver written to, the class instances met so far (so the
/// same instance is one object, and a cycle refers back to it) and the first error.
///
/// Encoding runs in two steps. `box` runs a value's `encode(to:)`: strings, numbers and Foundation values are
/// written to the archiver at once (they are shared by value, so their order does not matter), containers are
/// collected. `write` then writes the containers from the top down, each `NSDictionary` or `NSArray` reserving its
/// UID before its members, so a class instance reached again (even from inside itself) gets the same UID.
final class ArchiveEncodingState {
  /// Deeper nesting than this is an `EncodingError` rather than a stack overflow (each element of a chain of class
  /// instances is one level).
  static let maxDepth = 512

  let archiver: KeyedArchiver
  let userInfo: [CodingUserInfoKey: Any]

  /// The encoder of each class instance met, by identity; the instances are kept alive so identities stay unique.
  private var classes: [ObjectIdentifier: ArchiveValueEncoder] = [:]
  private var retained: [AnyObject] = []
  private var nullUID: Int?
  private var writeDepth = 0
  private(set) var error: (any Error)?

  init(archiver: KeyedArchiver, userInfo: [CodingUserInfoKey: Any]) {
    self.archiver = archiver
    self.userInfo = userInfo
  }

  /// The state attached to `archiver`, created on first use, so that every `Codable` value of one archive (also
  /// those inside ``Coding`` objects) shares the class identities.
  static func attached(to archiver: KeyedArchiver, userInfo: [CodingUserInfoKey: Any]) -> ArchiveEncodingState {
    if let state = archiver.codableContext as? ArchiveEncodingState { return state }
    let state = ArchiveEncodingState(archiver: archiver, userInfo: userInfo)
    archiver.codableContext = state
    return state
  }

  // MARK: Leaves

  /// The one `NSNull` of the archive: every explicit `nil` refers to it (corelibs' `NSKeyedArchiver` traps on
  /// graphs with two `NSNull` instances, so archives are kept to one).
  var null: Int {
    if let nullUID { return nullUID }
    let uid = archiver.codableObject(NSNull())
    nullUID = uid
    return uid
  }

  func string(_ value: String) -> Int { archiver.codableString(value) }

  /// Recently used coding keys and their UIDs, by the key type and the key's position in its container: the
  /// containers of one type write the same keys in the same order, so the string met last in a slot is usually
  /// the one asked for, and comparing it (immediate for the same storage) costs less than looking at its bytes.
  private var keyCache = [KeyCacheEntry](
    repeating: KeyCacheEntry(key: "", uid: -1, isASCII: true), count: keyCacheSize)
  private static let keyCacheSize = 64

  struct KeyCacheEntry {
    var key: String
    var uid: Int
    /// Whether `key` is ASCII: the cache compares keys code unit by code unit (`String.isLiterally`).
    var isASCII: Bool
  }

  /// The UID of a coding key's string; `position` is the number of keys its container holds already.
  func key<Key: CodingKey>(_ key: Key, at position: Int) -> Int {
    self.key(key.stringValue, type: Key.self, at: position)
  }

  /// The UID of a key string of a container keyed by `type` (the string is what counts; the type and position
  /// only choose the cache slot).
  func key(_ string: String, type: Any.Type, at position: Int) -> Int {
    let typeBits = UInt(bitPattern: ObjectIdentifier(type)) &* 0x9E37_79B9_7F4A_7C15
    let slot = (Int(truncatingIfNeeded: typeBits &>> 58) &+ position) & (Self.keyCacheSize &- 1)
    let entry = keyCache[slot]
    if entry.uid >= 0, entry.key.isLiterally(string, selfIsASCII: entry.isASCII) { return entry.uid }
    let uid = archiver.codableString(string)
    keyCache[slot] = KeyCacheEntry(key: string, uid: uid, isASCII: string.isASCII)
    return uid
  }
  func bool(_ value: Bool) -> Int { archiver.codablePlain(.bool(value)) }
  func integer(_ value: Int64) -> Int { archiver.codablePlain(.integer(value)) }
  func unsigned(_ value: UInt64) -> Int { archiver.codablePlain(.integer(unsigned: value)) }
  func double(_ value: Double) -> Int { archiver.codablePlain(.real(value)) }
  func float(_ value: Float) -> Int { archiver.codablePlain(.float(value)) }

  // MARK: Boxing

  /// Runs `value`'s encoding. Foundation values the archive holds natively (`Date`, `Data`, `URL`, `UUID`,
  /// `Decimal`) and ``Coding`` instances go to the archiver as they are; a class instance met before is the same
  /// entry; every other value encodes itself into new containers.
  func box<T: Encodable>(_ value: T, at path: CodingPathNode) throws -> EncodedValue {
    if let uid = leaf(value) { return .uid(uid) }
    return try boxComposite(value, at: path)
  }

  /// As ``box(_:at:)`` for a value that ``leaf(_:)`` did not take: containers call `leaf` first, so that a leaf
  /// costs no coding path.
  func boxComposite<T: Encodable>(_ value: T, at path: CodingPathNode) throws -> EncodedValue {
    if T.self is AnyObject.Type, !(T.self is any DeferredArchiveReference.Type) {
      return try boxObject(value, at: path)
    }
    try checkDepth(value, path)
    let encoder = ArchiveValueEncoder(state: self, path: path)
    if ordersKeys(T.self), let dictionary = value as? any KeyOrderedEncodable {
      try dictionary.encodeInKeyOrder(to: encoder)
    } else {
      try value.encode(to: encoder)
    }
    return encoder.result ?? .keyed(KeyedEncodingStorage())
  }

  /// The last two composite types met and whether each is a dictionary written in key order (ARC-021): a model's
  /// values alternate between few types (a node and its array of children), and asking the runtime for the
  /// conformance costs more than encoding a small struct's fields.
  private var orderedTypes: [(type: ObjectIdentifier, orders: Bool)] = []

  private func ordersKeys<T>(_ type: T.Type) -> Bool {
    let id = ObjectIdentifier(type)
    for known in orderedTypes where known.type == id { return known.orders }
    let orders = (type as? any KeyOrderedEncodable.Type)?.ordersKeys ?? false
    if orderedTypes.count == 2 { orderedTypes.removeFirst() }
    orderedTypes.append((id, orders))
    return orders
  }

  /// The UID of a value the archive holds as one entry (a Foundation value, or a string or number met as a
  /// generic value, such as an array's element), written directly rather than through `encode(to:)` and an
  /// encoder; `nil` for other types. The types are told apart by identity, a comparison of two pointers, and
  /// each is written as its `encode(to:)` would write it.
  func leaf<T: Encodable>(_ value: T) -> Int? {
    if T.self == Data.self { return (value as? Data).map(archiver.dataReference) }
    if T.self == String.self { return (value as? String).map(string) }
    if T.self == Int.self { return (value as? Int).map { integer(Int64($0)) } }
    if T.self == Double.self { return (value as? Double).map(double) }
    if T.self == Bool.self { return (value as? Bool).map(bool) }
    if T.self == Date.self || T.self == URL.self || T.self == UUID.self || T.self == Decimal.self {
      return archiver.codableObject(value)
    }
    return nil
  }

  private func boxObject<T: Encodable>(_ value: T, at path: CodingPathNode) throws -> EncodedValue {
    // A class that is `Coding` is archived by the archiver (its identity, its `encode(with:)`): a mixed graph.
    if let coding = value as? any Coding { return .uid(archiver.codableObject(coding)) }
    let object = value as AnyObject
    let id = ObjectIdentifier(object)
    if let encoder = classes[id] { return .pending(encoder) }
    try checkDepth(value, path)
    let encoder = ArchiveValueEncoder(state: self, path: path)
    classes[id] = encoder
    retained.append(object)
    try value.encode(to: encoder)
    switch encoder.result {
    case .keyed(let storage)?: storage.isShared = true
    case .unkeyed(let storage)?: storage.isShared = true
    case nil:
      let storage = KeyedEncodingStorage()
      storage.isShared = true
      encoder.result = .keyed(storage)
    default: break
    }
    return .pending(encoder)
  }

  private func checkDepth(_ value: Any, _ path: CodingPathNode) throws {
    guard path.depth <= Self.maxDepth else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path.keys,
          debugDescription:
            "nesting deeper than \(Self.maxDepth) levels at \(ArchiveCodingKey.describe(path.keys)) "
            + "(a chain of class instances nests one level per element)"))
    }
  }

  // MARK: Writing

  /// The UID of an encoded value, writing its containers (once each for class instances).
  func write(_ value: EncodedValue) -> Int {
    switch value {
    case .uid(let uid): return uid
    case .keyed(let storage):
      return withDepth {
        archiver.codableDictionary(identity: storage.isShared ? storage : nil, keys: storage.keys) {
          storage.values.map(write)
        }
      }
    case .unkeyed(let storage):
      return withDepth {
        archiver.codableArray(identity: storage.isShared ? storage : nil) { storage.values.map(write) }
      }
    case .pending(let encoder):
      // A class whose single value is another class refers to that one's encoder: follow the chain, which may
      // loop back on itself (a class whose single value is itself).
      var current = encoder
      for _ in 0...Self.maxDepth {
        switch current.result {
        case .pending(let next)?: current = next
        case let result?: return write(result)
        case nil: return write(.keyed(KeyedEncodingStorage()))
        }
      }
      fail("a class instance encodes as its own single value at \(ArchiveCodingKey.describe(encoder.codingPath))")
      return 0
    }
  }

  private func withDepth(_ body: () -> Int) -> Int {
    guard writeDepth < Self.maxDepth * 2 else {
      fail("containers nest deeper than \(Self.maxDepth * 2) levels")
      return 0
    }
    writeDepth += 1
    defer { writeDepth -= 1 }
    return body()
  }

  private func fail(_ message: String) {
    if error == nil { error = ArchiveError(.invalidValue, message) }
  }

  /// Encodes and writes a value, returning its UID.
  /// - Throws: the `EncodingError` of a failing `encode(to:)`, or the depth limit.
  func encodeEntry<T: Encodable>(_ value: T) throws -> Int {
    let uid = write(try box(value, at: .root))
    if let error {
      throw EncodingError.invalidValue(
        value, EncodingError.Context(codingPath: [], debugDescription: "\(error)", underlyingError: error))
    }
    return uid
  }
}
