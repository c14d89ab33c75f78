import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

// Foundation's value classes (ARC-150…ARC-157) decoded through their forms (`FoundationForms`), which the
// canonical walk reads too.
extension KeyedUnarchiver {
  /// The value classes of issue #27 decoded here, by archived class name.
  static let foundationValueClassNames: Set<String> =
    ([
      FoundationClass.indexSet, FoundationClass.mutableIndexSet, FoundationClass.indexPath, FoundationClass.timeZone,
      FoundationClass.locale, FoundationClass.calendar, FoundationClass.dateComponents,
      FoundationClass.personNameComponents, FoundationClass.characterSet, FoundationClass.mutableCharacterSet,
      FoundationClass.measurement, FoundationClass.unitConverterLinear, FoundationClass.affineTransform,
      FoundationClass.oldStyleArray, FoundationClass.sortDescriptor,
    ] as Set<String>).union(FoundationClass.unitClassNames)

  /// Decodes the current object as one of Foundation's value classes (ARC-150…ARC-153), or `nil` for another class.
  func decodeFoundationValue(className: String) throws -> Any? {
    switch className {
    case FoundationClass.indexSet, FoundationClass.mutableIndexSet:
      return try form { try IndexSetForm(keyed: &$0) }.indexSet
    case FoundationClass.indexPath: return try form { try IndexPathForm(keyed: &$0) }.indexPath
    case FoundationClass.timeZone: return try form { try TimeZoneForm(keyed: &$0) }.timeZone()
    case FoundationClass.locale: return Locale(identifier: try form { try LocaleForm(keyed: &$0) }.identifier)
    case FoundationClass.calendar: return try calendar()
    case FoundationClass.dateComponents: return try dateComponents()
    case FoundationClass.personNameComponents: return try personNameComponents()
    case FoundationClass.characterSet, FoundationClass.mutableCharacterSet:
      return try form { try CharacterSetForm(keyed: &$0) }.characterSet()
    case FoundationClass.measurement: return try measurement()
    case FoundationClass.unitConverterLinear: return try form { try UnitConverterForm(keyed: &$0) }.converter
    case FoundationClass.affineTransform: return try affineTransform()
    case FoundationClass.oldStyleArray: return try oldStyleArray()
    case FoundationClass.sortDescriptor: return try sortDescriptor()
    case _ where FoundationClass.unitClassNames.contains(className): return try unit(className: className)
    default: return nil
    }
  }

  /// The bytes of packed field `key`.
  func packedBytes(_ key: String) throws -> Data {
    switch try decodeValue(forKey: key) {
    case .bytes(let bytes)?: return bytes
    case nil: throw ArchiveError(.corruptData, "missing \(key)", at: .init(keyPath: key))
    case let other?:
      throw ArchiveError(.typeMismatch, "expected data, found \(other.typeName)", at: .init(keyPath: key))
    }
  }

  /// `NSCalendar` (ARC-150): identifier, time zone, locale, first weekday, minimum days in the first week.
  func calendar() throws -> Calendar {
    let form = try form { try CalendarForm(keyed: &$0) }
    let timeZone: TimeZone? = try formObject(
      form.timeZone.get(), key: FoundationKeys.nsTimeZone, allowed: [FoundationClass.timeZone],
      expected: "a time zone")
    let locale: Locale? = try formObject(
      form.locale.get(), key: FoundationKeys.nsLocale, allowed: [FoundationClass.locale], expected: "a locale")
    return try form.calendar(timeZone: timeZone, locale: locale)
  }

  /// `NSDateComponents` (ARC-153).
  func dateComponents() throws -> DateComponents {
    let form = try form { try DateComponentsForm(keyed: &$0) }
    let calendar: Calendar? = try formObject(
      form.calendar, key: FoundationKeys.nsCalendar, allowed: [FoundationClass.calendar], expected: "a calendar")
    let timeZone: TimeZone? = try formObject(
      form.timeZone, key: FoundationKeys.nsTimeZone, allowed: [FoundationClass.timeZone], expected: "a time zone")
    return form.dateComponents(calendar: calendar, timeZone: timeZone)
  }

  /// `NSPersonNameComponents` (ARC-154).
  func personNameComponents() throws -> PersonNameComponents {
    let form = try form { try PersonNameForm(keyed: &$0) }
    let phonetic: PersonNameComponents? = try formObject(
      form.phonetic.get(), key: FoundationKeys.nsPhoneticRepresentation,
      allowed: [FoundationClass.personNameComponents], expected: "person name components")
    return form.nameComponents(phonetic: phonetic)
  }

  /// `NSMeasurement` (ARC-155): `NS.value` and the unit under `NS.unit`, as `Measurement<Unit>`.
  func measurement() throws -> Measurement<Unit> {
    let form = try form { try MeasurementForm(keyed: &$0) }
    guard
      let unit: Unit = try formObject(
        form.unit, key: FoundationKeys.nsUnit, allowed: FoundationClass.unitClassNames, expected: "an NSUnit")
    else {
      throw ArchiveError(
        .corruptData, "\(FoundationClass.measurement) without \(FoundationKeys.nsUnit)",
        at: .init(keyPath: FoundationKeys.nsUnit))
    }
    return Measurement(value: form.value, unit: unit)
  }

  /// An `NSUnit` (a symbol) or one of its `NSDimension` subclasses (a symbol and a linear converter to the base
  /// unit), as the Swift class of the same name.
  func unit(className: String) throws -> Unit {
    let form = try form { try UnitForm(keyed: &$0, className: className) }
    let converter: UnitConverterLinear? = try formObject(
      form.converter.get(), key: FoundationKeys.nsConverter, allowed: [FoundationClass.unitConverterLinear],
      expected: "an NSUnitConverterLinear")
    return try form.unit(className: className, converter: converter)
  }
}
