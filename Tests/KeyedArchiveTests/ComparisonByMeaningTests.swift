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
