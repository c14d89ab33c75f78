import ArchiveCoding
import Foundation
import NibLoading
import PropertyList
import Testing

/// Exact checks on a few corpus nibs whose contents were read by hand (see the Python dumps in the report).
@Suite(
  "Compiled nib tables: known files",
  .enabled(if: CompiledNibCorpus.isAvailable, Comment(rawValue: CompiledNibCorpus.absentMessage)))
struct CompiledNibKnownFileTests {
  static let mainWindow = "nib/nskeyedunarchiver/MainWindow.nib"
  static let stackView =
    "nib/appium-ios-uicatalog/2019/Base.lproj/StackViewController.storyboardc/K8w-Uq-R9J-view-Hwb-09-b4P.nib"
  static let windowController =
    "nib/viraptor-ibtool/correct/sb_imagecell_style.out/NSWindowController-wc1-00-040.nib"
  static let updateAlert = "nib/hexfiend-sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib"

  static func table(_ name: String) throws -> ObjectTable {
    let file = try CompiledNibCorpus.file(name)
    return try NibReader.objectTable(from: try Data(contentsOf: file.url), fileName: file.name)
  }

  @Test("NIBA-040, NIBA-042, NIBA-045: the pre-iOS-6 MainWindow.nib maps to placeholders, swapped classes and outlets")
  func mainWindowTable() throws {
    let table = try Self.table(Self.mainWindow)
    #expect(table.platform == .uiKit)
    // `$objects` indexes: 2 and 5 are proxies, 7 and 11 class swappers, 14 the window, 17 its colour.
    #expect(table.objects.map(\.id) == ["2", "5", "7", "11", "14", "17"])
    #expect(try table.record("2").placeholder == .filesOwner)
    #expect(try table.record("5").placeholder == .firstResponder)
    let delegate = try table.record("7")
    #expect(delegate.className == "CassiusAppDelegate")
    #expect(delegate.baseClassName == "UICustomObject")
    #expect(delegate.elementName == "UIClassSwapper")
    #expect(delegate.fields.isEmpty, "UIClassName and UIOriginalClassName are consumed")
    let controller = try table.record("11")
    #expect(controller.className == "CassiusViewController")
    #expect(controller.baseClassName == "UIViewController")
    #expect(controller.field("UINibName") == .string("CassiusViewController"))
    #expect(controller.field("UIWantsFullScreenLayout") == .bool(true))
    let window = try table.record("14")
    #expect(window.className == "UIWindow")
    #expect(window.baseClassName == "UIView", "the first superclass in $classes")
    #expect(window.field("UIBounds") == .string("{{0, 0}, {320, 480}}"))
    #expect(window.field("UICenter") == .string("{160, 240}"))
    #expect(window.field("UIAutoresizingMask") == .integer(36))
    #expect(window.field("UIHidden") == .bool(true))
    let colorIndex = try #require(table.index(ofID: "17"))
    #expect(window.field("UIBackgroundColor") == .object(colorIndex))
    #expect(table.objects[colorIndex].field("UIRed") == .real(1))
    #expect(table.objects[colorIndex].field("UIColorComponentCount") == .integer(4))
    #expect(table.topLevel.map { table.objects[$0].id } == ["2", "5", "7", "11", "14"])
    #expect(table.visibleWindows.isEmpty)
    let outlets = table.connections.map {
      "\(table.objects[$0.source].id) \($0.label) \(table.id($0.destination) ?? "nil")"
    }
    #expect(outlets == ["7 window 14", "2 delegate 7", "7 viewController 11"])
    #expect(table.connections.allSatisfy { $0.kind == .outlet })
    #expect(table.warnings.isEmpty)
  }

  @Test("NIBA-042: the same keyed nib as an XML property list gives the same table")
  func xmlKeyedNib() throws {
    let file = try CompiledNibCorpus.file(Self.updateAlert)
    let binary = try Data(contentsOf: file.url)
    let xml = try PropertyListWriter.write(try PropertyListReader.read(binary), format: .xml)
    #expect(xml.starts(with: Array("<?xml".utf8)))
    let fromXML = try NibReader.objectTable(from: xml, fileName: file.name)
    let fromBinary = try NibReader.objectTable(from: binary, fileName: file.name)
    #expect(fromXML == fromBinary)
    #expect(fromXML.objects.count > 20)
  }

