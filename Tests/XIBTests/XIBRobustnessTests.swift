import ArchiveCoding
import Foundation
import TestSupport
import Testing
import XIB

/// Damaged inputs: every prefix and single-bit flips of small documents must end in a document or a thrown
/// `ArchiveError`, never a crash, a hang or another kind of error.
@Suite("XIB robustness")
struct XIBRobustnessTests {
  /// Reads `bytes`; returns `true` for a document, `false` for an `ArchiveError`, and records any other error.
  @discardableResult
  private static func survive(
    _ bytes: [UInt8], _ label: String, sourceLocation: SourceLocation = #_sourceLocation
  )
    -> Bool
  {
    do {
      let document = try XIBDocument(parsing: bytes, fileName: "Fuzz.xib")
      for connection in document.connections {
        if let destination = connection.destinationID, document.object(withID: destination) == nil {
          Issue.record("\(label): connection to a missing id was accepted", sourceLocation: sourceLocation)
        }
      }
      return true
    } catch is ArchiveError {
      return false
    } catch {
      Issue.record("\(label): unexpected error type \(error)", sourceLocation: sourceLocation)
      return false
    }
  }

  /// Every prefix (at `stride`), then one flipped bit per byte position (cycling through the 8 bits).
  private static func sweep(_ bytes: [UInt8], name: String, stride step: Int = 1) -> (read: Int, rejected: Int) {
    var read = 0
    var rejected = 0
    for length in Swift.stride(from: 0, to: bytes.count, by: step) {
      if survive(Array(bytes[0..<length]), "\(name) truncated to \(length)") { read += 1 } else { rejected += 1 }
    }
    for position in Swift.stride(from: 0, to: bytes.count, by: step) {
      var damaged = bytes
      damaged[position] ^= UInt8(1) << UInt8(position % 8)
      if survive(damaged, "\(name) bit \(position % 8) of byte \(position) flipped") {
        read += 1
      } else {
        rejected += 1
      }
    }
    return (read, rejected)
  }

  @Test("XIB-090: truncations and bit flips of the hand-written fixtures end in a document or an ArchiveError")
  func fixtureSweep() {
    for (name, text) in [
      ("iOSCard", Fixtures.iOSCard), ("iOSArchive", Fixtures.iOSArchive), ("macOSArchive", Fixtures.macOSArchive),
    ] {
      let bytes = Array(text.utf8)
      let result = Self.sweep(bytes, name: name, stride: 4)
      // Every strict prefix is missing at least the closing root tag.
      #expect(result.rejected >= bytes.count / 4, "\(name)")
      // Many flips land in attribute values or text and leave a readable document.
      #expect(result.read > 0, "\(name)")
    }
  }

  @Test(
    "XIB-090: truncations and bit flips of small corpus files end in a document or an ArchiveError",
    .enabled(if: Corpus.isAvailable, Corpus.absenceNote),
    arguments: [
      "xib/Quicksilver__Quicksilver__QSDroplet__QSDroplet.xib",
      "xib/libs-gui__Tests__gui__GSXib5KeyedUnarchiver__ButtonCell.xib",
      "xib/iCarousel__Examples__Storyboard_Demo__StoryboardExample__en.lproj__MainStoryboard.storyboard",
    ])
  func corpusSweep(file: String) throws {
    let bytes = try Corpus.bytes(file)
    let result = Self.sweep(bytes, name: file)
    #expect(result.rejected >= bytes.count)
    #expect(result.read > 0)
  }

  @Test("XIB-090: random multi-byte damage of an archive document ends in a document or an ArchiveError")
  func randomDamage() {
    var generator = SplitMix64(seed: 0x5EED)
    let original = Array(Fixtures.iOSArchive.utf8)
    for round in 0..<400 {
      var damaged = original
      for _ in 0..<(1 + Int(generator.next() % 6)) {
        let position = Int(generator.next() % UInt64(damaged.count))
        damaged[position] = UInt8(truncatingIfNeeded: generator.next())
      }
      Self.survive(damaged, "random damage round \(round)")
    }
  }
}

extension XIBRobustnessTests {
  @Test("XIB-110: documents nested up to the depth limit are read without exhausting the stack")
  func deepNesting() throws {
    // 126 views, each inside the <subviews> of the previous one: 2 + 2 × 126 = 254 levels.
    var text = "<document targetRuntime=\"iOS.CocoaTouch\"><objects>"
    for level in 0..<126 { text += "<view id=\"v\(level)\"><subviews>" }
    for _ in 0..<126 { text += "</subviews></view>" }
    text += "</objects></document>"
    let views = try XIBDocument(parsing: Array(text.utf8))
    #expect(views.objects.count == 126)
    #expect(views.object(withID: "v125")?.parentID == "v124")

    // 250 nested keyed values inside one view.
    var values = "<document targetRuntime=\"iOS.CocoaTouch\"><objects><view id=\"v\">"
    for _ in 0..<250 { values += "<box key=\"k\">" }
    for _ in 0..<250 { values += "</box>" }
    values += "</view></objects></document>"
    let nested = try XIBDocument(parsing: Array(values.utf8))
    var depth = 0
    var value = nested.object(withID: "v")?.value(forKey: "k")
    while let element = value?.elementValue {
      depth += 1
      value = element.value(forKey: "k")
    }
    #expect(depth == 250)

    // An archive whose objects nest 250 deep.
    var archive = "<archive type=\"com.apple.InterfaceBuilder3.Cocoa.XIB\" version=\"7.10\"><data>"
    for level in 0..<250 { archive += "<object class=\"NSView\" key=\"k\" id=\"a\(level)\">" }
    for _ in 0..<250 { archive += "</object>" }
    archive += "</data></archive>"
    let thrown = Diagnostics.error { _ = try XIBDocument(parsing: Array(archive.utf8)) }
    #expect(thrown?.message == "the archive has no IBDocument.RootObjects")
  }
}
