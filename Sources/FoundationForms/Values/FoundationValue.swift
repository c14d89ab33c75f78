import Foundation

/// What a Foundation value object means, whatever form it was stored in (a keyed archive's fields or a
/// typedstream's groups), with the values it refers to resolved: the neutral model the canonical view writes and a
/// comparison by meaning compares. Collections, strings, numbers and data are not here: the walk reports them as
/// they are.
package indirect enum FoundationValue: Hashable, Sendable {
  /// `NSUUID`.
  case uuid(UUID)
  /// `NSURL`: the absolute string, its relative part resolved against its base.
  case url(String)
  /// `NSNull`.
  case null
  /// `NSValue`: a point, size, rectangle or range.
  case value(GeometryValue)
  /// `NSTimeZone`: its name.
  case timeZone(name: String)
  /// `NSLocale`: its identifier.
  case locale(identifier: String)
  /// `NSCalendar`: its identifier.
  case calendar(identifier: String)
  /// `NSIndexSet`: its ranges, in ascending order of location.
  case indexSet([IndexRange])
  /// `NSIndexPath`: its indexes.
  case indexPath([UInt64])
  /// `NSDateComponents`: the fields that are set, by `DateComponents`' names, and the nested calendar and time zone.
  case dateComponents(DateComponentsValue)
  /// `NSPersonNameComponents`: the parts present, by name, and the phonetic representation.
  case personName(PersonNameValue)
  /// `NSMeasurement`: the value, the unit's symbol and its class.
  case measurement(value: Double, unit: String, unitClass: String)
  /// `NSCharacterSet`: the one field the archive holds, and whether the set is inverted.
  case characterSet(CharacterSetForm)

  /// A range of indexes: `length` indexes from `location`.
  package struct IndexRange: Hashable, Sendable {
    package var location: UInt64
    package var length: UInt64

    package init(location: UInt64, length: UInt64) {
      self.location = location
      self.length = length
    }
  }

  /// `NSDateComponents`' meaning.
  package struct DateComponentsValue: Hashable, Sendable {
    /// The fields that are set, by their `DateComponents` names, in the archive's order.
    package var fields: [Field]
    /// `true` for a leap month.
    package var isLeapMonth: Bool
    /// The calendar (a ``FoundationValue/calendar(identifier:)``), when set.
    package var calendar: FoundationValue?
    /// The time zone (a ``FoundationValue/timeZone(name:)``), when set.
    package var timeZone: FoundationValue?

    /// One field.
    package struct Field: Hashable, Sendable {
      package var name: String
      package var value: Int64

      package init(name: String, value: Int64) {
        self.name = name
        self.value = value
      }
    }

    package init(fields: [Field], isLeapMonth: Bool, calendar: FoundationValue?, timeZone: FoundationValue?) {
      self.fields = fields
      self.isLeapMonth = isLeapMonth
      self.calendar = calendar
      self.timeZone = timeZone
    }
  }

  /// `NSPersonNameComponents`' meaning.
  package struct PersonNameValue: Hashable, Sendable {
    /// The parts present, by name (`givenName`, `familyName`, …), in the archive's order.
    package var parts: [Part]
    /// The phonetic representation (a ``FoundationValue/personName(_:)``), when present.
    package var phonetic: FoundationValue?

    /// One part.
    package struct Part: Hashable, Sendable {
      package var name: String
      package var text: String

      package init(name: String, text: String) {
        self.name = name
        self.text = text
      }
    }

    package init(parts: [Part], phonetic: FoundationValue?) {
      self.parts = parts
      self.phonetic = phonetic
    }
  }
}
