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
