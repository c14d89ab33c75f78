import ArchiveCoding
import Foundation

/// `NSUnitConverterLinear` (ARC-155): inline reals `NS.coefficient` and `NS.constant` (0 when absent, as
/// `decodeDouble(forKey:)` reads them), both finite.
package struct UnitConverterForm: Hashable, Sendable {
  package var coefficient: Double
  package var constant: Double

  package init(coefficient: Double, constant: Double) {
    self.coefficient = coefficient
    self.constant = constant
  }

  /// Reads the keyed form.
  /// - Throws: ``FormMismatch`` for a field that is not a number; ``/ArchiveCoding/ArchiveError`` (`corruptData`) for a real that
  ///   is not finite.
  package init(keyed source: inout some KeyedFormSource) throws {
    coefficient = try source.real(FoundationKeys.nsCoefficient) ?? 0
    constant = try source.real(FoundationKeys.nsConstant) ?? 0
    for (key, value) in [(FoundationKeys.nsCoefficient, coefficient), (FoundationKeys.nsConstant, constant)]
    where !value.isFinite {
      throw ArchiveError(.corruptData, "expected a finite real, found \(value)", at: .init(keyPath: key))
    }
  }
}

extension UnitConverterForm {
  /// The converter.
  package var converter: UnitConverterLinear { UnitConverterLinear(coefficient: coefficient, constant: constant) }
}
