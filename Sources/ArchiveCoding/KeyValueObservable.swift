import Foundation
import Synchronization

/// A will-change or did-change notification for one key of one object.
public struct KeyValueChange {
  /// Before or after the change.
  public enum Kind: Sendable, Hashable {
    /// Posted before the value changes.
    case willChange
    /// Posted after the value changed.
    case didChange
  }
  /// The object whose key changes.
  public let object: AnyObject
  /// The key.
  public let key: String
  /// Before or after.
  public let kind: Kind
  /// The value before the change.
  public let oldValue: Any?
  /// The value being set.
  public let newValue: Any?
}

/// What an observer registered with ``KeyValueObservable/observe(_:options:_:)-(String,_,_)`` is told, as Foundation's
/// `NSKeyValueObservingOptions`.
public struct KeyValueObservingOptions: OptionSet, Sendable, Hashable {
  // Foundation's bit values.
  /// Changes carry the new value.
  public static let new = KeyValueObservingOptions(rawValue: 0x01)
  /// Changes carry the old value.
  public static let old = KeyValueObservingOptions(rawValue: 0x02)
  /// The observer is told the current value at once, as a did-change notification, before `observe` returns.
  public static let initial = KeyValueObservingOptions(rawValue: 0x04)
  /// The observer is told before each change too (will-change notifications); without it, only after.
  public static let prior = KeyValueObservingOptions(rawValue: 0x08)

  /// The raw bits.
  public let rawValue: Int
  /// Creates options from raw bits.
  public init(rawValue: Int) { self.rawValue = rawValue }
}

/// An object whose key changes can be observed: `setValue(_:forKey:)` posts will-change and did-change
/// notifications to the observers registered for that key. Conforming classes store one
/// ``KeyValueObservers`` (usually in a base class).
public protocol KeyValueObservable: KeyValueCoding {
  /// The observers of this object. Required.
  var keyValueObservers: KeyValueObservers { get }

  /// The observers when the object has a set of them, else `nil`: `setValue(_:forKey:)` asks this, so that a
  /// class that makes its set on first use need not make one to find it empty. Default: ``keyValueObservers``.
  var existingKeyValueObservers: KeyValueObservers? { get }

  /// The keys whose values are computed from others, with the keys each depends on (`["fullName": ["first",
  /// "last"]]`), as Foundation's `keyPathsForValuesAffectingValue(forKey:)`: setting a key through
  /// `setValue(_:forKey:)` notifies the observers of the keys that depend on it too (NIB-104). Read once per class.
  /// Default: none.
  static var dependentKeys: [String: Set<String>] { get }

  /// The key whose changes observing a key path reports (`observe(\.title, options:_:)`), or `nil` when the key path
  /// is not observable. Default: ``KeyValueCoding/declaredKey(for:)``.
  func observedKey(for keyPath: AnyKeyPath) -> String?
}

/// Each class's dependent keys turned around (a key to the keys that depend on it), built once per class.
enum DependentKeyCache {
  private struct Table: @unchecked Sendable { let dependents: [String: [String]] }
  private static let tables = Mutex<[ObjectIdentifier: Table]>([:])

  /// The keys whose values depend on `key`, in name order.
  static func dependents(of key: String, in type: any KeyValueObservable.Type) -> [String] {
    let id = ObjectIdentifier(type)
    if let table = tables.withLock({ $0[id] }) { return table.dependents[key] ?? [] }
    var dependents: [String: [String]] = [:]
    for (dependent, keys) in type.dependentKeys {
      for key in keys { dependents[key, default: []].append(dependent) }
    }
    let table = Table(dependents: dependents.mapValues { $0.sorted() })
    tables.withLock { $0[id] = table }
    return table.dependents[key] ?? []
  }
}

extension KeyValueObservable {
  /// ``keyValueObservers``.
  public var existingKeyValueObservers: KeyValueObservers? { keyValueObservers }

  /// None.
  public static var dependentKeys: [String: Set<String>] { [:] }

  /// ``KeyValueCoding/declaredKey(for:)``.
  public func observedKey(for keyPath: AnyKeyPath) -> String? { declaredKey(for: keyPath) }

