import Foundation
import FoundationForms

extension ComparisonTree.Builder {
  /// `true` for the classes of decimal numbers, which compare by their value (ARC-330): `NSDecimalNumber` and
  /// `NSDecimalNumberPlaceholder`, the class Interface Builder archives a number formatter's limits as.
  static func isDecimalNumber(_ className: String) -> Bool {
    className == FoundationClass.decimalNumber || className == FoundationClass.decimalNumberPlaceholder
  }

  /// Replaces the wire fields of a decimal number (the children `range` of ``pending``: `NS.exponent`,
  /// `NS.length`, `NS.negative`, `NS.compact`, `NS.mantissa`, `NS.mantissa.bo`) by its meaning, one `value` field
  /// holding the number's text with the trailing zeros of its mantissa taken into its exponent (`1.50` and `1.5`
  /// are one value; `NaN` for the one decimal that is not a number). Other fields stay. Fields that do not read as
  /// a decimal's (a missing or mistyped field, an exponent or length out of range, too few mantissa bytes) are left
  /// as they are. Returns the new range of the fields.
  mutating func decimalNumberFields(_ range: Range<Int>) -> Range<Int> {
    var fields: [String: Int32] = [:]
    var others: [(Int32, String)] = []
    let wireKeys: Set<String> = [
      FoundationKeys.nsExponent, FoundationKeys.nsLength, FoundationKeys.nsNegative, FoundationKeys.nsCompact,
      FoundationKeys.nsMantissa, FoundationKeys.nsMantissaByteOrder,
    ]
    for position in range {
      let name = pendingNames[position]
      if wireKeys.contains(name), fields[name] == nil {
        fields[name] = pending[position]
      } else {
        others.append((pending[position], name))
      }
    }
    guard let exponent = fields[FoundationKeys.nsExponent].flatMap(integer),
      let length = fields[FoundationKeys.nsLength].flatMap(integer),
      let negative = fields[FoundationKeys.nsNegative].flatMap(flag),
      let mantissa = fields[FoundationKeys.nsMantissa], tree.nodes[Int(mantissa)].kind == .data
    else { return range }
    let byteOrder: Int64
    if let node = fields[FoundationKeys.nsMantissaByteOrder] {
      guard let order = integer(node) else { return range }
      byteOrder = order
    } else {
      byteOrder = DecimalWireForm.littleEndian
    }
    if let compact = fields[FoundationKeys.nsCompact], flag(compact) == nil { return range }
    guard
      var form = try? DecimalWireForm(
        exponent: exponent, length: length, negative: negative, mantissaBytes: Data(tree.bytes(mantissa)),
        byteOrder: byteOrder)
    else { return range }
    while form.mantissa != 0, form.mantissa % 10 == 0, form.exponent < 127 {
      form.mantissa /= 10
      form.exponent += 1
    }
    let text = form.mantissa == 0 && !form.negative ? "0" : form.decimal.description
    let value = Int32(tree.nodes.count)
    tree.nodes.append(bytesNode(.string, text.utf8, hash: Self.hash(.string, text)))
    return replaceFields(range, with: others + [(value, "value")])
  }

  /// The integer a number node holds, or `nil`.
  private func integer(_ node: Int32) -> Int64? {
    let held = tree.nodes[Int(node)]
    guard held.kind == .number else { return nil }
    switch ComparisonTree.number(of: held) {
    case .integer(let value): return value
    case .unsignedInteger(let value): return Int64(exactly: value)
    case .real: return nil
    }
  }

  /// The flag a Boolean node holds (or a number node holding 0 or 1, as some archivers write it), or `nil`.
  private func flag(_ node: Int32) -> Bool? {
    let held = tree.nodes[Int(node)]
    if held.kind == .bool { return held.payload != 0 }
    switch integer(node) {
    case 0?: return false
    case 1?: return true
    default: return nil
    }
  }
}
