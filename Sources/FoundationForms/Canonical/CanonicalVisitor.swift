import Foundation

/// What the canonical walk of an archive reports to its consumer, in the order of the canonical view (what
/// `keyed dump --json` prints): the model is swift-protobuf's `Visitor`, one traversal that every output and check
/// uses.
///
/// The core (the requirements without a default) is the JSON structure of the view: objects with their keys,
/// arrays, and scalar values. A writer of JSON or of a tree implements the core only. The other requirements are
/// what the view means (a class object with its class and index, a reference to one met before, a Foundation value
/// by meaning, data, a date), each with a default implementation that writes its canonical form through the core;
/// a consumer that compares or checks by meaning implements them instead.
///
/// A walk reports every value exactly once, in order: a scalar with one call, a container as a begin call, its
/// members, and the matching end call. Inside an object, each member is a ``visitKey(_:)`` followed by its value.
package protocol CanonicalVisitor {
  // MARK: Core (required)

  /// Begins a JSON object. Members follow as ``visitKey(_:)`` and a value each, in the order written.
  mutating func beginObject()
  /// The name of the next member of the object being visited. Required.
  mutating func visitKey(_ name: String)
  /// Ends the object begun last. Required.
  mutating func endObject()
  /// Begins a JSON array whose elements are written in `order`. Required.
  mutating func beginArray(_ order: CanonicalOrder)
  /// Ends the array begun last. Required.
  mutating func endArray()
  /// `null`: nil, `$null`. Required.
  mutating func visitNull()
  /// A Boolean. Required.
  mutating func visitBool(_ value: Bool)
  /// A number. Required.
  mutating func visitNumber(_ value: CanonicalNumber)
  /// A string. Required.
  mutating func visitString(_ value: String)

  // MARK: Meaning (each has a default that writes its canonical form through the core)

  /// Bytes: `{"$data": base64}` by default.
  mutating func visitData(_ bytes: Data)
  /// A date, seconds since 2001-01-01T00:00:00Z: `{"$date": seconds}` by default.
  mutating func visitDate(_ seconds: CanonicalNumber)
  /// A property list UID (raw views): `{"$uid": n}` by default.
  mutating func visitUID(_ value: UInt64)
  /// A Foundation value written whole (a time zone, a UUID, an `NSValue`'s geometry, …): its canonical form by
  /// default (``FoundationValue/visit(with:)``).
  mutating func visitFoundationValue(_ value: FoundationValue)
  /// Begins an object of another class (`{"$class": …}` in the view): its members follow in the order of their
  /// names, each a ``visitField(_:)`` and its value, with ``visitClassMember(_:)`` and ``visitIdentityMember(_:)``
  /// where `$class` and `$id` sort among them; ``endClassObject()`` ends it. `object` says its class, its identity
  /// and whether it is reached again. The beginning of a JSON object by default.
  mutating func beginClassObject(_ object: CanonicalClassObject)
  /// The name of the next field of the class object being visited: a key by default.
  mutating func visitField(_ name: String)
  /// The class object's class name, where `$class` sorts among its fields: the member `"$class"` by default.
  mutating func visitClassMember(_ className: String)
  /// The class object's identity, where `$id` sorts among its fields (only for an object reached again): the
  /// member `"$id"` by default.
  mutating func visitIdentityMember(_ id: Int)
  /// Ends the class object begun last: the end of the JSON object by default.
  mutating func endClassObject()
  /// A later appearance of the class object with identity `id` (its `$objects` index, or an ordinal): `{"$ref": id}`
  /// by default.
  mutating func visitReference(_ id: Int)
  /// Where a cycle made only of Foundation collections closes, at the collection with identity `id`:
  /// `{"$cycle": id}` by default.
  mutating func visitCycle(_ id: Int)
}

/// A class object as the walk reports it when it begins.
package struct CanonicalClassObject: Sendable {
  /// The class name (`$classname`).
  package var className: String
  /// The object's identity: its `$objects` index, its ordinal in a typedstream.
  package var id: Int
  /// `true` when the object is reached more than once: its first appearance then carries `"$id"`.
  package var isShared: Bool

  package init(className: String, id: Int, isShared: Bool) {
    self.className = className
    self.id = id
    self.isShared = isShared
  }
}

extension CanonicalVisitor {
  package mutating func visitData(_ bytes: Data) {
    beginObject()
    visitKey(CanonicalMember.data)
    visitString(CanonicalText.base64(bytes))
    endObject()
  }

  package mutating func visitDate(_ seconds: CanonicalNumber) {
    beginObject()
    visitKey(CanonicalMember.date)
    visitNumber(seconds)
    endObject()
  }

  package mutating func visitUID(_ value: UInt64) {
    beginObject()
    visitKey(CanonicalMember.uid)
    visitNumber(.unsignedInteger(value))
    endObject()
  }

  package mutating func visitFoundationValue(_ value: FoundationValue) { value.visit(with: &self) }

  package mutating func beginClassObject(_ object: CanonicalClassObject) { beginObject() }

  package mutating func visitField(_ name: String) { visitKey(name) }

  package mutating func visitClassMember(_ className: String) {
    visitKey(CanonicalMember.className)
    visitString(className)
  }

  package mutating func visitIdentityMember(_ id: Int) {
    visitKey(CanonicalMember.id)
    visitNumber(.integer(Int64(id)))
  }

  package mutating func endClassObject() { endObject() }

  package mutating func visitReference(_ id: Int) {
    beginObject()
    visitKey(CanonicalMember.reference)
    visitNumber(.integer(Int64(id)))
    endObject()
  }

  package mutating func visitCycle(_ id: Int) {
    beginObject()
    visitKey(CanonicalMember.cycle)
    visitNumber(.integer(Int64(id)))
    endObject()
  }
}