  /// The keys that depend on `key`.
  func keysDepending(on key: String) -> [String] { DependentKeyCache.dependents(of: key, in: Self.self) }

  /// Posts a will-change or did-change notification of a key to its observers, for classes whose keys change other
  /// than through `setValue(_:forKey:)` and who know the old and new values (NIB-096).
  public func postChange(_ kind: KeyValueChange.Kind, key: String, oldValue: Any?, newValue: Any?) {
    existingKeyValueObservers?.post(
      KeyValueChange(object: self, key: key, kind: kind, oldValue: oldValue, newValue: newValue))
  }

  /// Announces that the value of a key is about to change other than through `setValue(_:forKey:)`: posts the
  /// will-change notification with the current value; ``didChangeValue(forKey:)`` must follow (NIB-096).
  public func willChangeValue(forKey key: String) {
    guard let observers = existingKeyValueObservers, observers.isObserving(key) else { return }
    let oldValue = (try? value(forKey: key)) ?? nil
    observers.beginChange(key, oldValue: oldValue)
    observers.post(KeyValueChange(object: self, key: key, kind: .willChange, oldValue: oldValue, newValue: nil))
  }

  /// Ends a change announced with ``willChangeValue(forKey:)``: posts the did-change notification with the old
  /// and the current value. Without an announced change it posts nothing.
  public func didChangeValue(forKey key: String) {
    guard let observers = existingKeyValueObservers, let pending = observers.endChange(key) else { return }
    let newValue = (try? value(forKey: key)) ?? nil
    observers.post(
      KeyValueChange(object: self, key: key, kind: .didChange, oldValue: pending.oldValue, newValue: newValue))
  }

  /// Registers a handler for changes of a key with Foundation's options: did-change notifications, will-change ones
  /// too with `.prior`, the current value at once with `.initial`, the old and new values only when `.old` and
  /// `.new` ask for them (NIB-104). Keep the token to stay registered.
  /// - Returns: a token that removes the observer when invalidated or released.
  public func observe(
    _ key: String, options: KeyValueObservingOptions, _ handler: @escaping (KeyValueChange) -> Void
  ) -> KeyValueObservation {
    if options.contains(.initial) {
      let current = options.contains(.new) ? (try? value(forKey: key)) ?? nil : nil
      handler(KeyValueChange(object: self, key: key, kind: .didChange, oldValue: nil, newValue: current))
    }
    return keyValueObservers.add(key) { change in
      if change.kind == .willChange, !options.contains(.prior) { return }
      handler(
        KeyValueChange(
          object: change.object, key: change.key, kind: change.kind,
          oldValue: options.contains(.old) ? change.oldValue : nil,
          newValue: options.contains(.new) ? change.newValue : nil))
    }
  }

  /// Registers a handler for changes of the key declared with a key path (`observe(\.title, options: [.new])`),
  /// with ``observe(_:options:_:)``'s options (NIB-104).
  /// - Returns: a token that removes the observer when invalidated or released.
  /// - Throws: ``ArchiveError`` (`valueNotFound`) when the key path is not observable (``observedKey(for:)``): a
  ///   plain stored property the class declares no key for. The message says how to declare it (COD-236).
  public func observe<Value>(
    _ keyPath: KeyPath<Self, Value>, options: KeyValueObservingOptions = [.new],
    _ handler: @escaping (KeyValueChange) -> Void
  ) throws -> KeyValueObservation {
    guard let key = observedKey(for: keyPath) else {
      // `\Detail.bookTitle` names the property last.
      let path = "\(keyPath)"
      let name = path.split(separator: ".").last.map(String.init) ?? "name"
      throw ArchiveError(
        .valueNotFound,
        "\(Self.self) declares no key for the key path \(path), so its changes cannot be observed: declare it in "
          + "keyValueAccessors (`\"\(name)\": .observedProperty(\(path))`, the property's willSet and didSet calling "
          + "willChangeValue(forKey: \"\(name)\") and didChangeValue(forKey: \"\(name)\")), or, in a Responder "
          + "subclass, declare it with @Outlet",
        at: .init(className: "\(Self.self)", keyPath: name))
    }
    return observe(key, options: options, handler)
  }

