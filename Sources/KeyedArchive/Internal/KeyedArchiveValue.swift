import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

/// A Foundation value the archiver knows how to write, dispatched through a protocol rather than a chain of
/// dynamic casts: casting a Swift array to a Foundation class would bridge it, element by element, on every
/// attempt.
protocol KeyedArchiveValue {
  /// Writes the value (or shares an equal plain value) and returns its UID.
  func archiveReference(in archiver: KeyedArchiver) -> Int
}

extension String: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.string(self)) }
}
extension Substring: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.string(String(self))) }
}
extension Bool: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.bool(self)) }
}
extension Int: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.integer(Int64(self))) }
}
extension Int64: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.integer(self)) }
}
extension UInt: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.integer(unsigned: UInt64(self))) }
}
extension UInt64: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.integer(unsigned: self)) }
}
/// An integer type whose every value fits in `Int64`: written as an `Int64`.
protocol NarrowArchivedInteger: KeyedArchiveValue, BinaryInteger {}

extension NarrowArchivedInteger {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.integer(Int64(self))) }
}

extension Int8: NarrowArchivedInteger {}
extension Int16: NarrowArchivedInteger {}
extension Int32: NarrowArchivedInteger {}
extension UInt8: NarrowArchivedInteger {}
extension UInt16: NarrowArchivedInteger {}
extension UInt32: NarrowArchivedInteger {}

extension Double: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.real(self)) }
}
extension Float: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.float(self)) }
}
extension Data: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.plainReference(.data(self)) }
}
extension Date: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.date) { DateForm.write(self, to: &$0) }
  }
}
extension UUID: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.uuid) { UUIDForm.write(self, to: &$0) }
  }
}
extension URL: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.url) { URLForm.write(self, to: &$0) }
  }
}
extension DateInterval: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.foundationObject(className: FoundationClass.dateInterval) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsStartDate, value: .uid(archiver.reference(for: start))))
      fields.append(ArchiveField(key: FoundationKeys.nsEndDate, value: .uid(archiver.reference(for: end))))
    }
  }
}
extension Array: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.foundationObject(className: FoundationClass.array) { fields in
      var uids: [Int] = []
      uids.reserveCapacity(count)
      if let codingType = Element.self as? any Coding.Type {
        // Elements statically of one `Coding` class: no cast per element (each cost as much as the reference).
        archiver.appendReferences(to: self, as: codingType, into: &uids)
      } else {
        for element in self { uids.append(archiver.reference(for: element)) }
      }
      fields.append(ArchiveField(key: FoundationKeys.nsObjects, value: .uids(uids)))
    }
  }
}
extension Dictionary: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.foundationObject(className: FoundationClass.dictionary) { fields in
      let entries = map { (key: AnyHashable($0.key), value: $0.value as Any) }
        .sorted { KeyedArchiver.sortKey($0.key) < KeyedArchiver.sortKey($1.key) }
        .map { (key: $0.key.base, value: $0.value) }
      archiver.encodeDictionaryFields(entries, into: &fields)
    }
  }
}
extension Set: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.foundationObject(className: FoundationClass.set) { fields in
      let uids = map { AnyHashable($0) }.sorted { KeyedArchiver.sortKey($0) < KeyedArchiver.sortKey($1) }.map {
        archiver.reference(for: $0.base)
      }
      fields.append(ArchiveField(key: FoundationKeys.nsObjects, value: .uids(uids)))
    }
  }
}
extension Decimal: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.encodeDecimal(self) }
}
extension Notification: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int { archiver.encodeNotification(self) }
}
