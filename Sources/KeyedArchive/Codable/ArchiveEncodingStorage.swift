/// What one value encoded to, before the archive is written: an entry already in `$objects` (a string, a number,
/// a Foundation value, a ``Coding`` instance, `NSNull`), a keyed or unkeyed container still being filled, or the
/// result of an encoder that may still be filled (a super encoder, a class instance).
enum EncodedValue {
  case uid(Int)
  case keyed(KeyedEncodingStorage)
  case unkeyed(UnkeyedEncodingStorage)
  case pending(ArchiveValueEncoder)

  /// The keyed container this value is, if it is one.
  var keyedStorage: KeyedEncodingStorage? {
    if case .keyed(let storage) = self { storage } else { nil }
  }

  /// The unkeyed container this value is, if it is one.
  var unkeyedStorage: UnkeyedEncodingStorage? {
    if case .unkeyed(let storage) = self { storage } else { nil }
  }
}

/// A keyed container: the UIDs of its key strings and its values, in the order first encoded (a key encoded again
/// replaces its value, as `JSONEncoder` does). A class, so that nested containers can be filled after they are
/// handed out; `isShared` marks the container of a class instance, which is written once however often it is
/// reached.
final class KeyedEncodingStorage {
  private(set) var keys: [Int] = []
  private(set) var values: [EncodedValue] = []
  /// Positions by key UID, built once the container is large enough for a linear search to cost more.
  private var positions: [Int: Int]?
  var isShared = false

  private static let linearLimit = 16

  init() {
    // Most containers have a handful of keys: one allocation each instead of regrowing at 1, 2 and 4.
    keys.reserveCapacity(4)
    values.reserveCapacity(4)
  }

  func set(_ value: EncodedValue, forKey key: Int) {
    if let positions {
      if let position = positions[key] {
        values[position] = value
        return
      }
    } else if let position = keys.firstIndex(of: key) {
      values[position] = value
      return
    }
    keys.append(key)
    values.append(value)
    if positions != nil {
      positions?[key] = keys.count - 1
    } else if keys.count > Self.linearLimit {
      positions = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
    }
  }
}

/// An unkeyed container: its values in order.
final class UnkeyedEncodingStorage {
  var values: [EncodedValue] = []
  var isShared = false

  init() { values.reserveCapacity(4) }
}
