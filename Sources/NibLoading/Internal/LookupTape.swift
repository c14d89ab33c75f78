/// The key lookups one object's `init(coder:)` made, in order, recorded on an instantiation of a plan and replayed
/// by the later ones (NIB-041).
///
/// A catalog initialiser asks the same questions of the same fields every time: `["hidden", "isHidden",
/// "UIHidden", "NSHidden"]`, then `["tag", "UITag", "NSTag"]`, and so on, each a constant array. The answer (the
/// position of the first key present) depends only on the keys and on the object's fields, which the plan fixes.
/// So a later instantiation answers the query at step *n* from the tape when it has the keys recorded at step *n*;
/// the first query that does not stops the replay for that object, which then looks keys up as before.
///
/// A constant array is recognised by the address of its elements: the tape keeps a native copy of each recorded
/// array (for a native array, its own storage), and no other array can have its elements at that address while
/// the tape lives. A query at another address (an array built for the call) is compared key by key. Either way a
/// replayed answer is the one a lookup of the same keys would give.
final class LookupTape: @unchecked Sendable {
  // Unchecked: immutable after init; `steps` is this object's own buffer, read only.

  /// One recorded lookup.
  struct Step {
    /// The keys asked for, in native storage that the tape keeps alive.
    var keys: ContiguousArray<String>
    /// The address of ``keys``'s elements.
    var identity: UnsafeRawPointer?
    /// How many keys.
    var count: Int
    /// The position of the first present key, or -1 when none is.
    var position: Int
  }

  /// The result of a run of lookups, recorded with it: a catalog initialiser that reads several constant fields
  /// through one function (a view's frame, colour, flags) keeps what it made of them, and a later instantiation
  /// that reaches the same step takes it instead of asking again (NIB-042).
  struct Memo {
    /// The memo's class (``NibObjectCoder/replayedMemo(_:)`` looks for one type).
    var kind: ObjectIdentifier
    /// The step at which the function started.
    var start: Int
    /// How many steps the function's lookups took, which a replay skips.
    var steps: Int
    /// What the function made.
    var value: AnyObject
  }

  /// The lookups a recording ``NibObjectCoder`` makes, in order, to become a tape: a class of its own, so that a
  /// coder that does not record (nearly all) holds one `nil` reference instead of an array.
  final class Recorder {
    private(set) var steps: [Step] = []
    private(set) var memos: [Memo] = []
    /// How many fields that refer to objects the initialiser has read so far.
    private(set) var objectReads = 0

    /// Notes that the initialiser read a field that refers to an object (a function that did makes no memo).
    func noteObjectRead() { objectReads += 1 }

    /// Where a function whose result may be kept starts.
    var memoStart: NibObjectCoder.MemoStart { NibObjectCoder.MemoStart(step: steps.count, objectReads: objectReads) }

    /// Records what a function that started at `start` made of its lookups (the steps since), unless it read a
    /// field that refers to an object: instantiating that object is part of every instantiation.
    func recordMemo(_ value: AnyObject, start: NibObjectCoder.MemoStart) {
      guard start.step <= steps.count, objectReads == start.objectReads else { return }
      memos.append(
        Memo(kind: ObjectIdentifier(type(of: value)), start: start.step, steps: steps.count - start.step, value: value))
    }

    /// Records that `keys` found `position` (`nil`: none of them is present).
    func record(_ keys: [String], _ position: Int?) {
      // A native array's storage is shared, not copied; anything else is copied into native storage.
      let native = ContiguousArray(keys)
      let identity = native.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
      steps.append(Step(keys: native, identity: identity, count: native.count, position: position ?? -1))
    }
  }

  /// The steps, in a buffer of the tape's own (allocated and initialised in `init`, freed in `deinit`), so that a
  /// replaying coder that holds the tape reads them without an array's reference counting and bounds checks per
  /// query.
  let steps: UnsafeBufferPointer<Step>
  /// The memos, by starting step (few: one per catalog class an object's initialiser passes through).
  let memos: [Memo]

  init(_ recorder: Recorder) {
    let buffer = UnsafeMutableBufferPointer<Step>.allocate(capacity: recorder.steps.count)
    _ = buffer.initialize(from: recorder.steps)
    steps = UnsafeBufferPointer(buffer)
    memos = recorder.memos
  }

  /// The memo of class `kind` recorded at step `start`, if any.
  @inline(__always)
  func memo(_ kind: ObjectIdentifier, at start: Int) -> Memo? {
    // By index: a memo is copied (its value retained) only when it is the one asked for.
    for i in memos.indices where memos[i].start == start && memos[i].kind == kind { return memos[i] }
    return nil
  }

  deinit {
    let buffer = UnsafeMutableBufferPointer(mutating: steps)
    _ = buffer.deinitialize()
    buffer.deallocate()
  }

  /// Whether `keys` are the keys of the step at `i`: the same elements' address and count, or else the same keys.
  @inline(__always)
  static func matches(_ keys: [String], at i: Int, of steps: UnsafeBufferPointer<Step>) -> Bool {
    guard keys.count == steps[i].count else { return false }
    if keys.withUnsafeBufferPointer({ UnsafeRawPointer($0.baseAddress) }) == steps[i].identity { return true }
    return matchesKeyByKey(keys, steps[i].keys)
  }

  @inline(never)
  private static func matchesKeyByKey(_ keys: [String], _ recorded: ContiguousArray<String>) -> Bool {
    keys.elementsEqual(recorded)
  }
}
