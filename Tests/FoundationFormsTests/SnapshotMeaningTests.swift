import ArchiveCoding
import ArchiveTesting
import Foundation
import FoundationForms
import KeyedArchive
import PropertyList
import Testing

/// The test helpers' snapshots describe Foundation's values by what they mean, through the forms (FORM-070).
@Suite("Snapshots of Foundation values")
struct SnapshotMeaningTests {
  @Test(
    "FORM-070: a value snapshot of a Foundation value type is its meaning, not its private storage",
    arguments: [
      (TimeZone(secondsFromGMT: 3600) as any Sendable, "GMT+0100"), (Locale(identifier: "fr_CA"), "fr_CA"),
      (IndexSet([2, 3, 7]), "[[2,2],[7,1]]"), (Calendar(identifier: .gregorian), "gregorian"),
      (Measurement(value: 2, unit: UnitLength.kilometers), "NSUnitLength"),
    ])
  func valueSnapshots(value: any Sendable, text: String) {
    let snapshot = ValueSnapshot(of: value)
    #expect(snapshot.description.contains(text), "\(snapshot)")
  }

  @Test("FORM-070: a time zone of a fixed offset survives the round trip (the decoded one's storage differs)")
  func fixedOffsetRoundTrip() throws {
    let zone = try #require(TimeZone(secondsFromGMT: 3600))
    let data = try KeyedArchiver.archivedData(withRootObject: zone)
    let back = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: TimeZone.self, from: data))
    #expect(ValueSnapshot.difference(expected: ValueSnapshot(of: zone), actual: ValueSnapshot(of: back)) == nil)
  }

  @Test("FORM-070: archives of one time zone compare equal whatever rules (NS.data) they carry, as the view reads them")
  func timeZoneArchivesByMeaning() throws {
    let archives = try [Data(), Data([0x54, 0x5A, 0x69, 0x66])].map { rules in
      try PropertyListWriter.write(
        [
          "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
          "$objects": [
            "$null", ["$class": .uid(4), "NS.name": .uid(2), "NS.data": .uid(3)], "Europe/Paris", .data(rules),
            ["$classname": "NSTimeZone", "$classes": ["NSTimeZone", "NSObject"]],
          ],
        ] as PropertyListValue)
    }
    #expect(
      ValueSnapshot.difference(
        expected: try ValueSnapshot(archive: archives[0]), actual: try ValueSnapshot(archive: archives[1])) == nil)
  }
}
