import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

@testable import KeyedCommands
@testable import Typedstream

@Suite("Typedstream nibs", .enabled(if: TypedstreamCorpus.isPresent, Comment(rawValue: TypedstreamCorpus.skipMessage)))
struct TypedstreamNibTests {
  static let nibs = TypedstreamCorpus.valid.filter { $0.hasSuffix("objects.nib") || $0.hasSuffix("data.nib") }

  /// The connector objects of a stream, counted from its raw JSON view (not from the data object's layout).
  private func connectorCount(_ data: Data) throws -> Int {
    let raw = try TypedstreamCommand.rawJSON(data)
    return raw.components(separatedBy: #"Connector","$fields""#).count - 1
  }

  @Test(
    "NIB-200: every typedstream nib of the corpus reads to its object graph and all its connections", arguments: nibs)
  func everyNibReads(_ name: String) throws {
    let data = try TypedstreamCorpus.data(name)
    let nib = try TypedstreamNib(data: data)
    #expect(nib.dataClassName == "NSIBObjectData")
    #expect(nib.objects.first?.ordinal == nib.root && nib.objects.first?.name == "File's Owner")
    #expect(nib.connections.count == (try connectorCount(data)))
    // Every parent is an object of the graph; every connection's ends are too (or the first responder).
    let ordinals = Set(nib.objects.map(\.ordinal))
    for object in nib.objects.dropFirst() { #expect(object.parent.map(ordinals.contains) == true, "\(object)") }
    for connection in nib.connections {
      #expect(connection.source.map(ordinals.contains) == true, "\(connection)")
    }
  }

  @Test("NIB-201: a Mac OS X objects.nib gives its names, custom classes and connections")
  func macOSNib() throws {
    let nib = try TypedstreamNib(
      data: try TypedstreamCorpus.data(
        "texshop__Resources__AppleScriptObsolete__OldScriptRunner__ScriptRunnerSource__English.lproj__MainMenu.nib__objects.nib"
      ))
    #expect(nib.byteOrder == .big)
    #expect(nib.objects.count == 6)
    let owner = try #require(nib.objects.first)
    #expect(owner.customClassName == "NSApplication")
    let menu = try #require(nib.objects.first { $0.name == "MainMenu" })
    #expect(menu.className == "NSMenu" && menu.parent == owner.ordinal)
    #expect(
      nib.connections == [.init(kind: .action, source: 16, destination: owner.ordinal, label: "terminate:")])
    #expect(nib.objects.first { $0.ordinal == 16 }?.className == "NSMenuItem")
  }

  @Test("NIB-201: outlets and actions of a window nib, with the objects they join")
  func outletsAndActions() throws {
    let nib = try TypedstreamNib(
      data: try TypedstreamCorpus.data("tlayer__English.lproj__TLayerDemo.nib__objects.nib"))
    #expect(nib.objects.first?.customClassName == "TLayerDemo")
    let outlet = try #require(nib.connections.first { $0.label == "tlayerView" })
    #expect(outlet.kind == .outlet && outlet.source == nib.root)
    #expect(nib.objects.first { $0.ordinal == outlet.destination }?.className == "NSCustomView")
    let action = try #require(nib.connections.first { $0.label == "shadowRadiusChanged:" })
    #expect(action.kind == .action && action.destination == nib.root)
    #expect(nib.objects.first { $0.ordinal == action.source }?.className == "NSSlider")
  }

  @Test("NIB-202: NeXTSTEP's class names without NS map to AppKit's, which the interface catalog knows")
  func nextStepNames() throws {
    let nib = try TypedstreamNib(
      data: try TypedstreamCorpus.data("quaketools__QuakeEd__English.lproj__QuakeEd.nib__data.nib"))
    #expect(nib.systemVersion == 930 && nib.byteOrder == .big)
    #expect(nib.objects.first?.storedClassName == "CustomObject")
    #expect(nib.objects.first?.className == "NSCustomObject")
    #expect(nib.objects.first?.customClassName == "Application")
    #expect(nib.connections.count == 161)
    #expect(nib.connections.contains { $0.kind == .outlet } && nib.connections.contains { $0.kind == .action })
    let registry = ClassRegistry()
    InterfaceCatalog.register(in: registry)
    let classes = Set(nib.objects.map(\.storedClassName))
    for stored in ["Button", "TextField", "ScrollView", "Matrix", "Box", "View"] where classes.contains(stored) {
      let name = TypedstreamNib.appKitName(stored)
      #expect(registry.type(forClassName: name) != nil, "\(stored) → \(name)")
    }
    #expect(TypedstreamNib.appKitName("IBOutletConnector") == "NSNibOutletConnector")
    #expect(TypedstreamNib.appKitName("NSWindowTemplate") == "NSWindowTemplate")
  }

  @Test("NIB-203: a stream whose root is not a nib's data object is refused as unsupportedFormat")
  func notANib() throws {
    let data = try TypedstreamArchiver.archivedData(withRootObject: "not a nib")
    let error = try #require(throws: ArchiveError.self) { try TypedstreamNib(data: data) }
    #expect(error.code == .unsupportedFormat)
    #expect(error.description.contains("NSString"))
  }
}
