/// Conversions between seconds since 2001-01-01T00:00:00Z and proleptic Gregorian UTC date-times, for XML
/// `<date>` values. Written out arithmetically (days from a civil date and back) so that no formatter, locale or
/// time zone is involved.
enum CivilTime {
  struct Components: Equatable {
    var year: Int64
    var month: Int64
    var day: Int64
    var hour: Int64
    var minute: Int64
    var second: Int64
  }

  /// Days from 1970-01-01 to 2001-01-01.
  static let referenceDays: Int64 = 11_323

  /// Days since 1970-01-01 of a civil date (any year; month 1-12, day 1-31).
  static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The civil date of a count of days since 1970-01-01.
  static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Whole seconds since the 2001 reference date of UTC components.
  static func seconds(_ c: Components) -> Int64 {
    (days(year: c.year, month: c.month, day: c.day) - referenceDays) * 86_400 + c.hour * 3600 + c.minute * 60
      + c.second
  }

  /// UTC components of whole seconds since the 2001 reference date.
  static func components(seconds: Int64) -> Components {
    let dayCount = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
    let rest = seconds - dayCount * 86_400
    let (year, month, day) = civil(days: dayCount + referenceDays)
    return Components(
      year: year, month: month, day: day, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
  }
}
