import ArchiveCoding
import Foundation
import PropertyList

extension KeyedUnarchiver {
  /// An object whose `init(coder:)` is running: the dictionary its fields are read from and the lookup state.
  struct Frame {
    /// `key` or `key[index]`, for key paths in errors.
    var pathComponent: String { index >= 0 ? "\(key)[\(index)]" : key }

    var uid: Int
    var header: BinaryPropertyListReader.Header
    var key: String
    /// The element index when the object was reached through an inline array (`NS.objects[3]`), else -1; the
    /// path text is only built for error messages.
    var index: Int = -1
    var linkStart: Int
    /// The next unkeyed slot (`$0`, `$1`, …) of this object.
    var unkeyed = 0
    /// The index of the object's class in `classEntries` (its name is read from there for errors and links).
    var classSlot: Int32
    /// The number of keyed lookups made so far in this object (the index of the next field hint).
    var cursor = 0
    /// The position after the key the last lookup found: where a lookup without a hint starts comparing (keys are
    /// usually read in the order they were written). In a dictionary that holds a key twice (no archiver writes one),
    /// which of the two a lookup finds may depend on the lookups before it.
    var nextPosition = 0

    /// Sets ``cursor`` and ``nextPosition`` in one access.
    @inline(__always)
    mutating func advance(cursor: Int, next: Int) {
      self.cursor = cursor
      nextPosition = next
    }
  }
}
