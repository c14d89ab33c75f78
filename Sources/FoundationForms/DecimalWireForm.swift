import ArchiveCoding
import Foundation

/// The fields Darwin's `NSDecimalNumber` archives inline: `NS.exponent`, `NS.length`, `NS.negative`, `NS.compact`,
/// `NS.mantissa` (eight 16-bit words as 16 bytes of data, least significant word first) and `NS.mantissa.bo` (the
/// byte order of those words: 1 little-endian, 2 big-endian, as `CFByteOrder`).
///
/// `Decimal`'s own fields are not public on Linux, so the conversion goes through its public sign, exponent and
/// significand, with the 128-bit mantissa held in a `UInt128`.
package struct DecimalWireForm: Equatable, Sendable {
  /// `CFByteOrderLittleEndian`.
  package static let littleEndian: Int64 = 1
  /// `CFByteOrderBigEndian`.
  package static let bigEndian: Int64 = 2

  package var exponent: Int64
  package var negative: Bool
  package var mantissa: UInt128

  /// The number of significant 16-bit words of the mantissa (`NS.length`).
  package var length: Int64 {
    var words: Int64 = 0
    var rest = mantissa
    while rest != 0 {
      words += 1
      rest >>= 16
    }
    return words
  }

  /// `true` when the mantissa has no trailing decimal zero (`NS.compact`).
  package var compact: Bool { mantissa == 0 || mantissa % 10 != 0 }

  /// The mantissa as 16 bytes, little-endian words.
  package var mantissaBytes: Data {
    var bytes = Data(capacity: 16)
    var rest = mantissa
    for _ in 0..<8 {
      let word = UInt16(truncatingIfNeeded: rest)
      bytes.append(UInt8(truncatingIfNeeded: word))
      bytes.append(UInt8(truncatingIfNeeded: word >> 8))
      rest >>= 16
    }
    return bytes
  }

  package init(exponent: Int64, negative: Bool, mantissa: UInt128) {
    self.exponent = exponent
    self.negative = negative
    self.mantissa = mantissa
  }

  /// The wire form of a `Decimal`, or `nil` when its significand cannot be read back as an integer.
  package init?(_ decimal: Decimal) {
    if decimal.isNaN {
      // NaN is the one decimal with length 0 and the sign set.
      self.init(exponent: 0, negative: true, mantissa: 0)
      return
    }
    let significand = decimal.significand.magnitude
    guard let mantissa = UInt128(significand.description) else { return nil }
    self.init(exponent: Int64(decimal.exponent), negative: decimal.sign == .minus && mantissa != 0, mantissa: mantissa)
  }

  /// Reads the wire fields, validating them (an exponent outside -128...127, a length above 8, or too few
  /// mantissa bytes is corrupt data).
  package init(exponent: Int64, length: Int64, negative: Bool, mantissaBytes: Data, byteOrder: Int64) throws {
    guard (-128...127).contains(exponent) else {
      throw ArchiveError(
        .corruptData, "\(FoundationKeys.nsExponent) \(exponent) is outside -128...127",
        at: .init(keyPath: FoundationKeys.nsExponent))
    }
    guard (0...8).contains(length) else {
      throw ArchiveError(
        .corruptData, "\(FoundationKeys.nsLength) \(length) is outside 0...8",
        at: .init(keyPath: FoundationKeys.nsLength))
    }
    let bytes = [UInt8](mantissaBytes)
    guard bytes.count >= Int(length) * 2 else {
      throw ArchiveError(
        .corruptData,
        "\(FoundationKeys.nsMantissa) has \(bytes.count) bytes, fewer than \(FoundationKeys.nsLength) \(length) words need",
        at: .init(keyPath: FoundationKeys.nsMantissa))
    }
    var mantissa: UInt128 = 0
    for index in stride(from: Int(length) - 1, through: 0, by: -1) {
      let first = UInt16(bytes[index * 2])
      let second = UInt16(bytes[index * 2 + 1])
      let word = byteOrder == Self.bigEndian ? first << 8 | second : second << 8 | first
      mantissa = mantissa << 16 | UInt128(word)
    }
    self.init(exponent: exponent, negative: negative, mantissa: mantissa)
  }

  /// The value as a `Decimal` (length 0 with the sign set is NaN).
  package var decimal: Decimal {
    if mantissa == 0 { return negative ? .nan : Decimal(sign: .plus, exponent: Int(exponent), significand: 0) }
    let high = Decimal(UInt64(truncatingIfNeeded: mantissa >> 64))
    let low = Decimal(UInt64(truncatingIfNeeded: mantissa))
    let significand = high == 0 ? low : high * (Decimal(UInt64.max) + 1) + low
    return Decimal(sign: negative ? .minus : .plus, exponent: Int(exponent), significand: significand)
  }
}
