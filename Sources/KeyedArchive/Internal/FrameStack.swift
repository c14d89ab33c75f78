import PropertyList

/// The frames of the objects whose `init(coder:)` is running, innermost last, with the lookup state of the
/// innermost object's fields held apart (``cursor``): every field lookup reads and writes it in place, without an
/// array's bounds and uniqueness checks or the retains of a frame's key and collector.
struct FrameStack {
  /// The lookup state of an object's fields: its dictionary, its layout and where the next lookup starts.
  struct Cursor {
    /// The object's dictionary.
    var header: BinaryPropertyListReader.Header
    /// The object's layout (its keys in the index).
    var layout: ArchiveIndex.Layout
    /// The position after the key the last lookup found: where the next lookup starts comparing (keys are usually
    /// read in the order they were written). In a dictionary that holds a key twice (no archiver writes one), which
    /// of the two a lookup finds may depend on the lookups before it.
    var next = 0
    /// `true` for an object of a class that keeps its unread fields: its lookups are noted in the last of
    /// ``ObjectStore/OpenObjects/reads``.
    var notesReads = false

    /// The cursor held while no object is being decoded.
    static var none: Cursor {
      Cursor(header: .init(kind: .null, count: 0, start: 0), layout: .init(first: -1, count: 0, classPosition: -1))
    }
  }

  /// The frames, outermost first: the first ``count`` are open, the others are left from objects decoded before
  /// and are overwritten as objects are entered (a frame holds no reference), so that entering and
  /// leaving an object neither allocates nor destroys a frame.
  private var frames: [ObjectStore.Frame] = []
  /// For each open frame, the key its object was reached under (for key paths in errors).
  private var keys: [String] = []
  /// For each open frame, the cursor of the object around it, restored when the frame is left.
  private var outerCursors: [Cursor] = []
  /// The number of open frames.
  private(set) var count = 0
  /// The lookup state of the innermost object; ``Cursor/none`` outside any object.
  var cursor = Cursor.none

  /// `true` outside any object.
  @inline(__always) var isEmpty: Bool { count == 0 }
  /// The innermost frame, or `nil` outside any object.
  var last: ObjectStore.Frame? { count > 0 ? frames[count - 1] : nil }
  /// Each open frame's key, or `key[index]` for an object reached through an inline array, outermost first (for key
  /// paths in errors).
  var pathComponents: [String] { (0..<count).map { Self.pathComponent(keys[$0], index: frames[$0].index) } }

  /// `key`, or `key[index]` for an element index of 0 or more: one component of an error's key path.
  static func pathComponent(_ key: String, index: Int) -> String { index >= 0 ? "\(key)[\(index)]" : key }

  /// Enters the frame of an object whose `init(coder:)` is about to run, reached under `key`, with its fields' lookup
  /// state.
  mutating func push(_ frame: ObjectStore.Frame, key: String, cursor: Cursor) {
    if count < frames.count {
      frames[count] = frame
      keys[count] = key
      outerCursors[count] = self.cursor
    } else {
      frames.append(frame)
      keys.append(key)
      outerCursors.append(self.cursor)
    }
    count &+= 1
    self.cursor = cursor
  }

  /// Leaves the innermost frame.
  /// - Precondition: a frame is open.
  mutating func pop() {
    count &-= 1
    cursor = outerCursors[count]
  }

  /// The innermost frame's first link (``ObjectStore/Frame/linkStart``).
  /// - Precondition: a frame is open.
  var linkStart: Int { frames[count - 1].linkStart }

  /// The innermost frame's class slot.
  /// - Precondition: a frame is open.
  var classSlot: Int { frames[count - 1].classSlot }

  /// The innermost object's next unkeyed slot (`$0`, `$1`, …), taken.
  /// - Precondition: a frame is open.
  mutating func takeUnkeyedSlot() -> Int {
    let slot = frames[count - 1].unkeyed
    frames[count - 1].unkeyed += 1
    return slot
  }

  /// The array type the innermost object is collected into, taken (``ObjectStore/Frame/collector``).
  mutating func takeCollector() -> (any TypedElementCollecting.Type)? {
    guard count > 0, let collector = frames[count - 1].collector else { return nil }
    frames[count - 1].collector = nil
    return collector
  }
}
