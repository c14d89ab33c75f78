import Foundation
import Synchronization

/// Key-value coding without an Objective-C runtime: a class declares its keys with typed Swift key paths, and
/// `setValue(_:forKey:)`, `value(forKey:)` and dotted key paths (`"layer.cornerRadius"`) work through them.
///
///     class Card: KeyValueCoding {
///       var title = ""
///       var cornerRadius = 0.0
///       class var keyValueAccessors: [String: KeyValueAccessor] {
///         ["title": .property(\Card.title), "cornerRadius": .property(\Card.cornerRadius)]
///       }
///     }
///
/// Subclasses override `keyValueAccessors` and merge their keys into `super.keyValueAccessors`. A key that is
/// not declared is a thrown ``ArchiveError`` (`connectionFailed`) naming the class and the key, never a crash.
/// Classes that also conform to ``KeyValueObservable`` post will-change and did-change notifications for every
/// `setValue` call.
public protocol KeyValueCoding: AnyObject {
  /// The keys of this class and its superclasses. Required.
  static var keyValueAccessors: [String: KeyValueAccessor] { get }

  /// Called for a key that is not declared. Default: throws.
  func setValue(_ value: Any?, forUndefinedKey key: String) throws

  /// Called for a key that is not declared. Default: throws.
  func value(forUndefinedKey key: String) throws -> Any?
}

/// How to read and write one key of a class.
public struct KeyValueAccessor {
  let get: (AnyObject) -> Any?
  let set: ((AnyObject, Any?) throws -> Void)?
  /// The Swift type of the key's value, for messages.
  public let valueType: Any.Type
  /// The key path the key was declared with, when it was (for observation by key path).
  let keyPath: AnyKeyPath?
  /// Whether the property posts its own change notifications (``observedProperty(_:)``): assigning it notifies the
  /// key's observers, and `setValue(_:forKey:)` leaves the notifications to it.
  public let postsOwnChanges: Bool

  init(
    get: @escaping (AnyObject) -> Any?, set: ((AnyObject, Any?) throws -> Void)?, valueType: Any.Type,
    keyPath: AnyKeyPath? = nil, postsOwnChanges: Bool = false
  ) {
    self.get = get
    self.set = set
    self.valueType = valueType
    self.keyPath = keyPath
    self.postsOwnChanges = postsOwnChanges
  }

  /// A read-write key backed by a property that posts its own change notifications (its `willSet` and `didSet`
  /// call `willChangeValue(forKey:)` and `didChangeValue(forKey:)`), so that assigning the property notifies
  /// observers as `setValue(_:forKey:)` does, and `setValue(_:forKey:)` does not notify twice (NIB-105).
  public static func observedProperty<Root: AnyObject, Value>(
    _ keyPath: ReferenceWritableKeyPath<Root, Value>
  ) -> KeyValueAccessor {
    let plain = property(keyPath)
    return KeyValueAccessor(
      get: plain.get, set: plain.set, valueType: Value.self, keyPath: keyPath, postsOwnChanges: true)
  }

  /// A read-write key backed by a key path. Values are converted where that loses nothing: between number types
  /// (`Int` to `Double`, a whole `Double` to `Int`), and `nil` for optionals.
  public static func property<Root: AnyObject, Value>(
    _ keyPath: ReferenceWritableKeyPath<Root, Value>
  )
    -> KeyValueAccessor
  {
    KeyValueAccessor(
      get: { object in (object as? Root).map { $0[keyPath: keyPath] } },
      set: { object, value in
        guard let root = object as? Root else { return }
        guard let converted: Value = KeyValueConversion.convert(value, to: Value.self) else {
          throw ArchiveError(
            .typeMismatch,
            "expected \(Value.self), found \(value.map { "\(type(of: $0))" } ?? "nil")")
        }
        root[keyPath: keyPath] = converted
      }, valueType: Value.self, keyPath: keyPath)
  }

  /// A read-only key backed by a key path.
  public static func readOnly<Root: AnyObject, Value>(_ keyPath: KeyPath<Root, Value>) -> KeyValueAccessor {
    KeyValueAccessor(
      get: { object in (object as? Root).map { $0[keyPath: keyPath] } }, set: nil, valueType: Value.self,
      keyPath: keyPath)
  }

  /// A key with hand-written accessors.
  public static func custom<Root: AnyObject>(
    _ root: Root.Type, get: @escaping (Root) -> Any?, set: ((Root, Any?) throws -> Void)? = nil
  ) -> KeyValueAccessor {
    KeyValueAccessor(
      get: { object in (object as? Root).flatMap(get) },
      set: set.map { setter in { object, value in if let root = object as? Root { try setter(root, value) } } },
      valueType: Any.self)
  }
}

