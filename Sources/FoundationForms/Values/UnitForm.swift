import ArchiveCoding
import Foundation

/// `NSUnit` and its `NSDimension` subclasses (ARC-155): the symbol (`NS.symbol`), and for a dimension a reference to
/// its converter to the base unit (`NS.converter`, an `NSUnitConverterLinear`, ``UnitConverterForm``).
package struct UnitForm {
  package var symbol: String
  package var converter: KeyedFormPart<Int>

  /// Reads the keyed form of an object of class `className`.
  /// - Throws: ``FormMismatch`` without a string `NS.symbol`.
  package init(keyed source: inout some KeyedFormSource, className: String) throws {
    symbol = try source.requiredString(FoundationKeys.nsSymbol, of: className)
    converter = try source.part { try $0.reference(FoundationKeys.nsConverter) }
  }
}

extension UnitForm {
  /// The unit of archived class `className`, as the Swift class of the same name (`NSUnitLength` is `UnitLength`,
  /// a class Foundation does not define is `Dimension` or `Unit`), with the converter its reference resolves to.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`corruptData`, naming `NS.converter`) for a dimension without a converter.
  package func unit(className: String, converter: UnitConverterLinear?) throws -> Unit {
    guard let type = FoundationClass.dimensionTypes[className] else { return Unit(symbol: symbol) }
    guard let converter else {
      throw ArchiveError(
        .corruptData, "\(className) without \(FoundationKeys.nsConverter)",
        at: .init(keyPath: FoundationKeys.nsConverter))
    }
    return type.init(symbol: symbol, converter: converter)
  }
}
