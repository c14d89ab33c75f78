import ArchiveCoding
import Foundation
import Testing
import XIB

@Suite("XIB corpus")
struct XIBCorpusTests {
  @Test(
    "XIB-001: every corpus XIB and storyboard reads into a document",
    .enabled(if: Corpus.isAvailable, Corpus.absenceNote), arguments: Corpus.interfaceBuilderFiles)
  func everyFileReads(file: String) throws {
    let document = try XIBDocument(parsing: try Corpus.bytes(file), fileName: file)
    #expect(!document.objects.isEmpty)
    for connection in document.connections {
      #expect(document.object(withID: connection.sourceID) != nil)
      if let destination = connection.destinationID {
        #expect(document.object(withID: destination) != nil)
      }
    }
  }
}

extension XIBCorpusTests {
  @Test(
    "XIB-060…XIB-066, XIB-077: statistics equal the counts of the independent Python script (xml.etree)",
    .enabled(if: Corpus.isAvailable, Corpus.absenceNote),
    .enabled(if: PythonOracle.isAvailable, "python3 is not on the PATH: the independent counter cannot run"))
  func statisticsMatchPythonCounts() throws {
    let files = Corpus.interfaceBuilderFiles
    let oracle = try PythonOracle.counts(for: files.map(Corpus.path))
    #expect(oracle.count == files.count)
    for file in files {
      let expected = try #require(oracle[Corpus.path(file)], "no Python counts for \(file)").get()
      let document = try XIBDocument(parsing: try Corpus.bytes(file), fileName: file)
      #expect(document.statistics == expected, "\(file)")
    }
  }

  @Test(
    "XIB-043: the element catalog knows every element of the corpus (no warnings)",
    .enabled(if: Corpus.isAvailable, Corpus.absenceNote))
  func noWarningsOnCorpus() throws {
    for file in Corpus.interfaceBuilderFiles {
      let document = try XIBDocument(parsing: try Corpus.bytes(file), fileName: file)
      #expect(document.warnings.isEmpty, "\(document.warnings)")
    }
  }

  @Test(
    "XIB-040, XIB-044, XIB-030: a real iOS XIB: placeholders, custom class and module, values, runtime attributes",
    .enabled(if: Corpus.isAvailable, Corpus.absenceNote))
  func statusLine() throws {
    let document = try XIBDocument(
      contentsOfFile: Corpus.path("xib/SwiftMessages__SwiftMessages__Resources__StatusLine.xib"))
    #expect(document.fileName == "SwiftMessages__SwiftMessages__Resources__StatusLine.xib")
    #expect(document.placeholders.map(\.placeholder) == [.filesOwner, .firstResponder])
    let view = try #require(document.object(withID: "mGT-Jp-zjF"))
    #expect((view.className, view.customClass, view.customModule) == ("UIView", "MessageView", "SwiftMessages"))
    #expect(view.value(forKey: "frame") == .rect(x: 0, y: 0, width: 600, height: 96))
    #expect(view.runtimeAttributes.map(\.keyPath).first == "leftLayoutMarginAddition")
    #expect(view.runtimeAttributes.first?.value == .real(30))
    #expect(view.runtimeAttributes.first { $0.type == "boolean" }?.value == .bool(false))
    let label = try #require(document.object(withID: "Jtv-Px-mvN"))
    #expect((label.className, label.parentID, label.key) == ("UILabel", "mGT-Jp-zjF", "subviews"))
    #expect(label.value(forKey: "highlightedColor") == .null)
    #expect(document.connections.map(\.property) == ["bodyLabel"])
  }

  @Test(
    "XIB-074, XIB-076: a real iOS archive document: custom classes from flattened properties, outlet records",
    .enabled(if: Corpus.isAvailable, Corpus.absenceNote))
  func moleculesArchive() throws {
    let document = try XIBDocument(contentsOfFile: Corpus.path("xib/Molecules__English.lproj__MainWindow.xib"))
    #expect(document.format == .archive)
    #expect(document.object(withID: "-1")?.customClass == "UIApplication")
    #expect(document.object(withID: "3")?.customClass == "SLSMoleculeAppDelegate")
    #expect(document.object(withID: "20")?.customClass == "SLSMoleculeRootViewController")
    #expect(document.object(withID: "20")?.className == "UIViewController")
    #expect(document.object(withID: "26")?.parentID == "20")
    #expect(document.object(withID: "26")?.key == "IBUIView")
    #expect(document.object(withID: "37")?.className == "UILabel")
    #expect(document.object(withID: "37")?.value(forKey: "IBUIText") == .string("Rendering..."))
    let outlets = document.connections.map { "\($0.sourceID).\($0.property ?? "")→\($0.destinationID ?? "")" }
    #expect(outlets.prefix(3) == ["-1.delegate→3", "3.window→2", "3.rootViewController→20"])
  }

  @Test(
    "XIB-076: a real macOS archive: action records run from the target to the control",
    .enabled(if: Corpus.isAvailable, Corpus.absenceNote))
  func macOSArchiveActions() throws {
    let document = try XIBDocument(
      contentsOfFile: Corpus.path("xib/iCarousel__Examples__Mac_Demo__iCarouselMac__en.lproj__MainMenu.xib"))
    let quit = try #require(document.connections.first { $0.selector == "terminate:" })
    #expect(document.object(withID: quit.sourceID)?.className == "NSMenuItem")
    #expect(document.object(withID: quit.sourceID)?.value(forKey: "NSTitle") == .string("Quit iCarouselMac"))
    #expect(quit.destinationID == "-3")
    #expect(document.object(withID: "-3")?.placeholder == .application)
  }
}
