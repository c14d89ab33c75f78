/// The Swift value of a decoded `NSDictionary` (COD-033), built entry by entry: a `[String: Any]` while every key
/// is a Swift string, and a `[AnyHashable: Any]` from the first key that is not (the entries so far move into it).
///
/// String keys are kept as `String` because that is what callers cast a property-list dictionary to, and because
/// inserting into a `[AnyHashable: Any]` compares colliding keys through `AnyHashable`'s boxes (a dynamic cast and
/// a metadata lookup per comparison, about ten times the cost of comparing two strings). Decision 0015.
package struct DecodedDictionary {
  private var strings: [String: Any]
  private var general: [AnyHashable: Any]?
  private let capacity: Int

  /// An empty dictionary with room for `capacity` entries (bounded by the caller: the entries' bytes).
  package init(capacity: Int) {
    self.capacity = capacity
    strings = [String: Any](minimumCapacity: capacity)
  }

  /// Adds an entry; a later entry with an equal key replaces the earlier one. Returns `false`, adding nothing, when
  /// `key` cannot be a dictionary key.
  package mutating func insert(_ value: Any, forKey key: Any) -> Bool {
    if general == nil {
      if type(of: key) == String.self, let string = key as? String {
        strings[string] = value
        return true
      }
      guard KeyedUnarchiver.hashable(key) != nil else { return false }
      var moved = [AnyHashable: Any](minimumCapacity: capacity)
      for (string, value) in strings { moved[AnyHashable(string)] = value }
      strings = [:]
      general = moved
    }
    guard let hashable = KeyedUnarchiver.hashable(key) else { return false }
    general?[hashable] = value
    return true
  }

  /// Adds an entry whose key is known to be a Swift string.
  package mutating func insert(_ value: Any, forString key: String) {
    if general == nil {
      strings[key] = value
    } else {
      general?[AnyHashable(key)] = value
    }
  }

  /// The dictionary: `[String: Any]` when every key was a Swift string (an empty dictionary included), else
  /// `[AnyHashable: Any]`.
  package var value: Any { general ?? strings }
}
