import Foundation
import FoundationForms

/// A visitor that keeps nothing: the walk's checking pass, and the parts of the second pass that the view does not
/// write (the keys of a dictionary whose keys are all strings, which it writes as member names).
///
/// It holds one byte it never uses: an empty struct has no address, and a build with ThreadSanitizer reports each
/// `inout` access to a visitor of the walk's generic functions at the argument's address, which for an empty type is
/// whatever a register holds, an address the sanitizer's runtime can crash on (Decision 0073).
package struct NullCanonicalVisitor: CanonicalVisitor {
  private var storage: UInt8 = 0
  package init() {}
  package mutating func beginObject() {}
  package mutating func visitKey(_ name: String) {}
  package mutating func endObject() {}
  package mutating func beginArray(_ order: CanonicalOrder) {}
  package mutating func endArray() {}
  package mutating func visitNull() {}
  package mutating func visitBool(_ value: Bool) {}
  package mutating func visitNumber(_ value: CanonicalNumber) {}
  package mutating func visitString(_ value: String) {}
  package mutating func visitData(_ bytes: Data) {}
  package mutating func visitDate(_ seconds: CanonicalNumber) {}
  package mutating func visitFoundationValue(_ value: FoundationValue) {}
  package mutating func beginClassObject(_ object: CanonicalClassObject) {}
  package mutating func visitField(_ name: String) {}
  package mutating func visitClassMember(_ className: String) {}
  package mutating func visitIdentityMember(_ id: Int) {}
  package mutating func endClassObject() {}
  package mutating func visitReference(_ id: Int) {}
  package mutating func visitCycle(_ id: Int) {}
}
