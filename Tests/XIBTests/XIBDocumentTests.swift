import ArchiveCoding
import Foundation
import Testing
import XIB

@Suite("XIBDocument model")
struct XIBDocumentTests {
  private func read(_ text: String, _ name: String = "Test.xib") throws -> XIBDocument {
    try XIBDocument(parsing: Array(text.utf8), fileName: name)
  }

  // MARK: - iOS XIB

  @Test("XIB-001, XIB-010: a 3.0 iOS XIB is a document-format XIB for iOS")
  func iOSHeader() throws {
    let document = try read(Fixtures.iOSCard)
    #expect(document.format == .document)
    #expect(document.kind == .xib)
    #expect(document.formatVersion == "3.0")
    #expect(document.documentType == "com.apple.InterfaceBuilder3.CocoaTouch.XIB")
    #expect(document.targetRuntime == .iOS)
    #expect(document.scenes.isEmpty)
    #expect(document.warnings.isEmpty)
  }

  @Test("XIB-022: objects are the elements with an id inside <objects>, in document order, connections excluded")
  func objectOrder() throws {
    let document = try read(Fixtures.iOSCard)
    #expect(
      document.objects.map(\.id) == ["-1", "-2", "ext", "c1", "b1", "l1", "k1", "k2", "sa1", "tap"])
    #expect(document.object(withID: "retina6_1") == nil)  // <device> is outside <objects>
    #expect(document.object(withID: "o1") == nil)  // a connection is not an object
  }

  @Test("XIB-020, XIB-026: element classes on iOS, custom class, module and module provider")
  func iOSClasses() throws {
    let document = try read(Fixtures.iOSCard)
    let classes = Dictionary(uniqueKeysWithValues: document.objects.map { ($0.id, $0.className) })
    #expect(classes["c1"] == "UIView")
    #expect(classes["b1"] == "UIButton")
    #expect(classes["l1"] == "UILabel")
    #expect(classes["k1"] == "NSLayoutConstraint")
    #expect(classes["sa1"] == "UILayoutGuide")
    #expect(classes["tap"] == "UITapGestureRecognizer")
    let card = try #require(document.object(withID: "c1"))
    #expect(card.customClass == "CardView")
    #expect(card.customModule == "App")
    #expect(card.customModuleProvider == nil)
    #expect(card.effectiveClassName == "CardView")
    let owner = try #require(document.object(withID: "-1"))
    #expect(owner.customModuleProvider == "target")
    #expect(document.object(withID: "b1")?.effectiveClassName == "UIButton")
  }

  @Test("XIB-030, XIB-035: iOS placeholders by identifier, external objects by their own identifier")
  func iOSPlaceholders() throws {
    let document = try read(Fixtures.iOSCard)
    #expect(document.object(withID: "-1")?.placeholder == .filesOwner)
    #expect(document.object(withID: "-2")?.placeholder == .firstResponder)
    #expect(document.object(withID: "ext")?.placeholder == .external(identifier: "ThemeProvider"))
    #expect(document.object(withID: "-2")?.customClass == "UIResponder")
    #expect(document.placeholders.map(\.id) == ["-1", "-2", "ext"])
    #expect(document.object(withID: "c1")?.isPlaceholder == false)
  }

  @Test("XIB-023, XIB-024: parent, key and top level")
  func parentsAndKeys() throws {
    let document = try read(Fixtures.iOSCard)
    func place(_ id: String) -> (String?, String?, Bool)? {
      document.object(withID: id).map { ($0.parentID, $0.key, $0.isTopLevel) }
    }
    #expect(place("c1")! == (nil, nil, true))
    #expect(place("b1")! == ("c1", "subviews", false))
    #expect(place("l1")! == ("c1", "subviews", false))
    #expect(place("k2")! == ("c1", "constraints", false))
    #expect(place("sa1")! == ("c1", "safeArea", false))
    #expect(place("tap")! == (nil, nil, true))
    #expect(place("-1")! == (nil, nil, false))
    #expect(document.topLevelObjects.map(\.id) == ["c1", "tap"])
    #expect(document.children(ofObjectWithID: "c1").map(\.id) == ["b1", "l1", "k1", "k2", "sa1"])
  }

  @Test("XIB-040, XIB-041, XIB-042, XIB-045: keyed values, collections, structured values and booleans")
  func values() throws {
    let document = try read(Fixtures.iOSCard)
    let card = try #require(document.object(withID: "c1"))
    #expect(card.value(forKey: "frame") == .rect(x: 0, y: 0, width: 320, height: 80))
    #expect(card.value(forKey: "canvasLocation") == .point(x: 10, y: 20))
    #expect(card.value(forKey: "subviews") == .array([.object(id: "b1"), .object(id: "l1")]))
    #expect(card.value(forKey: "constraints") == .array([.object(id: "k1"), .object(id: "k2")]))
    #expect(card.value(forKey: "safeArea") == .object(id: "sa1"))
    let color = try #require(card.value(forKey: "backgroundColor")?.elementValue)
    #expect(color.name == "color")
    #expect(color.attribute("green") == "0.5")
    #expect(color.attribute("key") == nil)
    let mask = try #require(card.value(forKey: "autoresizingMask")?.elementValue)
    #expect(mask.attributes.map(\.name) == ["flexibleMaxX", "flexibleMaxY"])
    #expect(
      card.values.map(\.key) == [
        "frame", "autoresizingMask", "backgroundColor", "safeArea", "canvasLocation", "subviews", "constraints",
      ])

    let button = try #require(document.object(withID: "b1"))
    let state = try #require(button.value(forKey: "normal")?.elementValue)
    #expect(state.name == "state")
    #expect(state.attribute("title") == "OK & go")
    #expect(state.value(forKey: "titleColor")?.elementValue?.attribute("systemColor") == "linkColor")
    #expect(button.boolAttribute("opaque") == false)
    #expect(button.boolAttribute("translatesAutoresizingMaskIntoConstraints") == false)
    #expect(button.boolAttribute("contentMode") == nil)

    let label = try #require(document.object(withID: "l1"))
    #expect(label.attribute("text") == "Title")
    #expect(label.value(forKey: "highlightedColor") == .null)
    #expect(label.value(forKey: "accessibilityHint") == .string("Line one\nline two"))
    #expect(label.value(forKey: "keyEquivalent") == .string("\u{1B}"))
    let font = try #require(label.value(forKey: "fontDescription")?.elementValue)
    #expect(font.attribute("type") == "boldSystem")
    #expect(font.attribute("pointSize") == "17")
  }

  @Test("XIB-044: user-defined runtime attributes with values from attributes and from keyed children")
  func runtimeAttributes() throws {
    let card = try #require(try read(Fixtures.iOSCard).object(withID: "c1"))
    #expect(card.runtimeAttributes.map(\.keyPath) == ["cornerRadius", "isFancy", "title", "shadowOffset"])
    #expect(card.runtimeAttributes.map(\.type) == ["number", "boolean", "string", "size"])
    #expect(
      card.runtimeAttributes.map(\.value) == [.real(8.5), .bool(true), .string("Hi"), .size(width: 1, height: 2)])
    #expect(card.runtimeAttributes.first.map { ($0.line, $0.column) }! == (45, 17))
  }

  @Test("XIB-050, XIB-051, XIB-052: connections with their source, including a forward reference")
  func iOSConnections() throws {
    let document = try read(Fixtures.iOSCard)
    let connections = document.connections
    #expect(connections.map(\.kind) == [.outlet, .outletCollection, .action, .action])
    let outlet = connections[0]
    #expect((outlet.sourceID, outlet.property, outlet.destinationID, outlet.id) == ("-1", "card", "c1", "o1"))
    #expect((outlet.line, outlet.column) == (10, 17))
    let collection = connections[1]
    #expect((collection.sourceID, collection.property, collection.destinationID) == ("-1", "buttons", "b1"))
    #expect(collection.attribute("collectionClass") == "NSMutableArray")
    let action = connections[2]
    #expect(
      (action.sourceID, action.selector, action.destinationID, action.eventType) == ("b1", "ok:", "-1", "touchUpInside")
    )
    let gesture = connections[3]
    #expect(
      (gesture.sourceID, gesture.selector, gesture.destinationID, gesture.eventType) == ("tap", "tapped:", "-1", nil))
    #expect(document.connections(fromObjectWithID: "-1").map(\.id) == ["o1", "oc1"])
  }

  @Test("XIB-061…XIB-066: statistics of the iOS fixture, counted by hand")
  func iOSStatistics() throws {
    let statistics = try read(Fixtures.iOSCard).statistics
    #expect(
      statistics
        == XIBStatistics(
          objects: 7, placeholders: 3, topLevel: 2, outlets: 1, outletCollections: 1, actions: 2, segues: 0))
  }

  // MARK: - macOS XIB

  @Test("XIB-033, XIB-020: macOS placeholders by fixed id; elements map to AppKit classes")
  func macOSPlaceholders() throws {
    let document = try read(Fixtures.macOSWindow)
    #expect(document.targetRuntime == .macOS)
    #expect(document.object(withID: "-2")?.placeholder == .filesOwner)
    #expect(document.object(withID: "-1")?.placeholder == .firstResponder)
    #expect(document.object(withID: "-3")?.placeholder == .application)
    #expect(document.object(withID: "Voe-Tx-rLC")?.placeholder == nil)
    #expect(document.object(withID: "Voe-Tx-rLC")?.className == "NSObject")
    #expect(document.object(withID: "lbl")?.className == "NSTextField")
    #expect(document.object(withID: "cel")?.className == "NSTextFieldCell")
    #expect(document.object(withID: "cel")?.key == "cell")
    #expect(document.object(withID: "QvC-M9-y7g")?.className == "NSWindow")
    #expect(document.object(withID: "EiT-Mj-1SZ")?.key == "contentView")
    #expect(document.object(withID: "4sb-4s-VLi")?.className == "NSMenuItem")
    #expect(document.object(withID: "4sb-4s-VLi")?.key == "items")
    #expect(document.topLevelObjects.map(\.id) == ["Voe-Tx-rLC", "QvC-M9-y7g", "AYu-sK-qS6"])
  }

  @Test("XIB-052, XIB-053: macOS actions name their target with target=; bindings are read but not counted")
  func macOSConnections() throws {
    let document = try read(Fixtures.macOSWindow)
    let actions = document.connections.filter { $0.kind == .action }
    #expect(actions.map(\.sourceID) == ["4sb-4s-VLi", "OY7-WF-poV"])
    #expect(actions.map(\.destinationID) == ["-3", "-1"])
    #expect(actions.map(\.selector) == ["terminate:", "performMiniaturize:"])
    let binding = try #require(document.connections.first { $0.kind == .binding })
    #expect(
      (binding.sourceID, binding.property, binding.destinationID, binding.identifier) == (
        "lbl", "value", "Voe-Tx-rLC", "name"
      ))
    #expect(
      document.statistics
        == XIBStatistics(
          objects: 8, placeholders: 3, topLevel: 3, outlets: 1, outletCollections: 0, actions: 2, segues: 0))
  }

  // MARK: - Storyboards

  @Test("XIB-002, XIB-057: storyboard scenes, controllers, identifiers and the initial controller")
  func storyboardScenes() throws {
    let document = try read(Fixtures.iOSStoryboard, "Main.storyboard")
    #expect(document.kind == .storyboard)
    #expect(document.initialViewControllerID == "nav")
    #expect(document.scenes.map(\.sceneID) == ["s1", "s2", "s3"])
    #expect(document.scenes.map(\.controllerID) == ["nav", "list", "other"])
    #expect(document.scenes.map(\.storyboardIdentifier) == [nil, "List", nil])
    #expect(document.scenes[1].objectIDs == ["list", "fr2", "ex", "tap2"])
    #expect((document.scenes[1].line, document.scenes[1].column) == (19, 9))
    #expect(document.object(withID: "cell")?.sceneID == "s2")
    #expect(document.scene(containingObjectWithID: "ccv")?.sceneID == "s2")
    #expect(document.object(withID: "tv")?.className == "UITableView")
    #expect(document.object(withID: "ccv")?.className == "UITableViewCellContentView")
    #expect(document.object(withID: "ccv")?.key == "contentView")
    #expect(document.object(withID: "cell")?.key == "prototypes")
    #expect(document.object(withID: "list")?.effectiveClassName == "ListController")
  }

  @Test("XIB-031, XIB-034: storyboard placeholders: first responders, exit, controller placeholder")
  func storyboardPlaceholders() throws {
    let document = try read(Fixtures.iOSStoryboard, "Main.storyboard")
    #expect(document.placeholders.map(\.id) == ["fr1", "fr2", "ex", "other", "fr3"])
    #expect(document.object(withID: "ex")?.placeholder == .exit)
    #expect(
      document.object(withID: "other")?.placeholder
        == .storyboardReference(storyboardName: "Detail", referencedIdentifier: "Detail"))
    #expect(document.object(withID: "fr2")?.placeholder == .firstResponder)
    #expect(document.topLevelObjects.map(\.id) == ["nav", "list", "tap2"])
  }

  @Test("XIB-051: segues from controllers and from cells")
  func segues() throws {
    let document = try read(Fixtures.iOSStoryboard, "Main.storyboard")
    let segues = document.connections.filter { $0.kind == .segue }
    #expect(segues.map(\.sourceID) == ["nav", "cell"])
    #expect(segues.map(\.destinationID) == ["list", "other"])
    #expect(segues.map(\.segueKind) == ["relationship", "show"])
    #expect(segues.map(\.identifier) == [nil, "ShowDetail"])
    #expect(segues[0].attribute("relationship") == "rootViewController")
    #expect(
      document.statistics
        == XIBStatistics(
          objects: 8, placeholders: 5, topLevel: 3, outlets: 2, outletCollections: 0, actions: 0, segues: 2))
  }

  @Test("XIB-032: a macOS storyboard's <application> is a placeholder; its menu is not")
  func macOSStoryboard() throws {
    let document = try read(Fixtures.macOSStoryboard, "Main.storyboard")
    #expect(document.targetRuntime == .macOS)
    #expect(document.object(withID: "hnw")?.placeholder == .application)
    #expect(document.object(withID: "AYu")?.placeholder == nil)
    #expect(document.object(withID: "AYu")?.parentID == "hnw")
    #expect(document.object(withID: "Ady")?.placeholder == .firstResponder)
    #expect(document.object(withID: "wc")?.className == "NSWindowController")
    #expect(document.scenes.map(\.controllerID) == ["hnw", "wc", "vc"])
    #expect(
      document.statistics
        == XIBStatistics(
          objects: 7, placeholders: 4, topLevel: 3, outlets: 1, outletCollections: 0, actions: 1, segues: 1))
  }

  // MARK: - Runtime and class table

  @Test("XIB-010: target runtimes, and the document type when targetRuntime is absent")
  func runtimes() throws {
    func runtime(_ attributes: String) throws -> XIBTargetRuntime {
      try read("<document \(attributes)><objects/></document>").targetRuntime
    }
    #expect(try runtime(#"targetRuntime="iOS.CocoaTouch.iPad""#) == .iOS)
    #expect(try runtime(#"targetRuntime="AppleTV""#) == .tvOS)
    #expect(try runtime(#"type="com.apple.InterfaceBuilder3.AppleTV.XIB""#) == .tvOS)
    #expect(try runtime(#"type="com.apple.InterfaceBuilder3.CocoaTouch.XIB""#) == .iOS)
    #expect(try runtime(#"type="com.apple.InterfaceBuilder3.Cocoa.XIB""#) == .macOS)
  }

  @Test(
    "XIB-020, XIB-021: the element class table, with the prefix rule for elements not in it",
    arguments: [
      ("label", XIBTargetRuntime.iOS, "UILabel"), ("label", .macOS, "NSTextField"), ("view", .iOS, "UIView"),
      ("view", .macOS, "NSView"), ("button", .tvOS, "UIButton"), ("button", .macOS, "NSButton"),
      ("imageView", .iOS, "UIImageView"), ("textField", .macOS, "NSTextField"), ("switch", .iOS, "UISwitch"),
      ("slider", .macOS, "NSSlider"), ("scrollView", .iOS, "UIScrollView"), ("stackView", .macOS, "NSStackView"),
      ("tableView", .iOS, "UITableView"), ("tableViewCell", .iOS, "UITableViewCell"),
      ("tableViewCellContentView", .iOS, "UITableViewCellContentView"),
      ("collectionView", .iOS, "UICollectionView"), ("collectionViewCell", .iOS, "UICollectionViewCell"),
      ("viewController", .macOS, "NSViewController"), ("navigationController", .iOS, "UINavigationController"),
      ("window", .macOS, "NSWindow"), ("constraint", .iOS, "NSLayoutConstraint"),
      ("layoutGuide", .iOS, "UILayoutGuide"), ("viewLayoutGuide", .macOS, "NSLayoutGuide"),
      ("menu", .macOS, "NSMenu"), ("menuItem", .macOS, "NSMenuItem"), ("customObject", .macOS, "NSObject"),
      ("customView", .macOS, "NSView"), ("textFieldCell", .macOS, "NSTextFieldCell"),
      ("buttonCell", .macOS, "NSButtonCell"), ("placeholder", .iOS, "NSObject"),
      ("pdfView", .macOS, "PDFView"), ("activityIndicatorView", .iOS, "UIActivityIndicatorView"),
      ("fancyGadget", .iOS, "UIFancyGadget"), ("fancyGadget", .macOS, "NSFancyGadget"),
      ("tableViewCell", .macOS, "NSTableViewCell"),
    ])
  func classTable(element: String, runtime: XIBTargetRuntime, expected: String) {
    #expect(runtime.defaultClassName(forElement: element) == expected)
  }

  // MARK: - Archive documents

  @Test("XIB-071, XIB-072, XIB-073, XIB-074: an iOS archive's records become objects with classes and placeholders")
  func iOSArchiveObjects() throws {
    let document = try read(Fixtures.iOSArchive, "MainWindow.xib")
    #expect(document.format == .archive)
    #expect(document.formatVersion == "7.10")
    #expect(document.targetRuntime == .iOS)
    #expect(document.objects.map(\.id) == ["-1", "-2", "3", "2", "4"])
    #expect(document.objects.map(\.elementName) == ["placeholder", "placeholder", "customObject", "window", "button"])
    #expect(document.objects.map(\.className) == ["NSObject", "NSObject", "NSObject", "UIWindow", "UIButton"])
    #expect(document.object(withID: "-1")?.placeholder == .filesOwner)
    #expect(document.object(withID: "-1")?.customClass == "UIApplication")
    #expect(document.object(withID: "-2")?.placeholder == .firstResponder)
    #expect(document.object(withID: "3")?.customClass == "AppDelegate")
    #expect(document.object(withID: "4")?.parentID == "2")
    #expect(document.object(withID: "4")?.key == "NSSubviews")
    #expect(document.object(withID: "2")?.key == nil)
    #expect(document.topLevelObjects.map(\.id) == ["3", "2"])
  }

  @Test("XIB-075: archived values: strings, base64 strings, numbers, booleans, bytes, nil, references, lists")
  func archiveValues() throws {
    let document = try read(Fixtures.iOSArchive, "MainWindow.xib")
    let button = try #require(document.object(withID: "4"))
    #expect(button.value(forKey: "IBUINormalTitle") == .string("Press"))
    #expect(button.value(forKey: "IBUIAccessibilityHint") == .string("Hi\0"))
    #expect(button.value(forKey: "IBUIOpaque") == .bool(false))
    #expect(button.value(forKey: "IBUIAlpha") == .real(0.5))
    #expect(button.value(forKey: "IBUIButtonType") == .integer(1))
    #expect(button.value(forKey: "NSRGB") == .data(Array("1 1 1\0".utf8)))
    #expect(button.value(forKey: "IBUIHighlightedColor") == .null)
    #expect(button.value(forKey: "NSSuperview") == .object(id: "2"))
    let window = try #require(document.object(withID: "2"))
    #expect(window.value(forKey: "NSSubviews") == .array([.object(id: "4")]))
    #expect(window.value(forKey: "IBUIVisibleAtLaunch") == .bool(true))
  }

  @Test("XIB-076: iOS archive connections: outlets and touch events with their event name")
  func iOSArchiveConnections() throws {
    let document = try read(Fixtures.iOSArchive, "MainWindow.xib")
    #expect(document.connections.map(\.kind) == [.outlet, .action])
    let outlet = document.connections[0]
    #expect((outlet.sourceID, outlet.property, outlet.destinationID, outlet.id) == ("3", "window", "2", "5"))
    let action = document.connections[1]
    #expect(
      (action.sourceID, action.selector, action.destinationID, action.eventType) == (
        "4", "press:", "-1", "touchUpInside"
      ))
    #expect(
      document.statistics
        == XIBStatistics(
          objects: 3, placeholders: 2, topLevel: 2, outlets: 1, outletCollections: 0, actions: 1, segues: 0))
  }

  @Test("XIB-073, XIB-074, XIB-076: macOS archive: swapped placeholder ids, custom classes, reversed action records")
  func macOSArchive() throws {
    let document = try read(Fixtures.macOSArchive, "MainMenu.xib")
    #expect(document.formatVersion == "8.00")
    #expect(document.targetRuntime == .macOS)
    #expect(document.object(withID: "-2")?.placeholder == .filesOwner)
    #expect(document.object(withID: "-1")?.placeholder == .firstResponder)
    #expect(document.object(withID: "-3")?.placeholder == .application)
    #expect(document.object(withID: "-2")?.customClass == "NSApplication")
    #expect(document.object(withID: "-1")?.customClass == "FirstResponder")
    #expect(document.object(withID: "10")?.className == "NSMenuItem")
    #expect(document.object(withID: "11")?.elementName == "customView")
    #expect(document.object(withID: "11")?.customClass == "GraphView")
    #expect(document.object(withID: "12")?.customClass == "AppDelegate")
    #expect(document.object(withID: "11")?.value(forKey: "NSvFlags") == .integer(12))
    #expect(document.object(withID: "11")?.value(forKey: "NSIsFlipped") == .bool(true))
    #expect(document.object(withID: "11")?.value(forKey: "NSScale") == .real(1.5))
    let action = try #require(document.connections.first { $0.kind == .action })
    #expect((action.sourceID, action.selector, action.destinationID) == ("10", "terminate:", "-3"))
    let binding = try #require(document.connections.first { $0.kind == .binding })
    #expect(
      (binding.sourceID, binding.property, binding.destinationID, binding.identifier) == ("11", "hidden", "12", "flag"))
    #expect(
      document.statistics
        == XIBStatistics(
          objects: 3, placeholders: 3, topLevel: 3, outlets: 1, outletCollections: 0, actions: 1, segues: 0))
  }
}

