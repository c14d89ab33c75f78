import ArchiveCoding
import ArchiveComparison
import ArchiveTesting
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// The one comparison by meaning (`Specs/ArchiveFormat.md` ARC-300…ARC-313): Foundation values by what they mean,
/// absent against nil, aligned arrays, attributed strings as runs, typed results, and the test helpers that use it.
@Suite("Comparison by meaning")
struct ComparisonByMeaningTests {
  /// Foundation values whose live forms differ in private storage after a round trip (the decoded time zone is
  /// another private class, Foundation decodes a `Measurement<Unit>`, `DateComponents` gains `isLeapMonth`).
  static var foundationValues: [(String, Any)] {
    [
      ("TimeZone(secondsFromGMT: 3600)", TimeZone(secondsFromGMT: 3600) as Any),
      ("TimeZone(identifier: Europe/Paris)", TimeZone(identifier: "Europe/Paris") as Any),
      ("Measurement<UnitLength>", Measurement(value: 3.5, unit: UnitLength.kilometers)),
      ("DateComponents", DateComponents(year: 2024, month: 2, day: 29)),
      ("Calendar", Calendar(identifier: .gregorian)),
      ("Locale", Locale(identifier: "fr_CA")),
    ]
  }

  @Test(
    "ARC-303, ARC-313: ArchiveRoundTrip compares Foundation values by meaning, never by private storage",
    arguments: 0..<6)
  func roundTripByMeaning(_ index: Int) throws {
    let (name, value) = Self.foundationValues[index]
    let outcomes = try ArchiveRoundTrip.check(value)
    #expect(outcomes.count == 2, "\(name)")
  }

  @Test(
    "ARC-303, ARC-313: the Foundation oracle reads our archives of Foundation values as the same meaning",
    arguments: 0..<6)
  func foundationReadsByMeaning(_ index: Int) throws {
    let (name, value) = Self.foundationValues[index]
    do {
      try FoundationOracle.check(value)
    } catch {
      Issue.record("\(name): \(error)")
    }
  }

  @Test("ARC-303: two archives of one time zone compare equal; of two time zones, one line naming both")
  func timeZones() throws {
    let ours = try KeyedArchiver.archivedData(withRootObject: TimeZone(secondsFromGMT: 3600))
    let theirs = FoundationOracle.archive(NSTimeZone(forSecondsFromGMT: 3600))
    #expect(try ArchiveComparison.differences(between: ours, and: theirs).isEmpty)
    let other = try KeyedArchiver.archivedData(withRootObject: TimeZone(secondsFromGMT: 7200))
    let differences = try ArchiveComparison.differences(between: ours, and: other)
    #expect(differences.count == 1)
    let difference = try #require(differences.first)
    #expect(difference.path == "root")
    #expect(difference.change == .changed)
    #expect(difference.old?.kind == .foundationValue)
    #expect(difference.old?.className == "NSTimeZone")
    #expect(difference.new?.className == "NSTimeZone")
  }

  @Test("ARC-303, ARC-313: the Swift Testing front ends pass on the values #37 found them failing on")
  func expectationsPass() {
    ArchiveExpectations.expectRoundTrip(TimeZone(secondsFromGMT: 3600))
    ArchiveExpectations.expectFoundationReads(TimeZone(secondsFromGMT: 3600))
    ArchiveExpectations.expectFoundationReads(Measurement(value: 3.5, unit: UnitLength.kilometers))
    ArchiveExpectations.expectFoundationReads(DateComponents(year: 2024, month: 2, day: 29))
    ArchiveExpectations.expectFoundationReads(Calendar(identifier: .gregorian))
  }
}

/// Decimal numbers compare by value (ARC-330): the placeholder class Interface Builder archives, the `NS.compact`
/// flag, trailing zeros of the mantissa and where the sides share one are not part of a decimal's meaning.
@Suite("Comparison of decimal numbers")
struct DecimalNumberComparisonTests {
  /// An `NSDecimalNumberPlaceholder` as a nib holds one: `mantissa` × 10^`exponent`, with its `NS.compact` flag.
  static func placeholder(mantissa: UInt16, exponent: Int64, negative: Bool = false, compact: Bool) -> ArchivedObject {
    var bytes = Data(repeating: 0, count: 16)
    bytes[0] = UInt8(truncatingIfNeeded: mantissa)
    bytes[1] = UInt8(truncatingIfNeeded: mantissa >> 8)
    return ArchivedObject(
      className: "NSDecimalNumberPlaceholder",
      classChain: ["NSDecimalNumberPlaceholder", "NSNumber", "NSValue", "NSObject"],
      fields: [
        .init(key: "NS.exponent", value: .value(.integer(exponent))),
        .init(key: "NS.length", value: .value(.integer(mantissa == 0 ? 0 : 1))),
        .init(key: "NS.negative", value: .value(.bool(negative))),
        .init(key: "NS.compact", value: .value(.bool(compact))),
        .init(key: "NS.mantissa", value: .value(.data(bytes))),
        .init(key: "NS.mantissa.bo", value: .value(.integer(1))),
      ])
  }

