@_spi(ArchiveCodingInternals) import ArchiveCoding
import Foundation

/// The ``DecodingCoder`` one object's `init(coder:)` sees during an instantiation: its fields come from the
/// object's prepared ``FieldIndex``, references go back to the ``NibInstantiator``. The instantiator keeps one per
/// nesting depth and hands it to the next object at that depth once the previous one's initialiser has returned,
/// unless that initialiser kept a reference to it (``reuse(for:)``).
///
/// The catalog's decoding helpers (`InterfaceObjects`) read it directly through the `package` members: they try
/// several keys per property and convert the first present one, in one pass over the fields.
package final class NibObjectCoder: DecodingCoder {
  // The coder is used by one initialiser at a time on one thread, and its state is changed only between
  // initialisers, so the runtime's exclusivity checks on it would catch nothing.
  //
  // Handing the coder on should cost little reference counting: the object is held by its index (the plan, which
  // the instantiator holds, holds the object), and the tape by an unmanaged reference (the object's fields hold
  // it once it is stored, and never replace it).
  let instantiator: NibInstantiator
  /// The index of the object being decoded.
  @exclusivity(unchecked) private var objectIndex: Int
  /// The object's fields.
  @exclusivity(unchecked) package private(set) var fields: FieldIndex
  // Lookups replayed or recorded (NIB-041).
  /// The tape being replayed, if any.
  @exclusivity(unchecked) private var tape: Unmanaged<LookupTape>?
  /// The tape's steps; empty once a query differs from the tape (or when there is none).
  @exclusivity(unchecked) private var replay: UnsafeBufferPointer<LookupTape.Step>
  /// The next step of ``replay``.
  @exclusivity(unchecked) private var step = 0
  /// Whether the lookups so far were the tape's (memos are replayed only then).
  @exclusivity(unchecked) private var replaying: Bool
  /// What the lookups found, when this coder records them for ``publishLookups()``.
  @exclusivity(unchecked) private var recorder: LookupTape.Recorder?
  private let recordsLookups: Bool

  init(instantiator: NibInstantiator, object: NibPlan.Object, recordsLookups: Bool) {
    self.instantiator = instantiator
    self.recordsLookups = recordsLookups
    objectIndex = object.index
    fields = object.fields
    tape = nil
    replay = UnsafeBufferPointer(start: nil, count: 0)
    replaying = false
    recorder = nil
    startLookups()
  }

  /// Makes this coder the one for `object`, as a new one would be.
  func reuse(for object: NibPlan.Object) {
    objectIndex = object.index
    fields = object.fields
    step = 0
    startLookups()
  }

  /// The tape to replay (when the object's lookups have been recorded) or the recorder (when they are to be).
  @inline(__always)
  private func startLookups() {
    guard recordsLookups else { return }
    // Only tapes are stored in `lookups`.
    let stored = fields.lookups.loadUnmanaged().map { Unmanaged<LookupTape>.fromOpaque($0.toOpaque()) }
    tape = stored
    if let stored {
      replay = stored._withUnsafeGuaranteedRef { $0.steps }
      replaying = true
      if recorder != nil { recorder = nil }
    } else {
      replay = UnsafeBufferPointer(start: nil, count: 0)
      replaying = false
      recorder = LookupTape.Recorder()
    }
  }

  /// The object being decoded.
  var object: NibPlan.Object { instantiator.plan.objects[objectIndex] }

  /// How many of this coder's lookups were answered from the recorded ones so far (NIB-041).
  package var replayedLookups: Int { step }

  /// Keeps the lookups this coder recorded for the later instantiations, once the initialiser has returned
  /// (an initialiser that threw may have stopped anywhere).
  func publishLookups() {
    guard let recorder else { return }
    _ = fields.lookups.storeIfNil(LookupTape(recorder))
  }

  /// The class name the document gives the object being decoded.
  package var className: String { object.className }

  package var requiresSecureCoding: Bool { false }
  package var decodingFailurePolicy: DecodingFailurePolicy { .throwError }
  package var error: (any Error)? { instantiator.error }
  package func failWithError(_ error: any Error) { instantiator.failWithError(error) }

  package func containsValue(forKey key: String) -> Bool { fields.position(of: key) != nil }

  package func decodeValue(forKey key: String) throws -> CodedValue? {
    guard let value = fields.value(of: key) else { return nil }
    switch value {
    case .null: return nil
    case .bool(let v): return .bool(v)
    case .integer(let v): return .integer(v)
    case .real(let v): return .double(v)
    case .string(let v): return .string(v)
    case .data(let v): return .bytes(v)
    case .object, .array, .point, .size, .rect, .record:
      throw ArchiveError(
        .typeMismatch, "expected a primitive value, found \(NibInstantiator.describe(value))", at: location(for: key))
    }
  }

  package func decodeObject(forKey key: String, allowedClasses: Set<String>?) throws -> Any? {
    guard let i = fields.position(of: key) else { return nil }
    let entry = fields.entries[i]
    if entry.isConstant { return entry.constant }
    recorder?.noteObjectRead()
    do {
      return try instantiator.value(of: entry.value, key: key)
    } catch let error as ArchiveError {
      throw error.located(in: location(for: key))
    }
  }

  package func decodeDeferred(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, Any?) throws -> Void
  ) throws {
    guard let value = fields.value(of: key) else { return }
    recorder?.noteObjectRead()
    instantiator.defer(value, key: key, of: objectIndex, assign: assign)
  }

  // Fast paths with the default implementations' results: the common field kinds are answered here, every other
  // case (and every error) goes through the default.

  /// Asks for an object reference to be set in the link phase, handing `assign` the object itself (no `Any` box,
  /// whose cast costs more than the link): `true` when the field refers to an object, `false` (nothing asked) for
  /// anything else, which the caller then decodes through ``decodeDeferred(forKey:allowedClasses:assign:)``.
  ///
  /// A field refers to an object when it is a reference, or text naming an object of the document by its id: XIB
  /// attributes that name objects (a constraint's `firstItem="lb0"`) reach the table as text.
  ///
  /// `assign` is also handed the key, so that it can name it in an error without capturing it (a closure that
  /// captures nothing costs no allocation).
  package func deferObjectReference(
    forKey key: String, assign: @escaping (AnyObject, AnyObject?, String) throws -> Void
  ) -> Bool {
    guard let i = fields.position(of: key) else { return false }
    let entry = fields.entries[i]
    recorder?.noteObjectRead()
    switch entry.value {
    case .object(let index):
      instantiator.defer(index, key: key, of: objectIndex, objectAssign: assign)
    case .string:
      guard let index = entry.namedObject else { return false }
      instantiator.defer(index, key: key, of: objectIndex, objectAssign: assign)
    default:
      return false
    }
    return true
  }

  /// The index of the object the field under `key` refers to (a reference, or text naming an object by its id),
  /// without instantiating it; `nil` when the field is absent or refers to no object. What a field refers to is
  /// fixed by the plan, so a constant-field memo (NIB-042) may keep it.
  package func referencedObject(forKey key: String) -> Int? {
    guard let i = fields.position(of: key) else { return nil }
    let entry = fields.entries[i]
    switch entry.value {
    case .object(let index): return index
    case .string: return entry.namedObject
    default: return nil
    }
  }

  /// ``deferObjectReference(forKey:assign:)`` for a field known (``referencedObject(forKey:)``) to refer to the
  /// object at `target`.
  package func deferObjectReference(
    to target: Int, forKey key: String, assign: @escaping (AnyObject, AnyObject?, String) throws -> Void
  ) {
    recorder?.noteObjectRead()
    instantiator.defer(target, key: key, of: objectIndex, objectAssign: assign)
  }

  /// ``deferObjectReference(to:forKey:assign:)`` for two fields known to refer to the objects at `first` and
  /// `second`, set together by one link (a constraint's items).
  package func deferObjectReferences(
    to first: Int, forKey key: String, and second: Int, forKey secondKey: String,
    assign: @escaping (AnyObject, AnyObject?, AnyObject?) throws -> Void
  ) {
    recorder?.noteObjectRead()
    recorder?.noteObjectRead()
    instantiator.defer(first, key: key, and: second, secondKey: secondKey, of: objectIndex, assign: assign)
  }

  /// How many elements the collection field at `i` has when they are all object references, else `nil` (use
  /// `decodeObject(forKey:)`). With ``objectElement(_:at:)``, callers collect the objects as `decodeObject(forKey:)`
  /// would give them (instantiated in order, `nil` ones left out) but unboxed, straight into an array of their
  /// own element type.
  package func objectElementCount(at i: Int) -> Int? {
    guard let indexes = fields.entries[i].elementObjects else { return nil }
    recorder?.noteObjectRead()
    return indexes.count
  }

  /// Element `n` of the collection field at `i` (``objectElementCount(at:)`` said it has one), instantiated.
  package func objectElement(_ n: Int, at i: Int) throws -> AnyObject? {
    let entry = fields.entries[i]
    guard let indexes = entry.elementObjects, n < indexes.count else { return nil }
    do {
      return try instantiator.instantiate(indexes[n], key: entry.key)
    } catch let error as ArchiveError {
      throw error.located(in: location(for: entry.key))
    }
  }

  /// The position of the first present key of `keys` (the catalog's helpers try several): from the recorded
  /// lookups when this query is the one recorded at this step (NIB-041), else by looking the keys up.
  package func position(ofFirst keys: [String]) -> Int? {
    let i = step
    if i < replay.count {
      if LookupTape.matches(keys, at: i, of: replay) {
        step = i + 1
        let position = replay[i].position
        return position < 0 ? nil : position
      }
      replay = UnsafeBufferPointer(start: nil, count: 0)
    }
    // A query past the tape's end or off it: the memos no longer apply either.
    replaying = false
    return lookUp(keys)
  }

  /// ``position(ofFirst:)`` without the tape: looks the keys up, and records the query when recording. (Kept out of
  /// line, so that a replayed query saves and restores no registers for it.)
  @inline(never)
  private func lookUp(_ keys: [String]) -> Int? {
    let position = fields.position(ofFirst: keys)
    recorder?.record(keys, position)
    return position
  }

  /// The value a function of constant fields made on an earlier instantiation, when the replay has reached the
  /// step at which it started (NIB-042): the replay then skips that function's lookups. `nil` when there is
  /// nothing to replay, so the caller runs the function (and records it through ``memoStart`` and
  /// ``recordMemo(_:start:)``).
  ///
  /// Only for functions whose result depends on nothing but the object's fields that refer to no object: the
  /// memo is shared by every later instantiation.
  @inline(__always)
  package func replayedMemo<T: AnyObject>(_ type: T.Type) -> T? {
    guard replaying, let tape else { return nil }
    guard let memo = tape._withUnsafeGuaranteedRef({ $0.memo(ObjectIdentifier(type), at: step) }) else { return nil }
    step += memo.steps
    return unsafeDowncast(memo.value, to: T.self)
  }

  /// Where a function whose result is to be kept starts, when this coder records its lookups; else `nil`.
  @inline(__always)
  package var memoStart: MemoStart? { recorder?.memoStart }

  /// Where a recorded function started: the step, and how many fields that refer to objects had been read.
  package struct MemoStart {
    let step: Int
    let objectReads: Int
  }

  /// Keeps what a function that started at `start` (``memoStart``) made, for the later instantiations, unless it
  /// read a field that refers to an object.
  package func recordMemo(_ value: AnyObject, start: MemoStart) {
    recorder?.recordMemo(value, start: start)
  }

  /// The position of the key, or `nil` (for one key, which need not be put in an array).
  package func position(of key: String) -> Int? { fields.position(of: key) }

  package func decodeDouble(forKey key: String) throws -> Double {
    guard let i = fields.position(of: key) else { return 0 }
    return try decodeDouble(at: i)
  }

  /// `decodeDouble(forKey:)` of the field at a position found by ``position(ofFirst:)``.
  package func decodeDouble(at i: Int) throws -> Double {
    let entry = fields.entries[i]
    switch entry.value {
    case .real(let v): return v
    case .integer(let v): return Double(v)
    case .null: return 0
    case .string: if let number = entry.number { return number }
    default: break
    }
    return try defaultDecodeDouble(forKey: entry.key)
  }

  package func decodeBool(forKey key: String) throws -> Bool {
    guard let i = fields.position(of: key) else { return false }
    return try decodeBool(at: i)
  }

  /// `decodeBool(forKey:)` of the field at a position found by ``position(ofFirst:)``.
  package func decodeBool(at i: Int) throws -> Bool {
    let entry = fields.entries[i]
    switch entry.value {
    case .bool(let v): return v
    case .integer(let v): return v != 0
    case .null: return false
    case .string: if let flag = entry.flag { return flag }
    default: break
    }
    return try defaultDecodeBool(forKey: entry.key)
  }

  package func decodeInt64(forKey key: String) throws -> Int64 {
    guard let i = fields.position(of: key) else { return 0 }
    switch fields.entries[i].value {
    case .integer(let v): return v
    case .bool(let v): return v ? 1 : 0
    case .null: return 0
    case .string(let text): if let v = Int64(text) { return v }
    default: break
    }
    return try defaultDecodeInt64(forKey: key)
  }

  package func decodeString(forKey key: String) throws -> String? {
    guard let i = fields.position(of: key) else { return nil }
    switch fields.entries[i].value {
    case .string(let v): return v
    case .null: return nil
    default: return try decodeObject(of: String.self, forKey: key)
    }
  }

  private func location(for key: String) -> ArchiveError.Location {
    var location = object.location
    location.className = object.className
    location.keyPath = key
    return location
  }
}
