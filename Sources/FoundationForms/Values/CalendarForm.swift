import ArchiveCoding
import Foundation

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

extension CalendarForm {
  /// The calendar identifiers archives hold (CFCalendar's names), with Swift's.
  package static let identifiers: [String: Calendar.Identifier] = [
    "gregorian": .gregorian, "buddhist": .buddhist, "chinese": .chinese, "coptic": .coptic,
    "ethiopic": .ethiopicAmeteMihret, "ethiopic-amete-alem": .ethiopicAmeteAlem, "hebrew": .hebrew,
    "iso8601": .iso8601, "indian": .indian, "islamic": .islamic, "islamic-civil": .islamicCivil,
    "japanese": .japanese, "persian": .persian, "roc": .republicOfChina, "islamic-tbla": .islamicTabular,
    "islamic-umalqura": .islamicUmmAlQura,
  ]

  /// The archived name of a calendar identifier (`gregorian` for one archives have no name for).
  package static func name(of identifier: Calendar.Identifier) -> String {
    identifiers.first { $0.value == identifier }?.key ?? "gregorian"
  }

  /// The calendar, with the time zone and locale its references resolve to.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`corruptData`) for an identifier Swift has no calendar for, or a first weekday or
  ///   minimum days outside 1…7; an invalid part's error.
  package func calendar(timeZone: TimeZone?, locale: Locale?) throws -> Calendar {
    guard let identifier = Self.identifiers[identifier] else {
      throw ArchiveError(
        .corruptData, "unknown calendar \"\(identifier)\"", at: .init(keyPath: FoundationKeys.nsIdentifier))
    }
    var calendar = Calendar(identifier: identifier)
    if let timeZone { calendar.timeZone = timeZone }
    if let locale { calendar.locale = locale }
    if let day = try Self.dayOfWeek(firstWeekday, FoundationKeys.nsFirstWeekday, "first weekday") {
      calendar.firstWeekday = day
    }
    if let days = try Self.dayOfWeek(minimumDays, FoundationKeys.nsMinimumDays, "minimum days") {
      calendar.minimumDaysInFirstWeek = days
    }
    return calendar
  }

  /// A number of days from 1 to 7, or `nil` when absent.
  private static func dayOfWeek(_ part: KeyedFormPart<Int64>, _ key: String, _ what: String) throws -> Int? {
    guard let day = try part.get() else { return nil }
    guard (1...7).contains(day) else {
      throw ArchiveError(.corruptData, "\(what) \(day) is not 1…7", at: .init(keyPath: key))
    }
    return Int(day)
  }
}

extension CalendarForm {
  /// Writes the keyed form of `calendar` (without `NS.gstartdate`, as the toolchain writes it): its identifier,
  /// time zone, locale, first weekday and minimum days in the first week.
  package static func write(_ calendar: Calendar, to sink: inout some KeyedFormSink) {
    sink.plain(.string(name(of: calendar.identifier)), forKey: FoundationKeys.nsIdentifier)
    sink.object(calendar.timeZone, forKey: FoundationKeys.nsTimeZone)
    sink.object(calendar.locale, forKey: FoundationKeys.nsLocale)
    sink.inline(.integer(Int64(calendar.firstWeekday)), forKey: FoundationKeys.nsFirstWeekday)
    sink.inline(.integer(Int64(calendar.minimumDaysInFirstWeek)), forKey: FoundationKeys.nsMinimumDays)
  }
}
