/// A reference to a class instance that is filled after the whole value is decoded, so that `Codable` class
/// graphs with cycles (a parent and its children pointing back, a doubly linked list) round-trip through
/// ``KeyedArchiveEncoder`` and ``KeyedArchiveDecoder``.
///
/// Swift's `init(from:)` cannot receive an object that is still being initialised, so a back reference is
/// declared with this wrapper; the decoder fills it in the link phase, once every instance exists
/// (Specs/Decisions/0007-codable-class-identity.md):
///
///     final class Employee: Codable {
///       var name: String
///       @ArchiveReference var manager: Employee?
///       var reports: [Employee] = []
///     }
///
/// The wrapper is a class: copies of it (and of a struct holding it) share the one reference. Encoding writes the
/// instance (or leaves the key out when it is `nil`), so the archive is the same as for a plain optional
/// property; with other encoders and decoders it behaves as a plain optional (no cycles).
@propertyWrapper
public final class ArchiveReference<Value: AnyObject> {
  /// The referenced instance; `nil` until the link phase when decoded by ``KeyedArchiveDecoder``.
  public var wrappedValue: Value?

  /// Creates a reference.
  /// - Parameter wrappedValue: the instance, or `nil`.
  public init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  /// Creates an empty reference.
  public init() {
    self.wrappedValue = nil
  }
}

/// Marks ``ArchiveReference`` for the archive coders, which treat it as a value (it stands for the instance it
/// holds) rather than as a class instance with an identity of its own.
protocol DeferredArchiveReference: AnyObject {}

extension ArchiveReference: DeferredArchiveReference {}

extension ArchiveReference: Encodable where Value: Encodable {
  /// Writes the instance as its own value (its identity kept), or `nil`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }
}

extension ArchiveReference: Decodable where Value: Decodable {
  /// Reads the instance: with ``KeyedArchiveDecoder``, in the link phase (after every instance exists); with
  /// other decoders, at once.
  public convenience init(from decoder: any Decoder) throws {
    self.init()
    if let archive = decoder as? ArchiveValueDecoder {
      try archive.state.link(self, uid: archive.uid, path: archive.path)
      return
    }
    let container = try decoder.singleValueContainer()
    if !container.decodeNil() { wrappedValue = try container.decode(Value.self) }
  }
}

extension KeyedEncodingContainer {
  /// Writes a reference's instance under `key`, or nothing when it is `nil` (as for an optional property).
  public mutating func encode<Value: AnyObject & Encodable>(
    _ value: ArchiveReference<Value>, forKey key: Key
  ) throws {
    try encodeIfPresent(value.wrappedValue, forKey: key)
  }
}

extension KeyedDecodingContainer {
  /// Reads a reference under `key`; an absent key or `nil` gives an empty reference.
  public func decode<Value: AnyObject & Decodable>(
    _ type: ArchiveReference<Value>.Type, forKey key: Key
  ) throws -> ArchiveReference<Value> {
    try decodeIfPresent(type, forKey: key) ?? ArchiveReference()
  }
}