extension XIBDocumentTests {
  @Test("XIB-061, XIB-064, XIB-066: statistics of a generated 200 kB XIB equal the counts it was built with")
  func syntheticStatistics() throws {
    let (bytes, expected) = SyntheticXIB.make(targetBytes: 200_000)
    let document = try XIBDocument(parsing: bytes, fileName: "Synthetic.xib")
    let statistics = document.statistics
    #expect(statistics.objects == expected.objects)
    #expect(statistics.placeholders == 2)
    #expect(statistics.topLevel == 1)
    #expect(statistics.outlets == expected.outlets)
    #expect(statistics.actions == expected.actions)
    #expect(document.object(withID: "c3l")?.attribute("text") == "Café & crème <3>")
    #expect(document.object(withID: "c3")?.attribute("userLabel") == "Card \"3\"")
    #expect(document.object(withID: "c3")?.value(forKey: "accessibilityHint") == .string("Line one\nline two & <raw>"))
  }

  @Test(
    "XIB-060, XIB-077: statistics of the hand-written fixtures equal the independent Python counts",
    .enabled(if: PythonOracle.isAvailable, "python3 is not on the PATH: the independent counter cannot run"))
  func fixturesMatchPython() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xib-fixtures-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let fixtures = [
      ("iOSCard.xib", Fixtures.iOSCard), ("macOSWindow.xib", Fixtures.macOSWindow),
      ("iOS.storyboard", Fixtures.iOSStoryboard), ("macOS.storyboard", Fixtures.macOSStoryboard),
      ("iOSArchive.xib", Fixtures.iOSArchive), ("macOSArchive.xib", Fixtures.macOSArchive),
    ]
    var paths: [String] = []
    for (name, text) in fixtures {
      let url = directory.appendingPathComponent(name)
      try Data(text.utf8).write(to: url)
      paths.append(url.path)
    }
    let oracle = try PythonOracle.counts(for: paths)
    for ((name, text), path) in zip(fixtures, paths) {
      let expected = try #require(oracle[path], "no Python counts for \(name)").get()
      #expect(try read(text, name).statistics == expected, "\(name)")
    }
  }
}
