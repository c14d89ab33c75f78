import Foundation
import FoundationForms
import PropertyList

// Swift's value types archived as the Foundation classes the toolchain's NSKeyedArchiver writes for them
// (ARC-150…ARC-157), through their forms (FORM-050).

extension IndexSet: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.indexSet) { IndexSetForm(self).write(to: &$0) }
  }
}

extension IndexPath: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.indexPath) { IndexPathForm(self).write(to: &$0) }
  }
}

extension TimeZone: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.timeZone) { TimeZoneForm(self).write(to: &$0) }
  }
}

extension Locale: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.locale) { LocaleForm(identifier: identifier).write(to: &$0) }
  }
}

extension Calendar: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.calendar) { CalendarForm.write(self, to: &$0) }
  }
}

extension DateComponents: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.dateComponents) { DateComponentsForm.write(self, to: &$0) }
  }
}

extension PersonNameComponents: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.personNameComponents) { PersonNameForm.write(self, to: &$0) }
  }
}

extension CharacterSet: KeyedArchiveValue {
  /// Written as its bitmap, as the toolchain writes a set it did not make from a string or a builtin set.
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.formObject(className: FoundationClass.characterSet) { CharacterSetForm(self).write(to: &$0) }
  }
}
