import Foundation
import FoundationForms
import PropertyList

// Swift's value types archived as the Foundation classes the toolchain's NSKeyedArchiver writes for them
// (ARC-150…ARC-153).

extension IndexSet: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.foundationObject(className: FoundationClass.indexSet) { fields in
      let ranges = rangeView
      fields.append(ArchiveField(key: FoundationKeys.nsRangeCount, value: .inline(.integer(Int64(ranges.count)))))
      if ranges.count == 1, let range = ranges.first {
        fields.append(
          ArchiveField(key: FoundationKeys.nsIndexSetLocation, value: .inline(.integer(Int64(range.lowerBound)))))
        fields.append(ArchiveField(key: FoundationKeys.nsIndexSetLength, value: .inline(.integer(Int64(range.count)))))
        return
      }
      let packed = PackedIntegers.encode(ranges.lazy.flatMap { [UInt64($0.lowerBound), UInt64($0.count)] })
      fields.append(
        ArchiveField(key: FoundationKeys.nsRangeData, value: .uid(archiver.plainReference(.data(Data(packed))))))
    }
  }
}

extension IndexPath: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.foundationObject(className: FoundationClass.indexPath) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsIndexPathLength, value: .inline(.integer(Int64(count)))))
      if count == 1, let only = first {
        fields.append(ArchiveField(key: FoundationKeys.nsIndexPathValue, value: .inline(.integer(Int64(only)))))
      } else if count > 1 {
        let packed = PackedIntegers.encode(map { UInt64(clamping: $0) })
        fields.append(
          ArchiveField(key: FoundationKeys.nsIndexPathData, value: .uid(archiver.plainReference(.data(Data(packed))))))
      }
    }
  }
}

extension TimeZone: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.foundationObject(className: FoundationClass.timeZone) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsName, value: .uid(archiver.plainReference(.string(identifier)))))
      fields.append(ArchiveField(key: FoundationKeys.nsData, value: .uid(archiver.plainReference(.data(Data())))))
    }
  }
}

extension Locale: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.foundationObject(className: FoundationClass.locale) { fields in
      fields.append(
        ArchiveField(key: FoundationKeys.nsIdentifier, value: .uid(archiver.plainReference(.string(identifier)))))
    }
  }
}

extension Calendar: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    let name = CalendarForm.name(of: identifier)
    return archiver.foundationObject(className: FoundationClass.calendar) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsIdentifier, value: .uid(archiver.plainReference(.string(name)))))
      fields.append(ArchiveField(key: FoundationKeys.nsTimeZone, value: .uid(archiver.reference(for: timeZone))))
      fields.append(ArchiveField(key: FoundationKeys.nsLocale, value: .uid(archiver.reference(for: locale))))
      fields.append(ArchiveField(key: FoundationKeys.nsFirstWeekday, value: .inline(.integer(Int64(firstWeekday)))))
      fields.append(
        ArchiveField(key: FoundationKeys.nsMinimumDays, value: .inline(.integer(Int64(minimumDaysInFirstWeek)))))
    }
  }
}

extension DateComponents: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    let values = DateComponentsForm.fieldPaths.map { self[keyPath: $0] }
    return archiver.foundationObject(className: FoundationClass.dateComponents) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsCalendar, value: .uid(archiver.reference(for: calendar))))
      fields.append(ArchiveField(key: FoundationKeys.nsTimeZone, value: .uid(archiver.reference(for: timeZone))))
      for (field, value) in zip(FoundationKeys.dateComponentFields, values) {
        let stored = value.map(Int64.init) ?? FoundationKeys.dateComponentUndefined
        fields.append(ArchiveField(key: field.key, value: .inline(.integer(stored))))
      }
      fields.append(ArchiveField(key: FoundationKeys.nsIsLeapMonth, value: .inline(.bool(isLeapMonth ?? false))))
    }
  }
}

extension PersonNameComponents: KeyedArchiveValue {
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    let parts = [namePrefix, givenName, middleName, familyName, nameSuffix, nickname]
    return archiver.foundationObject(className: FoundationClass.personNameComponents) { fields in
      for (part, text) in zip(FoundationKeys.personNameParts, parts) {
        let uid = text.map { archiver.plainReference(.string($0)) } ?? 0
        fields.append(ArchiveField(key: part.key, value: .uid(uid)))
      }
      if let phoneticRepresentation {
        fields.append(
          ArchiveField(
            key: FoundationKeys.nsPhoneticRepresentation, value: .uid(archiver.reference(for: phoneticRepresentation))))
      }
    }
  }
}

extension CharacterSet: KeyedArchiveValue {
  /// Written as its bitmap, as the toolchain writes a set it did not make from a string or a builtin set.
  func archiveReference(in archiver: KeyedArchiver) -> Int {
    archiver.foundationObject(className: FoundationClass.characterSet) { fields in
      fields.append(ArchiveField(key: FoundationKeys.nsBitmap, value: .inline(.data(bitmapRepresentation))))
    }
  }
}