/// Lossless conversions for key-value coding.
public enum KeyValueConversion {
  /// `value` as a `T`, converting numbers without loss, or `nil` when it cannot be one.
  public static func convert<T>(_ value: Any?, to type: T.Type) -> T? {
    guard let value = unwrap(value) else {
      if let nilType = T.self as? any ExpressibleByNilLiteral.Type { return nilType.init(nilLiteral: ()) as? T }
      return nil
    }
    if let direct = value as? T { return direct }
    if let optional = T.self as? any OptionalType.Type {
      // A value that does not convert is no value, not an optional holding none (an outlet given an object of
      // another class is an error, NIB-094).
      guard let wrapped = optional.wrapConverted(value) else { return nil }
      return wrapped as? T
    }
    if let convertible = T.self as? any KeyValueConvertible.Type {
      return convertible.init(keyValue: value) as? T
    }
    if let number = doubleValue(value) {
      if let floating = T.self as? any BinaryFloatingPoint.Type { return floating.init(number) as? T }
      if let integer = T.self as? any BinaryInteger.Type { return integer.init(exactly: number) as? T }
      if T.self == Bool.self, number == 0 || number == 1 { return (number == 1) as? T }
    }
    if let text = value as? String {
      if T.self == Bool.self { return ["YES", "true", "1"].contains(text) as? T }
      if let number = Double(text) { return convert(number, to: T.self) }
    }
    return nil
  }

  package static func unwrap(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any OptionalType { return unwrap(optional.wrappedValue) }
    return value
  }

  static func doubleValue(_ value: Any) -> Double? {
    switch value {
    case let v as Double: v
    case let v as Float: Double(v)
    case let v as Int: Double(v)
    case let v as Int64: Double(v)
    case let v as Int32: Double(v)
    case let v as UInt64: Double(v)
    case let v as UInt: Double(v)
    case let v as CGFloat: Double(v)
    default: nil
    }
  }
}

/// Lets conversions see inside `Optional`.
protocol OptionalType {
  var wrappedValue: Any? { get }
  static func wrapConverted(_ value: Any) -> Any?
}

/// A type that key-value coding can make from other values (a colour from a XIB `<color>` record, say).
public protocol KeyValueConvertible {
  /// Makes a value from what a nib or caller supplies, or `nil` when it cannot.
  init?(keyValue: Any)
}

extension Optional: OptionalType {
  var wrappedValue: Any? {
    switch self {
    case .some(let value): value
    case .none: nil
    }
  }
  static func wrapConverted(_ value: Any) -> Any? {
    guard let converted = KeyValueConversion.convert(value, to: Wrapped.self) else { return nil }
    return Optional(converted)
  }
}

extension KeyValueCoding {
  /// The key declared in ``keyValueAccessors`` with a key path (`\Label.text` → `"text"`), or `nil`.
  public func declaredKey(for keyPath: AnyKeyPath) -> String? { KeyValueAccessorCache.key(for: keyPath, of: self) }

  /// Default: throws an error naming the class and the key, and saying how to declare it (COD-237).
  public func setValue(_ value: Any?, forUndefinedKey key: String) throws {
    throw undefinedKey(key)
  }

  /// Default: throws an error naming the class and the key, and saying how to declare it (COD-237).
  public func value(forUndefinedKey key: String) throws -> Any? {
    throw undefinedKey(key)
  }

  /// The error for a key the class does not declare: it names the class and the key, and says how to declare it
  /// (COD-237).
  /// - Parameter hint: another way to declare the key, said first (the interface classes' `@Outlet`).
  public func undefinedKey(_ key: String, hint: String? = nil) -> ArchiveError {
    let className = "\(type(of: self))"
    let declaration = "in keyValueAccessors (`\"\(key)\": .property(\\\(className).\(key))`)"
    return ArchiveError(
      .connectionFailed,
      "\(className) is not key-value coding compliant for the key \"\(key)\": declare it "
        + (hint.map { "\($0), or " } ?? "") + declaration,
      at: .init(className: className, keyPath: key))
  }

  /// The value of a key.
  /// - Throws: ``ArchiveError`` for an undeclared key.
  public func value(forKey key: String) throws -> Any? {
    guard let accessor = KeyValueAccessorCache.accessor(key, of: self) else { return try value(forUndefinedKey: key) }
    return KeyValueConversion.unwrap(accessor.get(self))
  }

