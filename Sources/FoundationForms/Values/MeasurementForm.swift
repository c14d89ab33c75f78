/// `NSMeasurement` (ARC-155): an inline real `NS.value` and a reference to its unit (`NS.unit`, an object of an
/// `NSUnit` subclass, ``UnitForm``).
package struct MeasurementForm: Hashable, Sendable {
  package var value: Double
  /// The unit object.
  package var unit: Int

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` without a real `NS.value` or a unit object.
  package init(keyed source: inout some KeyedFormSource) throws {
    guard let value = try source.real(FoundationKeys.nsValue) else {
      throw FormMismatch(
        .corruptData, "\(FoundationClass.measurement) without \(FoundationKeys.nsValue)", key: FoundationKeys.nsValue)
    }
    guard let unit = try source.reference(FoundationKeys.nsUnit) else {
      throw FormMismatch(
        .corruptData, "\(FoundationClass.measurement) without \(FoundationKeys.nsUnit)", key: FoundationKeys.nsUnit)
    }
    self.value = value
    self.unit = unit
  }

  /// What it means, the unit's symbol and class name read by the caller.
  package func value(unitSymbol: String, unitClass: String) -> FoundationValue {
    .measurement(value: value, unit: unitSymbol, unitClass: unitClass)
  }
}