  @Test("NIBA-050: MainWindow.nib instantiates in pipeline order; the owner's outlet holds the app delegate")
  func mainWindowInstantiation() throws {
    let file = try CompiledNibCorpus.file(Self.mainWindow)
    let nib = Nib(data: try Data(contentsOf: file.url), name: file.name, registry: ClassRegistry())
    let owner = GenericNibObject(className: "UIApplication")
    var trace: [String] = []
    let instance = try nib.instantiateGraph(owner: owner, options: NibOptions(trace: { trace.append("\($0)") }))
    let decodes = trace.filter { $0.hasPrefix("decode ") }.map { $0.split(separator: " ")[1] }
    #expect(decodes == ["7", "11", "14", "17"])
    #expect(
      trace.filter { $0.hasPrefix("outlet ") } == [
        "outlet 7 window 14", "outlet 2 delegate 7", "outlet 7 viewController 11",
      ])
    #expect(trace.filter { $0.hasPrefix("awake ") } == ["awake 7", "awake 11", "awake 14", "awake 17"])
    let firstOutlet = try #require(trace.firstIndex { $0.hasPrefix("outlet ") })
    let lastDecode = try #require(trace.lastIndex { $0.hasPrefix("decode ") })
    #expect(lastDecode < firstOutlet)
    let delegate = try #require(owner.values["delegate"] as? GenericNibObject)
    #expect(delegate.className == "CassiusAppDelegate")
    #expect((delegate.values["window"] as? GenericNibObject)?.className == "UIWindow")
    #expect(instance.topLevelObjects.count == 3)
    #expect(instance.statistics.outlets == 3)
  }

  @Test("NIBA-043, NIBA-045, NIBA-047: a storyboard view nib has upstream placeholders and touch-up-inside actions")
  func storyboardViewNib() throws {
    let table = try Self.table(Self.stackView)
    #expect(try table.record("43").placeholder == .filesOwner)
    #expect(try table.record("113").placeholder == .firstResponder)
    #expect(try table.record("18").placeholder == .other("UpstreamPlaceholder-xCC-zZ-Kzf"))
    let actions = table.connections.filter { $0.kind == .action }
    #expect(actions.count == 4)
    #expect(actions.allSatisfy { $0.eventMask == 64 && $0.eventName == "touchUpInside" })
    #expect(actions.allSatisfy { table.id($0.destination) == "18" })
    let hide = try #require(actions.first { $0.label == "hideFurtherDetail:" })
    #expect(table.objects[hide.source].id == "33")
    #expect(table.objects[hide.source].className == "UIButton")
    #expect(hide.id == "13", "the connection object's index")
    let stack = try table.record("6")
    #expect(stack.className == "UIStackView")
    guard case .data(let bounds)? = stack.field("UIBounds") else {
      Issue.record("UIBounds is not data: \(String(describing: stack.field("UIBounds")))")
      return
    }
    #expect(bounds.first == 0x07, "the geometry type byte is kept")
    #expect(CompiledNibGeometry.numbers(from: bounds) == [0, 0, 343, 34])
    guard case .array(let subviews)? = stack.field("UISubviews") else {
      Issue.record("UISubviews is not an array")
      return
    }
    #expect(!subviews.isEmpty)
    #expect(subviews.allSatisfy { if case .object = $0 { true } else { false } })

    let run = try CompiledNibRun(data: try Data(contentsOf: try CompiledNibCorpus.file(Self.stackView).url), name: "sv")
    #expect(run.traceLines.contains("action 33 hideFurtherDetail: 18 touchUpInside"))
    #expect(run.instance.statistics.actions == 4)
  }

  @Test("NIBA-041, NIBA-043, NIBA-048: NIBArchive strings, numbers and inlined dictionaries fold into field values")
  func nibArchiveValues() throws {
    let folder = "nib/appium-ios-uicatalog/2019/Base.lproj/AlertControllerViewController.storyboardc/"
    let view = try Self.table(folder + "Va4-Ge-jQn-view-iro-ev-0xV.nib")
    #expect(try view.record("9").field("UIText") == .string("Simple"), "an NSLocalizableString's NS.bytes")
    #expect(try view.record("9").field("UITextAlignment") == .integer(0))
    #expect(
      try view.record("108").field("UIFontDescriptorAttributes")
        == .record(
          "NSMutableDictionary",
          [
            .init(key: "NSCTFontUIUsageAttribute", value: .string("CTFontRegularUsage")),
            .init(key: "NSFontSizeAttribute", value: .integer(18)),
          ]))
    #expect(view.objects.allSatisfy { !["NSString", "NSNumber", "NSLocalizableString"].contains($0.className) })

    let controller = try Self.table(folder + "UITableViewController-Va4-Ge-jQn.nib")
    let swapper = try controller.record("13")
    #expect(swapper.className == "_TtC12UIKitCatalog29AlertControllerViewController")
    #expect(swapper.baseClassName == "UITableViewController")
    let swapperIndex = try #require(controller.index(ofID: "13"))
    #expect(
      swapper.field("UIExternalObjectsTableForViewLoading")
        == .record("NSDictionary", [.init(key: "UpstreamPlaceholder-AjX-aW-5XK", value: .object(swapperIndex))]))
    #expect(try controller.record("11").placeholder == .other("UIStoryboardPlaceholder"))
    #expect(controller.objects.map(\.id) == ["13", "9", "6", "11", "8"], "UINibObjectsKey order")
  }

  @Test("NIBA-043, NIBA-046, NIBA-047: a macOS storyboard controller nib: swapper, placeholders, runtime attribute")
  func appKitWindowController() throws {
    let table = try Self.table(Self.windowController)
    #expect(table.platform == .appKit)
    let owner = try table.record("2")
    #expect(owner.placeholder == .filesOwner)
    #expect(owner.className == "NSObject")
    #expect(try table.record("27").placeholder == .other("NSStoryboardPlaceholder"))
    #expect(try table.record("33").placeholder == .other("NSStoryboardPlaceholder"))
    #expect(try table.record("39").placeholder == .application)
    let content = try table.record("18")
    #expect(content.className == "ImageCellVC")
    #expect(content.baseClassName == "NSViewController")
    #expect(content.elementName == "NSClassSwapper")
    #expect(content.field("NSNibName") == .string("vc1-00-040-view-vw1-00-040"))
    #expect(content.field("NSExternalObjectsTableForViewLoading") == .record("NSMutableDictionary", []))
    #expect(content.field("NSClassName") == nil)
    let template = try table.record("8")
    #expect(template.field("NSWindowRect") == .string("{{860, 465}, {200, 150}}"))
    #expect(template.field("NSWindowStyleMask") == .integer(3))
    #expect(template.field("NSViewClass") == .null)
    // NSRoot first, then the NSObjectsKeys children of NSRoot in stored order.
    #expect(table.topLevel.map { table.objects[$0].id } == ["2", "33", "7", "39", "27"])
    #expect(table.visibleWindows.isEmpty)
    let outlets = table.connections.map {
      "\(table.objects[$0.source].id) \($0.label) \(table.id($0.destination) ?? "nil")"
    }
    #expect(outlets == ["2 sceneController 7", "7 storyboard 27", "7 window 8", "18 storyboard 33"])
    let attribute = try #require(table.runtimeAttributes.first)
    #expect(table.runtimeAttributes.count == 1)
    #expect(table.objects[attribute.object].id == "8")
    #expect(attribute.keyPath == "contentViewController")
    #expect(attribute.value == .object(try #require(table.index(ofID: "18"))))
  }

  @Test(
    "NIBA-042, NIBA-046, NIBA-047: an IB-3 keyed nib: owner class, application, actions to the owner, bindings warned")
  func sparkleUpdateAlert() throws {
    let table = try Self.table(Self.updateAlert)
    #expect(table.platform == .appKit)
    let owner = try table.record("2")
    #expect(owner.placeholder == .filesOwner)
    #expect(owner.className == "SUUpdateAlert")
    #expect(try table.record("183").placeholder == .application)
    let actions = table.connections.filter { $0.kind == .action }
      .map { "\(table.objects[$0.source].id) \($0.label) \(table.id($0.destination) ?? "nil")" }
    #expect(actions == ["45 installUpdate: 2", "99 remindMeLater: 2", "104 skipThisVersion: 2"])
    #expect(table.connections.filter { $0.kind == .outlet }.count == 4)
    #expect(table.connections.allSatisfy { $0.eventMask == nil })
    let bindings = table.warnings.filter { $0.contains("bindings are not supported") }
    #expect(bindings.count == 8)
    #expect(
      bindings.contains {
        $0.contains("object #150 (NSNibBindingConnector)") && $0.contains("value: values.SUAutomaticallyUpdate")
      })
    #expect(
      table.warnings.allSatisfy { $0.hasPrefix("nib/hexfiend-sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib") })
    let button = try table.record("45")
    #expect(button.className == "NSButton")
  }
}
