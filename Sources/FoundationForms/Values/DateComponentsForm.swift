/// `NSDateComponents` (ARC-153): an inline integer for each field (`Int.max` when unset), `NS.isLeapMonth`, and
/// references to its calendar and time zone.
package struct DateComponentsForm {
  /// The fields that are set, in the order of ``FoundationKeys/dateComponentFields``.
  package var fields: [FoundationValue.DateComponentsValue.Field]
  package var isLeapMonth: Bool
  /// The `NSCalendar` object, when set.
  package var calendar: Int?
  /// The `NSTimeZone` object, when set.
  package var timeZone: Int?

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` for a field of another type.
  package init(keyed source: inout some KeyedFormSource) throws {
    fields = []
    for field in FoundationKeys.dateComponentFields {
      guard let value = try source.integer(field.key), value != FoundationKeys.dateComponentUndefined else { continue }
      fields.append(.init(name: field.name, value: value))
    }
    isLeapMonth = try source.flag(FoundationKeys.nsIsLeapMonth)
    calendar = try source.reference(FoundationKeys.nsCalendar)
    timeZone = try source.reference(FoundationKeys.nsTimeZone)
  }

  /// What it means, with the calendar and time zone resolved by the caller.
  package func value(calendar: FoundationValue?, timeZone: FoundationValue?) -> FoundationValue {
    .dateComponents(.init(fields: fields, isLeapMonth: isLeapMonth, calendar: calendar, timeZone: timeZone))
  }
}