  /// Sets a key, posting will-change and did-change notifications when the object is observable.
  /// - Throws: ``ArchiveError`` for an undeclared or read-only key, or a value of the wrong type.
  public func setValue(_ value: Any?, forKey key: String) throws {
    guard let accessor = KeyValueAccessorCache.accessor(key, of: self) else {
      return try setValue(value, forUndefinedKey: key)
    }
    guard let set = accessor.set else {
      throw ArchiveError(
        .connectionFailed, "the key \"\(key)\" of \(type(of: self)) is read-only",
        at: .init(className: "\(type(of: self))", keyPath: key))
    }
    let value = KeyValueConversion.unwrap(value)
    // Notifications are built only for an object that has observers: most objects never have any.
    let observers = (self as? any KeyValueObservable)?.existingKeyValueObservers
    guard let observers, !observers.isEmpty, !accessor.postsOwnChanges else {
      do {
        return try set(self, value)
      } catch let error as ArchiveError {
        throw error.located(in: .init(className: "\(type(of: self))", keyPath: key))
      }
    }
    let oldValue = observers.isObserving(key) ? KeyValueConversion.unwrap(accessor.get(self)) : nil
    let observable = self as? any KeyValueObservable
    let dependents = observable?.keysDepending(on: key) ?? []
    observers.post(KeyValueChange(object: self, key: key, kind: .willChange, oldValue: oldValue, newValue: value))
    for dependent in dependents { observable?.willChangeValue(forKey: dependent) }
    do {
      try set(self, value)
    } catch let error as ArchiveError {
      for dependent in dependents.reversed() { observable?.didChangeValue(forKey: dependent) }
      throw error.located(in: .init(className: "\(type(of: self))", keyPath: key))
    }
    observers.post(KeyValueChange(object: self, key: key, kind: .didChange, oldValue: oldValue, newValue: value))
    for dependent in dependents.reversed() { observable?.didChangeValue(forKey: dependent) }
  }

  /// The value at a dotted key path (`"layer.cornerRadius"`).
  public func value(forKeyPath keyPath: String) throws -> Any? {
    let (head, rest) = Self.split(keyPath)
    let value = try value(forKey: head)
    guard let rest else { return value }
    guard let next = KeyValueConversion.unwrap(value) as? any KeyValueCoding else {
      throw ArchiveError(
        .connectionFailed, "the value of \"\(head)\" does not support key-value coding, so \"\(rest)\" cannot be read",
        at: .init(className: "\(type(of: self))", keyPath: keyPath))
    }
    return try next.value(forKeyPath: rest)
  }

  /// Sets the value at a dotted key path; the last key is set (and observed) on the object the path leads to.
  public func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
    let (head, rest) = Self.split(keyPath)
    guard let rest else { return try setValue(value, forKey: head) }
    guard let next = KeyValueConversion.unwrap(try self.value(forKey: head)) as? any KeyValueCoding else {
      throw ArchiveError(
        .connectionFailed, "the value of \"\(head)\" does not support key-value coding, so \"\(rest)\" cannot be set",
        at: .init(className: "\(type(of: self))", keyPath: keyPath))
    }
    try next.setValue(value, forKeyPath: rest)
  }

  private static func split(_ keyPath: String) -> (String, String?) {
    guard let dot = keyPath.firstIndex(of: ".") else { return (keyPath, nil) }
    return (String(keyPath[..<dot]), String(keyPath[keyPath.index(after: dot)...]))
  }
}

/// Each class's accessor table, built once: `keyValueAccessors` is usually a class property that merges its
/// superclass's table, so it would otherwise be rebuilt on every access. A class's table must not change once used.
enum KeyValueAccessorCache {
  private struct Table: @unchecked Sendable { let accessors: [String: KeyValueAccessor] }
  private static let tables = Mutex<[ObjectIdentifier: Table]>([:])

  /// The accessor of a key for the object's dynamic class.
  static func accessor(_ key: String, of object: some KeyValueCoding) -> KeyValueAccessor? {
    table(of: object).accessors[key]
  }

  /// The key declared with a key path, for the object's dynamic class: of several keys declared with it (`hidden`
  /// and `isHidden`), one whose property posts its own changes (so that assigning the property reaches its
  /// observers), then the first by name.
  static func key(for keyPath: AnyKeyPath, of object: some KeyValueCoding) -> String? {
    func rank(_ entry: (key: String, value: KeyValueAccessor)) -> (Int, String) {
      (entry.value.postsOwnChanges ? 0 : 1, entry.key)
    }
    return table(of: object).accessors.filter { $0.value.keyPath == keyPath }.min { rank($0) < rank($1) }?.key
  }

  private static func table(of object: some KeyValueCoding) -> Table {
    let type = Swift.type(of: object)
    let id = ObjectIdentifier(type)
    if let table = tables.withLock({ $0[id] }) { return table }
    let table = Table(accessors: type.keyValueAccessors)
    tables.withLock { $0[id] = table }
    return table
  }
}
