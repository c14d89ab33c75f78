import ArchiveCoding
import Foundation

/// Every `Measurement` decodes from `NSMeasurement` (ARC-155, FORM-040): the archive's measurement decodes as
/// `Measurement<Unit>` whose unit is the Swift class of the archived one (`NSUnitLength` is `UnitLength`), which is
/// a `Measurement<UnitLength>` (or `<Dimension>`) when its unit is one.
extension Measurement: ArchivedValueConvertible {
  /// `NSMeasurement`.
  package static var archivedClassNames: Set<String> { [FoundationClass.measurement] }

  /// The measurement `value` (a decoded `Measurement<Unit>`) holds, when its unit is a `UnitType`.
  package init?(archivedValue value: Any) {
    guard let measurement = value as? Measurement<Unit>, let unit = measurement.unit as? UnitType else { return nil }
    self.init(value: measurement.value, unit: unit)
  }
}
