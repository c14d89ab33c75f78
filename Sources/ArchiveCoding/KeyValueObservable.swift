import Foundation

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
}

extension KeyValueObservable {
  /// Registers a handler for changes of a key; keep the token to stay registered.
  /// - Returns: a token that removes the observer when cancelled or released.
  public func observe(_ key: String, _ handler: @escaping (KeyValueChange) -> Void) -> KeyValueObservation {
    keyValueObservers.add(key, handler)
  }
}

/// The observers of one object, by key. Thread-safe.
public final class KeyValueObservers: @unchecked Sendable {
  private let lock = NSLock()
  private var next = 0
  private var byKey: [String: [(id: Int, handler: (KeyValueChange) -> Void)]] = [:]

  /// Creates an empty set of observers.
  public init() {}

  /// `true` when someone observes the key.
  public func isObserving(_ key: String) -> Bool {
    lock.withLock { !(byKey[key]?.isEmpty ?? true) }
  }

  func add(_ key: String, _ handler: @escaping (KeyValueChange) -> Void) -> KeyValueObservation {
    let id = lock.withLock { () -> Int in
      next += 1
      byKey[key, default: []].append((next, handler))
      return next
    }
    return KeyValueObservation { [weak self] in self?.remove(id, key: key) }
  }

  private func remove(_ id: Int, key: String) {
    lock.withLock { byKey[key]?.removeAll { $0.id == id } }
  }

  /// Observers run on the thread that sets the value, outside the lock, as in Foundation.
  func post(_ change: KeyValueChange) {
    let handlers = lock.withLock { byKey[change.key]?.map(\.handler) ?? [] }
    for handler in handlers { handler(change) }
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
