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

/// An object whose key changes can be observed: `setValue(_:forKey:)` posts will-change and did-change
/// notifications to the observers registered for that key. Conforming classes store one
/// ``KeyValueObservers`` (usually in a base class).
public protocol KeyValueObservable: KeyValueCoding {
  /// The observers of this object. Required.
  var keyValueObservers: KeyValueObservers { get }

  /// The observers when the object has a set of them, else `nil`: `setValue(_:forKey:)` asks this, so that a
  /// class that makes its set on first use need not make one to find it empty. Default: ``keyValueObservers``.
  var existingKeyValueObservers: KeyValueObservers? { get }
}

extension KeyValueObservable {
  /// ``keyValueObservers``.
  public var existingKeyValueObservers: KeyValueObservers? { keyValueObservers }

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

  /// Registers a handler for changes of a key; keep the token to stay registered.
  /// - Returns: a token that removes the observer when cancelled or released.
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

/// Keeps an observer registered until it is cancelled or released.
public final class KeyValueObservation {
  private var cancelAction: (() -> Void)?
  init(_ cancel: @escaping () -> Void) { cancelAction = cancel }
  /// Removes the observer.
  public func cancel() {
    cancelAction?()
    cancelAction = nil
  }
  deinit { cancelAction?() }
}
