import ArchiveCoding
import ArchiveSupport
import Foundation
import PropertyList

/// Everything one unarchiver changes while it decodes an archive: each entry's state and value, the frames of the
/// objects being decoded, the deferred references, the awake list, what each class of the archive resolved to and
/// the secure-coding verdicts, and the coder's settings (Decision 0032).
///
/// The one place of the unarchiver with unchecked exclusivity (Decisions 0023, 0032): every field lookup of every
/// `init(coder:)` reads and writes ``state``, and the run-time checks cost more than most of those lookups. Each
/// access reads or writes one field of the state and ends before any other code runs (no access spans a call out of
/// the unarchiver, such as an `init(coder:)`, an awake call or a delegate), so two accesses never overlap.
final class ObjectStore {
  @exclusivity(unchecked) var state: State

  /// A store for an archive of `count` entries and `classCount` class slots.
  /// - Precondition: `count` is below `Int32.max` (the container check bounds the object count).
  init(count: Int, classCount: Int, requiresSecureCoding: Bool) {
    var classes: [ClassState] = []
    classes.reserveCapacity(classCount)
    for _ in 0..<classCount { classes.append(ClassState()) }
    state = State(
      cache: ObjectCache(count: count), classes: classes, settings: Settings(requiresSecureCoding: requiresSecureCoding)
    )
  }

  /// The tables and settings (at most twelve stored properties: each is one job of the store).
  struct State {
    /// Each entry's decoding state and decoded value.
    var cache: ObjectCache
    /// The objects whose `init(coder:)` is running, innermost last.
    var frames = FrameStack()
    /// The deferred references (``KeyedUnarchiver/decodeDeferred(forKey:allowedClasses:assign:)``).
    var links: [Link] = []
    /// The instances that asked for deferred references, awoken after the link phase (Decision 0025).
    var awakeList: [(uid: Int, object: any Coding)] = []
    /// What each class slot of the index resolved to, and its secure-coding verdict.
    var classes: [ClassState]
    /// What is noted of the objects being decoded besides their frames.
    var open = OpenObjects()
    /// The `NS.keys` lists of the dictionaries decoded, and their templates.
    var keyLists = KeyListTable()
    /// The coder's settings.
    var settings: Settings
    /// ``KeyedUnarchiver/allowedClasses`` while an `init(coder:)` runs.
    var allowedClasses: Set<String>?
    /// The next unkeyed slot of `$top`.
    var topUnkeyed = 0
    /// `true` while the link phase runs.
    var linking = false
    /// Stops nesting before the current thread's stack runs out.
    var stackGuard = StackGuard()
  }

  /// What is noted of the objects being decoded besides their frames.
  struct OpenObjects {
    /// The generic objects whose fields are being decoded: a reference to one of them closes a cycle and is handed
    /// out as an ``ArchivedObject/BackReference`` (weak), so generic graphs never form strong cycles.
    var generic = Set<Int>()
    /// For each object being decoded whose class keeps its unread fields (``KeepsUnreadFields``; its frame's
    /// ``Frame/notesReads``), innermost last, which of its dictionary's keys a lookup found (COD-210). Kept out of
    /// the frames, so that the frames of other classes hold nothing more to release.
    var reads: [[Bool]] = []
    /// The index of the frame of each mutable collection published before its contents, while they are decoded.
    var published: [Int: Int] = [:]
    /// The index of the outermost frame of a mutable collection handed out while its contents were decoded (a
    /// reference that closed a cycle through it), since the decode of the key or member under way began
    /// (``KeyedUnarchiver/hashedElement(key:index:_:)``); `Int.max` for none.
    var cycleDepth = Int.max
  }

  /// The settings of ``KeyedUnarchiver`` that decoding reads for every object or field.
  struct Settings {
    var registry: ClassRegistry = .shared
    var requiresSecureCoding: Bool
    var decodingFailurePolicy: DecodingFailurePolicy = .throwError
    /// The first error recorded.
    var error: (any Error)?
    /// ``KeyedUnarchiver/setClass(_:forClassName:)``'s classes.
    var instanceClasses: [String: any Coding.Type] = [:]
  }

  /// An object whose `init(coder:)` is running, besides the lookup state of its fields (``FrameStack/Cursor``).
  struct Frame {
    var uid: Int
    /// The object's class slot in the index.
    var classSlot: Int
    /// The element index when the object was reached through an inline array (`NS.objects[3]`), else -1; the key
    /// it was reached under is the frame stack's (``FrameStack/pathComponents``), so that a frame holds no reference
    /// and entering one copies no more than its bytes.
    var index: Int
    /// The first of ``State/links`` asked for while this object was decoded.
    var linkStart: Int
    /// The array type the call that reached the object asked for, when the object is an array collected straight
    /// into it (``KeyedUnarchiver/decodeArrayOfObjects(ofClass:forKey:)``).
    var collector: (any TypedElementCollecting.Type)?
    /// The next unkeyed slot (`$0`, `$1`, …) of this object.
    var unkeyed = 0
  }

  /// A reference an `init(coder:)` asked to have set after construction, and the object it belongs to.
  struct Link {
    var owner: AnyObject?
    var ownerUID: Int
    var ownerClass: String
    var targetRef: Int
    var key: String
    var allowed: Set<String>?
    var assign: (AnyObject, Any?) throws -> Void
  }

  /// What one class slot of the index resolved to (`nil` before an object of the class is decoded), and the
  /// allowed-class set it last passed the secure-coding check with: decoding many objects of one class with one
  /// set (the elements of an array) checks once.
  struct ClassState {
    var resolved: ResolvedClass?
    var passed: Set<String>?

    /// The kind of ``resolved``, read in place (`mutating`, though it changes nothing: read through the store, a
    /// non-mutating read would copy the resolution out, chain included).
    @inline(__always)
    mutating func kind() -> ResolvedClass.Kind? { resolved?.kind }

    /// `true` when the class last passed the check with `allowed`. The set a call passes down to every nested
    /// decode is recognised by its storage, without the retains and the call of `==`.
    @inline(__always)
    func hasPassed(_ allowed: Set<String>) -> Bool {
      guard let passed else { return false }
      if MemoryLayout<Set<String>>.size == MemoryLayout<Int>.size,
        unsafeBitCast(passed, to: Int.self) == unsafeBitCast(allowed, to: Int.self)
      {
        return true
      }
      return passed == allowed
    }
  }
}
