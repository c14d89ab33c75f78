import ArchiveCoding
import Foundation

/// The ``DecodingCoder`` one object's `init(coder:)` sees during an instantiation: its fields come from the
/// object's prepared ``FieldIndex``, references go back to the ``NibInstantiator``. The instantiator keeps one per
/// nesting depth and hands it to the next object at that depth once the previous one's initialiser has returned,
/// unless that initialiser kept a reference to it (``reuse(for:)``).
///
/// Whatever makes decoding a nib fast is here, behind the public coder calls, so that users' classes get it as the
/// interface catalog's do (NIB-300, NIB-301): plain-field results kept across a plan's instantiations
/// (``decodePlainFields(_:)``), collections of objects collected unboxed (``decodeObjectReferences(forKey:)``),
/// and references handed to the link phase as objects (``decodeDeferredObject(forKey:allowedClasses:assign:)``).
final class NibObjectCoder: DecodingCoder {
  // The object is held by its index (the plan, which the instantiator holds, holds the object).
  let instantiator: NibInstantiator
  /// Which object is being decoded, and what its initialiser did so far.
  private struct Cursor {
    /// The index of the object being decoded.
    var objectIndex: Int
    /// How many fields that refer to objects the initialiser has read so far: a ``PlainFields`` initialiser that
    /// read one is not kept (NIB-300).
    var objectReads = 0
  }
  // Integers only: assigning one releases nothing, so no deinitialiser can run while it is being written, and its
  // accesses need no runtime exclusivity checks.
  private var cursor: Cursor
  /// The plain-field results this coder keeps for the plan's later instantiations (``publishPlainFields()``), when
  /// the instantiation records them and the object has none kept yet; `nil` while there are none.
  private var recorder: KeptPlainFields.Recorder?
  /// Whether this instantiation records or takes kept plain-field results (the plan's second and later ones do).
  private let keepsPlainFields: Bool
  /// The object's fields, read from the plan the instantiator holds rather than kept: handing the coder to the next
  /// object then stores no reference.
  var fields: FieldIndex { instantiator.plan.objects[cursor.objectIndex].fields }

  init(instantiator: NibInstantiator, object: NibPlan.Object, keepsPlainFields: Bool) {
    self.instantiator = instantiator
    self.keepsPlainFields = keepsPlainFields
    cursor = Cursor(objectIndex: object.index)
  }

  /// Makes this coder the one for the object at `index`, as a new one would be.
  func reuse(for index: Int) {
    cursor = Cursor(objectIndex: index)
    if recorder != nil { recorder = nil }
  }

  /// The object being decoded.
  var object: NibPlan.Object { instantiator.plan.objects[cursor.objectIndex] }

  /// Keeps the plain-field results this coder recorded for the later instantiations, once the initialiser has
  /// returned (an initialiser that threw may have stopped anywhere).
  func publishPlainFields() {
    guard let recorder else { return }
    instantiator.plan.keep(KeptPlainFields(recorder.results), forObjectAt: cursor.objectIndex)
  }

  /// The class name the document gives the object being decoded.
  var className: String { object.className }

  var requiresSecureCoding: Bool { false }
  /// The registry of the instantiation.
  var registry: ClassRegistry { instantiator.registry }
  var decodingFailurePolicy: DecodingFailurePolicy { .throwError }
  var error: (any Error)? { instantiator.error }
  func failWithError(_ error: any Error) { instantiator.failWithError(error) }

  func containsValue(forKey key: String) -> Bool { fields.position(of: key) != nil }

  func decodeValue(forKey key: String) throws -> CodedValue? {
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

  func decodeObject(forKey key: String, allowedClasses: Set<String>?) throws -> Any? {
    guard let i = fields.position(of: key) else { return nil }
    let entry = fields.entries[i]
    if entry.isConstant { return entry.constant }
    cursor.objectReads += 1
    do {
      return try instantiator.value(of: entry.value, key: key)
    } catch let error as ArchiveError {
      throw error.located(in: location(for: key))
    }
  }

  /// Asks for the field to be decoded in the link phase; text naming an object of the document by its id is that
  /// object (XIB attributes that refer to objects, such as a constraint's `firstItem="lb0"`, reach the table as
  /// text) (NIB-301).
  func decodeDeferred(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, Any?) throws -> Void
  ) throws {
    guard let i = fields.position(of: key) else { return }
    let entry = fields.entries[i]
    cursor.objectReads += 1
    if case .string = entry.value, let index = entry.namedObject {
      instantiator.defer(index, key: key, of: cursor.objectIndex) { owner, object in try assign(owner, object) }
      return
    }
    instantiator.defer(entry.value, key: key, of: cursor.objectIndex, assign: assign)
  }

  // Fast paths with the default implementations' results: the common field kinds are answered here, every other
  // case (and every error) goes through the default.

