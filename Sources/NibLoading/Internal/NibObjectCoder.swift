import ArchiveCoding
import Foundation

/// The ``DecodingCoder`` one object's `init(coder:)` sees during an instantiation: its fields come from the
/// object's prepared ``FieldIndex``, references go back to the ``NibInstantiator``. The instantiator keeps one per
/// nesting depth and hands it to the next object at that depth once the previous one's initialiser has returned,
/// unless that initialiser kept a reference to it (``reuse(for:)``).
///
/// The catalog's decoding helpers (`InterfaceObjects`) read it directly through the `package` members: they try
/// several keys per property and convert the first present one, in one pass over the fields.
package final class NibObjectCoder: DecodingCoder {
  // The object is held by its index (the plan, which the instantiator holds, holds the object).
  let instantiator: NibInstantiator
  /// Which object is being decoded, and where its lookups are (NIB-041).
  private struct Cursor {
    /// The index of the object being decoded.
    var objectIndex: Int
    /// The steps of the tape being replayed, valid while the instantiator holds the tape
    /// (``NibInstantiator/lookupTapes``); empty once a query differs from the tape (or when there is none).
    var replay: UnsafeBufferPointer<LookupTape.Step>
    /// The next step of ``replay``.
    var step = 0
    /// Whether the lookups so far were the tape's (memos are replayed only then).
    var replaying = false
    /// What the lookups found, when this coder records them for ``publishLookups()``.
    var recorder: LookupTape.Recorder?
  }
  private var cursor: Cursor
  /// The object's fields, read from the plan the instantiator holds rather than kept: handing the coder to the next
  /// object then stores no reference.
  package var fields: FieldIndex { instantiator.plan.objects[cursor.objectIndex].fields }
  private let recordsLookups: Bool

  init(instantiator: NibInstantiator, object: NibPlan.Object, recordsLookups: Bool) {
    self.instantiator = instantiator
    self.recordsLookups = recordsLookups
    cursor = Cursor(objectIndex: object.index, replay: UnsafeBufferPointer(start: nil, count: 0))
    startLookups()
  }

  /// Makes this coder the one for the object at `index`, as a new one would be.
  func reuse(for index: Int) {
    cursor.objectIndex = index
    cursor.step = 0
    startLookups()
  }

  /// The tape to replay (when the object's lookups have been recorded) or the recorder (when they are to be).
  @inline(__always)
  private func startLookups() {
    guard recordsLookups else { return }
    // The steps are read out of the tape before anything else is stored, so that the tape is not held meanwhile.
    if let steps = instantiator.lookupTapes[cursor.objectIndex]?.steps {
      cursor.replay = steps
      cursor.replaying = true
      if cursor.recorder != nil { cursor.recorder = nil }
    } else {
      cursor.replay = UnsafeBufferPointer(start: nil, count: 0)
      cursor.replaying = false
      cursor.recorder = LookupTape.Recorder()
    }
  }

  /// The object being decoded.
  var object: NibPlan.Object { instantiator.plan.objects[cursor.objectIndex] }

  /// How many of this coder's lookups were answered from the recorded ones so far (NIB-041).
  package var replayedLookups: Int { cursor.step }

  /// Keeps the lookups this coder recorded for the later instantiations, once the initialiser has returned
  /// (an initialiser that threw may have stopped anywhere).
  func publishLookups() {
    guard let recorder = cursor.recorder else { return }
    instantiator.plan.publish(LookupTape(recorder), forObjectAt: cursor.objectIndex)
  }

  /// The class name the document gives the object being decoded.
  package var className: String { object.className }

  package var requiresSecureCoding: Bool { false }
  /// The registry of the instantiation.
  package var registry: ClassRegistry { instantiator.registry }
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
    cursor.recorder?.noteObjectRead()
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
    cursor.recorder?.noteObjectRead()
    instantiator.defer(value, key: key, of: cursor.objectIndex, assign: assign)
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
    cursor.recorder?.noteObjectRead()
    switch entry.value {
    case .object(let index):
      instantiator.defer(index, key: key, of: cursor.objectIndex, objectAssign: assign)
    case .string:
      guard let index = entry.namedObject else { return false }
      instantiator.defer(index, key: key, of: cursor.objectIndex, objectAssign: assign)
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
    cursor.recorder?.noteObjectRead()
    instantiator.defer(target, key: key, of: cursor.objectIndex, objectAssign: assign)
  }

  /// ``deferObjectReference(to:forKey:assign:)`` for two fields known to refer to the objects at `first` and
  /// `second`, set together by one link (a constraint's items).
  package func deferObjectReferences(
    to first: Int, forKey key: String, and second: Int, forKey secondKey: String,
    assign: @escaping (AnyObject, AnyObject?, AnyObject?) throws -> Void
  ) {
    cursor.recorder?.noteObjectRead()
    cursor.recorder?.noteObjectRead()
    instantiator.defer(first, key: key, and: second, secondKey: secondKey, of: cursor.objectIndex, assign: assign)
  }

  /// The indexes of the objects of the collection field at `i` and its key, when its elements are all object
  /// references, else `nil` (use `decodeObject(forKey:)`). With ``objectElement(_:forKey:)``, callers collect the
  /// objects as `decodeObject(forKey:)` would give them (instantiated in order, `nil` ones left out) but unboxed,
  /// straight into an array of their own element type, reading the field once for the whole collection.
  package func objectElements(at i: Int) -> (indexes: [Int], key: String)? {
    let entry = fields.entries[i]
    guard let indexes = entry.elementObjects else { return nil }
    cursor.recorder?.noteObjectRead()
    return (indexes, entry.key)
  }

  /// The object at `index`, an element of the collection field under `key` (``objectElements(at:)``),
  /// instantiated.
  package func objectElement(_ index: Int, forKey key: String) throws -> AnyObject? {
    do {
      return try instantiator.instantiate(index, key: key)
    } catch let error as ArchiveError {
      throw error.located(in: location(for: key))
    }
  }

  /// The position of the first present key of `keys` (the catalog's helpers try several): from the recorded
  /// lookups when this query is the one recorded at this step (NIB-041), else by looking the keys up.
  package func position(ofFirst keys: [String]) -> Int? {
    let i = cursor.step
    if i < cursor.replay.count {
      if LookupTape.matches(keys, at: i, of: cursor.replay) {
        cursor.step = i + 1
        let position = cursor.replay[i].position
        return position < 0 ? nil : position
      }
      cursor.replay = UnsafeBufferPointer(start: nil, count: 0)
    }
    // A query past the tape's end or off it: the memos no longer apply either.
    cursor.replaying = false
    return lookUp(keys)
  }

  /// ``position(ofFirst:)`` without the tape: looks the keys up, and records the query when recording. (Kept out of
  /// line, so that a replayed query saves and restores no registers for it.)
  @inline(never)
  private func lookUp(_ keys: [String]) -> Int? {
    let position = fields.position(ofFirst: keys)
    cursor.recorder?.record(keys, position)
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
    guard cursor.replaying,
      let memo = instantiator.lookupTapes[cursor.objectIndex]?.memo(ObjectIdentifier(type), at: cursor.step)
    else { return nil }
    cursor.step += memo.steps
    // The memo's kind is the class of its value, and it is `T`'s.
    return unsafeDowncast(memo.value, to: T.self)
  }

  /// Where a function whose result is to be kept starts, when this coder records its lookups; else `nil`.
  @inline(__always)
  package var memoStart: MemoStart? { cursor.recorder?.memoStart }

  /// Where a recorded function started: the step, and how many fields that refer to objects had been read.
  package struct MemoStart {
    let step: Int
    let objectReads: Int
  }

  /// Keeps what a function that started at `start` (``memoStart``) made, for the later instantiations, unless it
  /// read a field that refers to an object.
  package func recordMemo(_ value: AnyObject, start: MemoStart) {
    cursor.recorder?.recordMemo(value, start: start)
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

extension DecodingCoder {
  /// The coder as the nib loader's own coder, whose `package` members read the prepared fields directly, or `nil`
  /// for any other coder: an exact class test (the class is final), which costs less than a dynamic cast.
  package var nibCoder: NibObjectCoder? {
    let object: AnyObject = self
    guard ObjectIdentifier(type(of: object)) == ObjectIdentifier(NibObjectCoder.self) else { return nil }
    return unsafeDowncast(object, to: NibObjectCoder.self)
  }

  /// `body` of this coder as the nib loader's own coder, or `nil` for any other coder: as ``nibCoder``, without
  /// handing the caller a reference of its own to the coder.
  package func withNibCoder<R>(_ body: (NibObjectCoder) throws -> R) rethrows -> R? {
    let object: AnyObject = self
    guard ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(NibObjectCoder.self) else { return nil }
    return try body(unsafeDowncast(object, to: NibObjectCoder.self))
  }

  /// ``NibObjectCoder/replayedMemo(_:)`` of this coder when it is the nib loader's own coder, else `nil`: asked
  /// without handing the caller a reference to the coder, as ``nibCoder`` does.
  package func replayedNibMemo<T: AnyObject>(_ type: T.Type) -> T? {
    let object: AnyObject = self
    guard ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(NibObjectCoder.self) else { return nil }
    return unsafeDowncast(object, to: NibObjectCoder.self).replayedMemo(type)
  }
}
