/// `NSCalendar` (ARC-150): its identifier (CFCalendar's names: `gregorian`, `iso8601`, …), and for typed decoding
/// its time zone and locale (references to an `NSTimeZone` and an `NSLocale`), first weekday and minimum days in
/// the first week.
package struct CalendarForm {
  package var identifier: String
  package var timeZone: KeyedFormPart<Int>
  package var locale: KeyedFormPart<Int>
  package var firstWeekday: KeyedFormPart<Int64>
  package var minimumDays: KeyedFormPart<Int64>

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` without a string `NS.identifier`.
  package init(keyed source: inout some KeyedFormSource) throws {
    identifier = try source.requiredString(FoundationKeys.nsIdentifier, of: FoundationClass.calendar)
    timeZone = try source.part { try $0.reference(FoundationKeys.nsTimeZone) }
    locale = try source.part { try $0.reference(FoundationKeys.nsLocale) }
    firstWeekday = try source.part { try $0.integer(FoundationKeys.nsFirstWeekday) }
    minimumDays = try source.part { try $0.integer(FoundationKeys.nsMinimumDays) }
  }

  /// What it means in the canonical view.
  package var value: FoundationValue { .calendar(identifier: identifier) }
}