  /// A formatter whose minimum and maximum are `minimum` and `maximum` (one object when they are the same).
  static func formatter(minimum: Any, maximum: Any) throws -> Data {
    let formatter = ArchivedObject(
      className: "NSNumberFormatter", classChain: ["NSNumberFormatter", "NSFormatter", "NSObject"],
      fields: [.init(key: "NS.max", value: .object(maximum)), .init(key: "NS.min", value: .object(minimum))])
    return try KeyedArchiver.archivedData(withRootObject: formatter)
  }

  @Test("ARC-330: a shared placeholder with NS.compact and trailing zeros equals two NSDecimalNumbers of its value")
  func placeholderEqualsDecimalNumbers() throws {
    let shared = Self.placeholder(mantissa: 150, exponent: -2, compact: false)
    let nib = try Self.formatter(minimum: shared, maximum: shared)
    let written = try Self.formatter(minimum: Decimal(string: "1.5") as Any, maximum: Decimal(string: "1.5") as Any)
    // The two archives do differ in their wire form: class names, flags, mantissas and sharing.
    #expect(try KeyedArchiveGraph(data: nib).objectCount != KeyedArchiveGraph(data: written).objectCount)
    #expect(try ArchiveComparison.differences(between: nib, and: written).isEmpty)
    #expect(try ArchiveComparison.differences(between: written, and: nib).isEmpty)
  }

  @Test("ARC-330: decimal numbers of different values differ in one line naming both values")
  func differentValuesDiffer() throws {
    let nib = try Self.formatter(
      minimum: Self.placeholder(mantissa: 0, exponent: 0, compact: true),
      maximum: Self.placeholder(mantissa: 150, exponent: -2, compact: false))
    let written = try Self.formatter(minimum: Decimal(0) as Any, maximum: Decimal(string: "-2.5") as Any)
    let differences = try ArchiveComparison.differences(between: nib, and: written)
    #expect(differences.map(\.description) == [#"root["NS.max"].value: "1.5" -> "-2.5""#], "\(differences)")
  }

  // Foundation's own archive of an NSDecimalNumber cannot serve as the peer here: the toolchain's NSKeyedArchiver
  // recurses without end hashing an NSDecimalNumber on Linux.
  @Test("ARC-330: a negative decimal with more digits equals the placeholder of its value, and not of its neighbour")
  func negativeDecimals() throws {
    let ours = try KeyedArchiver.archivedData(withRootObject: Decimal(string: "-12.345") as Any)
    let same = try KeyedArchiver.archivedData(
      withRootObject: Self.placeholder(mantissa: 12345, exponent: -3, negative: true, compact: true))
    #expect(try ArchiveComparison.differences(between: ours, and: same).isEmpty)
    let other = try KeyedArchiver.archivedData(
      withRootObject: Self.placeholder(mantissa: 12346, exponent: -3, negative: true, compact: true))
    let differences = try ArchiveComparison.differences(between: ours, and: other)
    #expect(differences.map(\.description) == [#"root.value: "-12.345" -> "-12.346""#], "\(differences)")
  }

  @Test("ARC-330: fields that do not read as a decimal's are compared as they are")
  func malformedDecimalComparedAsFields() throws {
    let bad = Self.placeholder(mantissa: 150, exponent: -2, compact: false)
    bad.fields[0] = .init(key: "NS.exponent", value: .value(.integer(400)))
    let worse = Self.placeholder(mantissa: 150, exponent: -2, compact: false)
    worse.fields[0] = .init(key: "NS.exponent", value: .value(.integer(401)))
    let differences = try ArchiveComparison.differences(
      between: try Self.formatter(minimum: bad, maximum: bad), and: try Self.formatter(minimum: worse, maximum: worse))
    #expect(differences.contains { $0.path.hasSuffix(#"["NS.exponent"]"#) }, "\(differences)")
  }
}
