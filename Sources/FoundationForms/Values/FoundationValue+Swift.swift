import Foundation

extension FoundationValue {
  /// What a Swift or Foundation value means, as the canonical view would write its archived form: a time zone by
  /// its name, a locale or calendar by its identifier, an index set by its ranges, a measurement by its value, unit
  /// symbol and unit class, …; `nil` for a value of another type (FORM-070).
  package init?(swiftValue value: Any) {
    switch value {
    case let zone as TimeZone: self = TimeZoneForm(zone).value
    case let locale as Locale: self = .locale(identifier: locale.identifier)
    case let calendar as Calendar: self = .calendar(identifier: CalendarForm.name(of: calendar.identifier))
    case let set as IndexSet: self = IndexSetForm(set).value
    case let path as IndexPath: self = IndexPathForm(path).value
    case let uuid as UUID: self = .uuid(uuid)
    case let components as DateComponents:
      var fields: [DateComponentsValue.Field] = []
      for (field, path) in zip(FoundationKeys.dateComponentFields, DateComponentsForm.fieldPaths) {
        if let number = components[keyPath: path] { fields.append(.init(name: field.name, value: Int64(number))) }
      }
      self = .dateComponents(
        .init(
          fields: fields, isLeapMonth: components.isLeapMonth == true,
          calendar: components.calendar.flatMap { FoundationValue(swiftValue: $0) },
          timeZone: components.timeZone.flatMap { FoundationValue(swiftValue: $0) }))
    case let name as PersonNameComponents:
      var parts: [PersonNameValue.Part] = []
      for (part, path) in zip(FoundationKeys.personNameParts, PersonNameForm.partPaths) {
        if let text = name[keyPath: path] { parts.append(.init(name: part.name, text: text)) }
      }
      self = .personName(
        .init(parts: parts, phonetic: name.phoneticRepresentation.flatMap { FoundationValue(swiftValue: $0) }))
    case let set as CharacterSet: self = CharacterSetForm(set).value
    default:
      guard let measurement = value as? any MeasurementValue else { return nil }
      self = .measurement(
        value: measurement.measuredValue, unit: measurement.measuredUnit.symbol,
        unitClass: FoundationClass.archivedName(ofUnit: measurement.measuredUnit))
    }
  }
}

/// Any `Measurement`, whatever its unit type.
private protocol MeasurementValue {
  var measuredValue: Double { get }
  var measuredUnit: Unit { get }
}

extension Measurement: MeasurementValue {
  fileprivate var measuredValue: Double { value }
  fileprivate var measuredUnit: Unit { unit }
}

extension FoundationClass {
  /// The archived class name of a unit: its Foundation class (`UnitLength` is `NSUnitLength`), `NSDimension` for
  /// a dimension Foundation does not define, `NSUnit` for any other unit.
  package static func archivedName(ofUnit unit: Unit) -> String {
    if let name = dimensionTypes.first(where: { $0.value == type(of: unit) && $0.key != dimension })?.key {
      return name
    }
    return unit is Dimension ? dimension : FoundationClass.unit
  }
}
