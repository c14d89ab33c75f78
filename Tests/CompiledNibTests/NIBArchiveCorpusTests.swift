import ArchiveCoding
import Foundation
import Testing

@testable import CompiledNib

@Suite("NIBArchive corpus", .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.absentMessage)))
struct NIBArchiveCorpusTests {
  @Test("NIBA-017: every NIBArchive of the corpus parses with the default options, nib structure included")
  func everyFileParses() throws {
    let files = Corpus.nibArchiveFiles
    #expect(files.count >= 200, "expected the corpus's 200+ NIBArchive files, found \(files.count)")
    var flavors: [NIBArchiveNibStructure.Flavor: Int] = [:]
    for (path, url) in files {
      do {
        let document = try NIBArchiveDocument(bytes: try Corpus.bytes(url))
        #expect(document.header.formatVersion == 1, "\(path)")
        #expect(document.rootObjectIndex == 0, "\(path)")
        #expect(document.className(ofObject: 0) == "NSObject", "\(path)")
        let nib = try document.nibStructure()
        flavors[nib.flavor, default: 0] += 1
        // Every object's entries can be listed and every string object reads as text.
        for index in 0..<document.objectCount {
          let entries = document.entries(ofObject: index)
          #expect(entries.count == document.entryCount(ofObject: index))
          if document.className(ofObject: index) == "NSString" {
            #expect(document.string(ofObject: index) != nil, "\(path): object #\(index)")
          }
        }
      } catch {
        Issue.record("\(path): \(error)")
      }
    }
    #expect(flavors[.uiKit, default: 0] > 0)
    #expect(flavors[.appKit, default: 0] > 0)
  }

  @Test("NIBA-011: in the corpus every NSInlinedValue is true (type 5)")
  func inlinedValuesAreTrue() throws {
    var seen = 0
    for (path, url) in Corpus.nibArchiveFiles {
      let document = try NIBArchiveDocument(bytes: try Corpus.bytes(url))
      guard let key = document.keyIndex(named: "NSInlinedValue") else { continue }
      for index in 0..<document.objectCount {
        if let valueIndex = document.valueIndex(forKeyIndex: key, inObject: index) {
          #expect(document.value(at: valueIndex) == .bool(true), "\(path): object #\(index)")
          seen += 1
        }
      }
    }
    #expect(seen > 1000)
  }

  @Test("NIBA-016: the launch-screen nib's 4 trailing bytes are ignored")
  func launchScreenTrailer() throws {
    let url = Corpus.nibDirectory.appendingPathComponent(
      "appium-ios-uicatalog/2023/Base.lproj/LaunchScreen.storyboardc/Axx-hg-9Xm-view-Bd8-dr-7ve.nib")
    let bytes = try Corpus.bytes(url)
    let document = try NIBArchiveDocument(bytes: bytes)
    #expect(document.trailingByteCount == 4)
    #expect(Array(bytes.suffix(4)) == [0x4C, 0x4E, 0x45, 0x00])
    #expect(document.integer(forKey: "IBUINibLNEVersionKey", inObject: 0) == 1)
  }

  @Test("NIBA-008: UIKit class fallbacks in the corpus resolve to AppKit or UIKit base classes")
  func corpusFallbacks() throws {
    var chains: Set<[String]> = []
    for (_, url) in Corpus.nibArchiveFiles {
      let document = try NIBArchiveDocument(bytes: try Corpus.bytes(url))
      for entry in document.classes where !entry.fallbackIndices.isEmpty {
        chains.insert([entry.name] + entry.fallbackIndices.map { document.classes[$0].name })
      }
    }
    #expect(chains.contains(["UIColor", "NSColor"]))
    #expect(chains.contains(["UIFont", "NSFont"]))
  }

  @Test("NIBA-023: UIKit bounds in the corpus decode as four doubles")
  func corpusGeometry() throws {
    var checked = 0
    for (_, url) in Corpus.nibArchiveFiles {
      let document = try NIBArchiveDocument(bytes: try Corpus.bytes(url))
      guard document.keyIndex(named: "UIBounds") != nil else { continue }
      for index in 0..<document.objectCount where document.value(forKey: "UIBounds", inObject: index) != nil {
        let bounds = try #require(document.geometry(forKey: "UIBounds", inObject: index))
        #expect(bounds.count == 4)
        #expect(bounds.allSatisfy { $0.isFinite && $0 >= 0 })
        checked += 1
      }
    }
    #expect(checked > 50)
  }
}