  /// Hands the link phase the object a field refers to (a reference, or text naming an object by its id) without an
  /// `Any` box, whose cast costs more than the link itself (NIB-301).
  func decodeDeferredObject(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, AnyObject?) throws -> Void
  ) throws {
    let fields = self.fields
    guard let i = fields.position(of: key) else { return }
    guard let target = fields.entries[i].referencedObject else {
      return try defaultDecodeDeferredObject(forKey: key, allowedClasses: allowedClasses, assign: assign)
    }
    cursor.objectReads += 1
    instantiator.defer(target, key: key, of: cursor.objectIndex, objectAssign: assign)
  }

  /// Collects a collection whose elements are all object references straight into `[T]`, instantiating each in
  /// order and leaving out `nil` ones, as the default does through `[Any]` (NIB-301).
  func decodeArrayOfObjects<T>(ofClass type: T.Type, forKey key: String) throws -> [T]? {
    guard let (key, indexes) = objectElements(forKey: key) else {
      return try defaultDecodeArrayOfObjects(ofClass: type, forKey: key)
    }
    return try collect(indexes, forKey: key) { $0 as? T }
  }

  /// The objects of a collection whose elements are all object references, instantiated in order, `nil` ones left
  /// out, straight into `[AnyObject]` (COD-238).
  func decodeObjectReferences(forKey key: String) throws -> [AnyObject]? {
    guard let (key, indexes) = objectElements(forKey: key) else {
      return try defaultDecodeObjectReferences(forKey: key)
    }
    var objects: [AnyObject] = []
    objects.reserveCapacity(indexes.count)
    for index in indexes {
      do {
        if let object = try instantiator.instantiate(index, key: key) { objects.append(object) }
      } catch let error as ArchiveError {
        throw error.located(in: location(for: key))
      }
    }
    return objects
  }

  /// The key and the objects' indexes of a collection whose elements are all object references, or `nil` (absent, or
  /// not such a collection: the default implementation answers).
  @inline(__always)
  private func objectElements(forKey key: String) -> (String, [Int])? {
    guard let i = fields.position(of: key), let indexes = fields.entries[i].elementObjects else { return nil }
    cursor.objectReads += 1
    return (key, indexes)
  }

  /// The objects at `indexes`, instantiated in order, `nil` ones left out, each cast with `cast`; an element that
  /// does not cast is `typeMismatch` naming `key[i]`, as the default says.
  @inline(__always)
  private func collect<T>(_ indexes: [Int], forKey key: String, _ cast: (AnyObject) -> T?) throws -> [T] {
    var objects: [T] = []
    objects.reserveCapacity(indexes.count)
    for index in indexes {
      let object: AnyObject?
      do {
        object = try instantiator.instantiate(index, key: key)
      } catch let error as ArchiveError {
        throw error.located(in: location(for: key))
      }
      guard let object else { continue }
      guard let element = cast(object) else {
        throw ArchiveError(
          .typeMismatch, "expected \(T.self), found \(Swift.type(of: object))",
          at: location(for: "\(key)[\(objects.count)]"))
      }
      objects.append(element)
    }
    return objects
  }

  /// The result an earlier instantiation of the plan kept for this object and `Fields`, else what
  /// `Fields(coder:)` makes now, kept for the later instantiations when this one records and the initialiser read no
  /// field that refers to an object (NIB-300).
  func decodePlainFields<Fields: PlainFields>(_ type: Fields.Type) throws -> Fields {
    guard keepsPlainFields else { return try Fields(coder: self) }
    let kind = ObjectIdentifier(Fields.self)
    if let kept = instantiator.keptPlainFields[cursor.objectIndex] {
      // Kept under the identity of `Fields`, and made by `Fields(coder:)`: a `Fields`.
      if let value = kept.value(kind) { return unsafeDowncast(value, to: Fields.self) }
      return try Fields(coder: self)
    }
    let reads = cursor.objectReads
    let fields = try Fields(coder: self)
    if cursor.objectReads == reads {
      if recorder == nil { recorder = KeptPlainFields.Recorder() }
      recorder?.results.append((kind, fields))
    }
    return fields
  }

  func decodeDouble(forKey key: String) throws -> Double {
    guard let i = fields.position(of: key) else { return 0 }
    let entry = fields.entries[i]
    switch entry.value {
    case .real(let v): return v
    case .integer(let v): return Double(v)
    case .null: return 0
    case .string: if let number = entry.number { return number }
    default: break
    }
    return try defaultDecodeDouble(forKey: key)
  }

  func decodeBool(forKey key: String) throws -> Bool {
    guard let i = fields.position(of: key) else { return false }
    let entry = fields.entries[i]
    switch entry.value {
    case .bool(let v): return v
    case .integer(let v): return v != 0
    case .null: return false
    case .string: if let flag = entry.flag { return flag }
    default: break
    }
    return try defaultDecodeBool(forKey: key)
  }

  func decodeInt64(forKey key: String) throws -> Int64 {
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

  func decodeString(forKey key: String) throws -> String? {
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