  /// Registers a handler for changes of a key; keep the token to stay registered.
  /// - Returns: a token that removes the observer when invalidated or released.
  public func observe(_ key: String, _ handler: @escaping (KeyValueChange) -> Void) -> KeyValueObservation {
    keyValueObservers.add(key, handler)
  }
}

/// The observers of one object, by key. Thread-safe. Most objects are never observed: while there are no
/// observers, checking and posting cost one atomic load and take no lock.
public final class KeyValueObservers: @unchecked Sendable {
  /// Handlers run on the thread that posts, like Foundation's observers.
  private struct Handler: @unchecked Sendable {
    let id: Int
    let run: (KeyValueChange) -> Void
  }
  private struct State {
    var next = 0
    var byKey: [String: [Handler]] = [:]
    /// The old values of the changes announced with `willChangeValue(forKey:)` and not yet ended, by key
    /// (nested changes of one key stack).
    var pending: [String: [PendingChange]] = [:]
  }
  private let state = Mutex(State())
  /// How many observers are registered, for the lock-free checks.
  private let count = Atomic<Int>(0)

  /// Creates an empty set of observers.
  public init() {}

  /// `true` when someone observes some key of the object.
  var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

  /// `true` when someone observes the key.
  public func isObserving(_ key: String) -> Bool {
    if isEmpty { return false }
    return state.withLock { !($0.byKey[key]?.isEmpty ?? true) }
  }

  func add(_ key: String, _ handler: @escaping (KeyValueChange) -> Void) -> KeyValueObservation {
    let id = state.withLock { state -> Int in
      state.next += 1
      state.byKey[key, default: []].append(Handler(id: state.next, run: handler))
      return state.next
    }
    count.add(1, ordering: .releasing)
    return KeyValueObservation { [weak self] in self?.remove(id, key: key) }
  }

  private func remove(_ id: Int, key: String) {
    let removed = state.withLock { state -> Int in
      guard let before = state.byKey[key]?.count else { return 0 }
      state.byKey[key]?.removeAll { $0.id == id }
      return before - (state.byKey[key]?.count ?? 0)
    }
    if removed > 0 { count.subtract(removed, ordering: .releasing) }
  }

  /// Remembers the old value of a change that `willChangeValue(forKey:)` announced.
  func beginChange(_ key: String, oldValue: Any?) {
    let change = PendingChange(oldValue: oldValue)
    state.withLock { $0.pending[key, default: []].append(change) }
  }

  /// The old value remembered for the latest announced change of `key`, or `nil` when none was announced.
  func endChange(_ key: String) -> PendingChange? {
    state.withLock { state in
      guard var stack = state.pending[key], let last = stack.popLast() else { return nil }
      state.pending[key] = stack.isEmpty ? nil : stack
      return last
    }
  }

  /// A change announced and not yet ended. Unchecked: the old value is handed back to the thread that ends the
  /// change, as Foundation's observation does.
  struct PendingChange: @unchecked Sendable { let oldValue: Any? }

  /// Observers run on the thread that sets the value, outside the lock, as in Foundation.
  func post(_ change: KeyValueChange) {
    if isEmpty { return }
    let handlers = state.withLock { $0.byKey[change.key] ?? [] }
    for handler in handlers { handler.run(change) }
  }
}

/// Keeps an observer registered until it is invalidated or released, as Foundation's `NSKeyValueObservation`.
public final class KeyValueObservation {
  private var cancelAction: (() -> Void)?
  init(_ cancel: @escaping () -> Void) { cancelAction = cancel }
  /// Removes the observer, as Foundation's `invalidate()`; later calls do nothing (COD-235).
  public func invalidate() {
    cancelAction?()
    cancelAction = nil
  }
  /// Removes the observer: ``invalidate()`` under its Combine-style name.
  public func cancel() { invalidate() }
  deinit { cancelAction?() }
}
