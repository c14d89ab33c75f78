import Foundation

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

extension DateComponentsForm {
  /// The fields of `DateComponents` the form holds, in the order of ``FoundationKeys/dateComponentFields``.
  package static var fieldPaths: [WritableKeyPath<DateComponents, Int?>] {
    [
      \.era, \.year, \.month, \.day, \.hour, \.minute, \.second, \.nanosecond, \.weekday, \.weekdayOrdinal, \.quarter,
      \.weekOfMonth, \.weekOfYear, \.yearForWeekOfYear,
    ]
  }

  /// The date components, with the calendar and time zone its references resolve to.
  package func dateComponents(calendar: Calendar?, timeZone: TimeZone?) -> DateComponents {
    var components = DateComponents()
    for field in fields {
      guard let index = FoundationKeys.dateComponentFields.firstIndex(where: { $0.name == field.name }),
        let value = Int(exactly: field.value)
      else { continue }
      components[keyPath: Self.fieldPaths[index]] = value
    }
    if isLeapMonth { components.isLeapMonth = true }
    if let calendar { components.calendar = calendar }
    if let timeZone { components.timeZone = timeZone }
    return components
  }
}

extension DateComponentsForm {
  /// Writes the keyed form of `components`: the calendar and time zone, every field (`Int.max` when unset) and
  /// `NS.isLeapMonth`.
  package static func write(_ components: DateComponents, to sink: inout some KeyedFormSink) {
    sink.object(components.calendar, forKey: FoundationKeys.nsCalendar)
    sink.object(components.timeZone, forKey: FoundationKeys.nsTimeZone)
    for (field, path) in zip(FoundationKeys.dateComponentFields, fieldPaths) {
      let stored = components[keyPath: path].map(Int64.init) ?? FoundationKeys.dateComponentUndefined
      sink.inline(.integer(stored), forKey: field.key)
    }
    sink.inline(.bool(components.isLeapMonth ?? false), forKey: FoundationKeys.nsIsLeapMonth)
  }
}
