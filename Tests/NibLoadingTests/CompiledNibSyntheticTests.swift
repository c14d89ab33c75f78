import ArchiveCoding
import Foundation
import PropertyList
import Testing

@testable import NibLoading

/// Structures no corpus file has, built as keyed-archive nibs object by object.
@Suite("Compiled nib tables: built archives")
struct CompiledNibSyntheticTests {
  static func table(_ data: Data) throws -> ObjectTable {
    try NibReader.objectTable(from: data, fileName: "built.nib")
  }

  static func run(_ data: Data) throws -> CompiledNibRun { try CompiledNibRun(data: data, name: "built.nib") }

  static func error(_ data: Data) -> ArchiveError? {
    do {
      _ = try table(data)
      return nil
    } catch {
      return error as? ArchiveError
    }
  }

  // MARK: Connections

  @Test("NIBA-047: an outlet collection gives one record per element; instantiation collects them in order")
  func outletCollection() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    let first = builder.object(["UILabel", "UIView", "NSObject"])
    let second = builder.object(["UILabel", "UIView", "NSObject"])
    let members = builder.array([first, .uid(0), second])
    let collection = builder.connection(
      "UIRuntimeOutletCollectionConnection", source: owner, destination: members, label: "labels",
      extra: [("runtimeCollectionClassName", builder.string("NSArray"))])
    let data = builder.uiKitNib(
      objects: [owner, first, second], topLevel: [owner, first, second], connections: [collection])
    let table = try Self.table(data)
    let records = table.connections.map {
      "\($0.kind.rawValue) \(table.objects[$0.source].id) \($0.label) \(table.id($0.destination) ?? "nil")"
    }
    let (ownerID, firstID, secondID) = (Self.index(owner), Self.index(first), Self.index(second))
    #expect(
      records == ["outletCollection \(ownerID) labels \(firstID)", "outletCollection \(ownerID) labels \(secondID)"])

    let ownerObject = GenericNibObject(className: "Owner")
    let instance = try Nib(data: data, name: "built.nib", registry: ClassRegistry()).instantiateGraph(
      owner: ownerObject)
    #expect(instance.statistics.outletCollections == 2)
    let collected = try #require(ownerObject.values["labels"] as? [Any])
    #expect(collected.count == 2)
    #expect(collected.first as AnyObject? === instance.objectsByID[String(firstID)])
    #expect(collected.last as AnyObject? === instance.objectsByID[String(secondID)])
  }

  @Test(
    "NIBA-047: event masks name their events",
    arguments: [
      (UInt64(64), "touchUpInside"), (4096, "valueChanged"), (65, "touchDown|touchUpInside"),
      (1 << 19, "editingDidEndOnExit"),
      (1 << 30, nil), (0, nil),
    ] as [(UInt64, String?)])
  func eventNames(mask: UInt64, name: String?) throws {
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    let button = builder.object(["UIButton", "UIControl", "UIView", "NSObject"])
    let action = builder.connection(
      "UIRuntimeEventConnection", source: button, destination: owner, label: "tap:",
      extra: [("UIEventMask", .integer(Int64(mask)))])
    let table = try Self.table(
      builder.uiKitNib(objects: [owner, button], topLevel: [owner, button], connections: [action]))
    let record = try #require(table.connections.first)
    #expect(record.kind == .action)
    #expect(record.eventMask == mask)
    #expect(record.eventName == name)
  }

  @Test("NIBA-047: a segue template in the connection list is a segue; its kind comes from the class name")
  func segueTemplate() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    let controller = builder.object(["UIViewController", "UIResponder", "NSObject"])
    let destination = builder.object(["UIViewController", "UIResponder", "NSObject"])
    let identifier = builder.string("showDetail")
    let segue = builder.object(
      ["UIStoryboardShowSegueTemplate", "UIStoryboardSegueTemplate", "NSObject"],
      ["UISource": controller, "UIDestination": destination, "UIIdentifier": identifier])
    let data = builder.uiKitNib(
      objects: [owner, controller, destination], topLevel: [owner, controller], connections: [segue])
    let table = try Self.table(data)
    let record = try #require(table.connections.first)
    #expect(record.kind == .segue)
    #expect(record.id == "showDetail")
    #expect(record.label == "showDetail")
    #expect(record.eventName == "show")
    #expect(table.objects[record.source].id == String(Self.index(controller)))
    let run = try Self.run(data)
    #expect(run.instance.statistics.segues == 1)
    #expect(run.traceLines.contains("segue \(Self.index(controller)) showDetail \(Self.index(destination))"))
  }

  @Test("NIBA-047: segue kinds from class names")
  func segueKinds() {
    #expect(CompiledNibTableAssembler.segueKind("UIStoryboardShowSegueTemplate") == "show")
    #expect(CompiledNibTableAssembler.segueKind("UIStoryboardPresentationSegueTemplate") == "presentation")
    #expect(CompiledNibTableAssembler.segueKind("NSStoryboardModalSegue") == "modal")
    #expect(CompiledNibTableAssembler.segueKind("UIStoryboardSegueTemplate") == nil)
    #expect(CompiledNibTableAssembler.segueKind("MyCustomSegue") == "myCustom")
  }

  @Test("NIBA-047: bindings, help and unknown connectors are warnings; a plain NSNibConnector is silent")
  func ignoredConnectors() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.object(["NSCustomObject", "NSObject"], ["NSClassName": builder.string("Controller")])
    let field = builder.object(["NSTextField", "NSControl", "NSView", "NSObject"])
    let binding = builder.object(
      ["NSNibBindingConnector", "NSNibConnector", "NSObject"],
      ["NSSource": field, "NSDestination": owner, "NSLabel": builder.string("value: title")])
    let help = builder.object(["NSIBHelpConnector", "NSNibConnector", "NSObject"], ["NSDestination": field])
    let unknown = builder.object(["NSNibAXAttributeConnector", "NSNibConnector", "NSObject"], ["NSSource": field])
    let ordering = builder.object(["NSNibConnector", "NSObject"], ["NSSource": field, "NSLabel": builder.string("x")])
    let data = Self.appKitNib(
      &builder, root: owner, children: [(field, owner)], connections: [binding, help, unknown, ordering])
    let table = try Self.table(data)
    #expect(table.connections.isEmpty)
    #expect(table.warnings.count == 3)
    #expect(table.warnings[0].contains("binding \"value: title\""))
    #expect(table.warnings[1].contains("NSIBHelpConnector"))
    #expect(table.warnings[2].contains("unknown connection class NSNibAXAttributeConnector"))
  }

  @Test("NIBA-047: connections without a source or a name, or to a non-object, are dropped with a warning")
  func malformedConnections() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    let view = builder.object(["UIView", "UIResponder", "NSObject"])
    let text = builder.string("not an object")
    let noSource = builder.object(
      ["UIRuntimeOutletConnection", "UIRuntimeConnection", "NSObject"],
      ["UIDestination": view, "UILabel": builder.string("view")])
    let noLabel = builder.object(
      ["UIRuntimeOutletConnection", "UIRuntimeConnection", "NSObject"], ["UISource": owner, "UIDestination": view])
    let toString = builder.connection("UIRuntimeOutletConnection", source: owner, destination: text, label: "name")
    let good = builder.connection("UIRuntimeOutletConnection", source: owner, destination: view, label: "view")
    let table = try Self.table(
      builder.uiKitNib(
        objects: [owner, view], topLevel: [owner, view], connections: [noSource, noLabel, toString, good]))
    #expect(table.connections.map(\.label) == ["view"])
    #expect(table.warnings.count == 3)
    #expect(table.warnings.allSatisfy { $0.hasPrefix("built.nib, object #") })
  }

  @Test("NIBA-045: UINibKeyValuePair records are runtime attributes; an object value joins the table")
  func keyValuePairs() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    let view = builder.object(["UIView", "UIResponder", "NSObject"])
    let color = builder.object(["UIColor", "NSObject"], ["UIWhite": .real(0.5)])
    let pair = builder.object(
      ["UINibKeyValuePair", "NSObject"],
      ["UIObject": view, "UIKeyPath": builder.string("layer.borderColor"), "UIValue": color])
    let number = builder.object(
      ["UINibKeyValuePair", "NSObject"],
      ["UIObject": view, "UIKeyPath": builder.string("tag"), "UIValue": .integer(7)])
    let data = builder.uiKitNib(objects: [owner, view], topLevel: [owner, view], keyValuePairs: [pair, number])
    let table = try Self.table(data)
    #expect(table.runtimeAttributes.count == 2)
    let colorIndex = try #require(table.index(ofID: String(Self.index(color))), "the colour is an object of the table")
    #expect(table.objects[colorIndex].className == "UIColor")
    #expect(table.runtimeAttributes[0].value == .object(colorIndex))
    #expect(table.runtimeAttributes[0].keyPath == "layer.borderColor")
    #expect(table.runtimeAttributes[1].value == .integer(7))
    #expect(table.objects.allSatisfy { $0.className != "UINibKeyValuePair" }, "wiring records are not objects")
    let run = try Self.run(data)
    let viewObject = try #require(run.instance.objectsByID[String(Self.index(view))] as? GenericNibObject)
    #expect(viewObject.values["tag"] as? Int == 7)
  }

  // MARK: Values

  @Test("NIBA-041, NIBA-042, NIBA-048: Foundation objects fold into values; dictionaries become records or pairs")
  func foundationValues() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    let mutableString = builder.object(
      ["NSMutableString", "NSString", "NSObject"], ["NS.string": builder.string("hi")])
    let bytesString = builder.object(["NSString", "NSObject"], ["NS.bytes": .data(Data("héllo".utf8))])
    let mutableData = builder.object(["NSMutableData", "NSData", "NSObject"], ["NS.data": .data(Data([1, 2]))])
    let oldStyle = builder.object(
      ["NSOrderedSet", "NSObject"], ["NS.object.0": .integer(1), "NS.object.1": .integer(2)])
    let child = builder.object(["UIView", "NSObject"])
    let record = builder.object(
      ["NSDictionary", "NSObject"],
      ["NS.keys": .array([builder.string("a"), builder.string("b")]), "NS.objects": .array([.integer(1), child])])
    let pairs = builder.object(
      ["NSMutableDictionary", "NSDictionary", "NSObject"],
      ["NS.keys": .array([.integer(3)]), "NS.objects": .array([builder.string("three")])])
    let null = builder.object(["NSNull", "NSObject"])
    let view = builder.object(
      ["UIView", "UIResponder", "NSObject"],
      [
        "text": mutableString, "accent": bytesString, "blob": mutableData, "order": oldStyle, "info": record,
        "numbers": pairs, "nothing": null, "missing": .uid(0), "$$escaped": .bool(false), "real": .real(2.5),
      ])
    let table = try Self.table(builder.uiKitNib(objects: [owner, view], topLevel: [owner, view]))
    let viewRecord = try table.record(String(Self.index(view)))
    #expect(viewRecord.field("text") == .string("hi"))
    #expect(viewRecord.field("accent") == .string("héllo"))
    #expect(viewRecord.field("blob") == .data(Data([1, 2])))
    #expect(viewRecord.field("order") == .array([.integer(1), .integer(2)]))
    let childIndex = try #require(table.index(ofID: String(Self.index(child))), "reached through the dictionary")
    #expect(
      viewRecord.field("info")
        == .record("NSDictionary", [.init(key: "a", value: .integer(1)), .init(key: "b", value: .object(childIndex))]))
    #expect(viewRecord.field("numbers") == .array([.array([.integer(3), .string("three")])]))
    #expect(viewRecord.field("nothing") == .null)
    #expect(viewRecord.field("missing") == .null)
    #expect(viewRecord.field("$escaped") == .bool(false))
    #expect(viewRecord.field("real") == .real(2.5))
    #expect(table.objects.count == 3, "owner, view, and the child reached through the dictionary")
  }

  @Test("NIBA-040, NIBA-048: object cycles are references; a collection containing itself is cut with a warning")
  func cycles() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    let superview = builder.reserve()
    let subview = builder.object(["UIView", "NSObject"], ["UISuperview": KeyedNibBuilder.uid(superview)])
    let loopIndex = builder.reserve()
    builder.fill(
      loopIndex, classes: ["NSMutableArray", "NSArray", "NSObject"],
      ["NS.objects": .array([.integer(1), KeyedNibBuilder.uid(loopIndex)])])
    builder.fill(
      superview, classes: ["UIView", "NSObject"],
      ["UISubviews": builder.array([subview]), "loop": KeyedNibBuilder.uid(loopIndex)])
    let data = builder.uiKitNib(
      objects: [owner, KeyedNibBuilder.uid(superview)], topLevel: [owner, KeyedNibBuilder.uid(superview)])
    let table = try Self.table(data)
    let top = try table.record(String(superview))
    let subIndex = try #require(table.index(ofID: String(Self.index(subview))))
    #expect(top.field("UISubviews") == .array([.object(subIndex)]))
    #expect(table.objects[subIndex].field("UISuperview") == .object(try #require(table.index(ofID: String(superview)))))
    #expect(top.field("loop") == .array([.integer(1), .null]))
    #expect(table.warnings.contains { $0.contains("contains itself") })
    #expect(try Self.run(data).instance.statistics.objects == 2)
  }

  @Test("NIBA-048: nesting deeper than the limit is limitExceeded")
  func deepNesting() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    var inner = builder.array([.integer(0)])
    for _ in 0..<300 { inner = builder.array([inner]) }
    let view = builder.object(["UIView", "NSObject"], ["deep": inner])
    let error = try #require(Self.error(builder.uiKitNib(objects: [owner, view], topLevel: [owner, view])))
    #expect(error.code == .limitExceeded)
    #expect(error.location.keyPath == "deep")
  }

  @Test("NIBA-048: shared collections that expand exponentially are limitExceeded, quickly")
  func exponentialSharing() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    var level = builder.array([.integer(0), .integer(1)])
    for _ in 0..<40 { level = builder.array([level, level]) }  // 2^41 values once expanded
    let view = builder.object(["UIView", "NSObject"], ["wide": level])
    let started = ContinuousClock.now
    let error = try #require(Self.error(builder.uiKitNib(objects: [owner, view], topLevel: [owner, view])))
    #expect(error.code == .limitExceeded)
    #expect(ContinuousClock.now - started < .seconds(10))
  }

  @Test("NIBA-048: outlet collections sharing one large collection count against the limit, member by member")
  func sharedOutletCollections() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    let views = (0..<2_100).map { _ in builder.object(["UIView", "NSObject"]) }
    let members = builder.array(views)
    // 2,000 connections to the same 2,100 views: 4.2 million records, past the 4,194,304 the fields may hold.
    let connections = (0..<2_000).map { _ in
      builder.connection("UIRuntimeOutletCollectionConnection", source: owner, destination: members, label: "items")
    }
    let started = ContinuousClock.now
    let error = try #require(
      Self.error(builder.uiKitNib(objects: [owner] + views, topLevel: [owner], connections: connections)))
    #expect(error.code == .limitExceeded)
    #expect(error.location.className == "UIRuntimeOutletCollectionConnection")
    #expect(ContinuousClock.now - started < .seconds(60))
    // A hundred such connections (210,000 records) are fine.
    let fewer = Array(connections.prefix(100))
    let table = try Self.table(builder.uiKitNib(objects: [owner] + views, topLevel: [owner], connections: fewer))
    #expect(table.connections.count == 210_000)
  }

  @Test("NIBA-050: class names and connection labels longer than 1,024 bytes are limitExceeded (each use hashes one)")
  func longNamesRefused() throws {
    func nib(className: String, label: String) -> Data {
      var builder = KeyedNibBuilder()
      let owner = builder.proxy("IBFilesOwner")
      let view = builder.object([className, "UIView", "NSObject"])
      let outlet = builder.connection("UIRuntimeOutletConnection", source: owner, destination: view, label: label)
      return builder.uiKitNib(objects: [owner, view], topLevel: [owner, view], connections: [outlet])
    }
    let longest = String(repeating: "n", count: CompiledNibTableAssembler.maxNameLength)
    let table = try Self.table(nib(className: "V" + longest.dropFirst(), label: longest))
    #expect(table.connections.first?.label == longest)
    for (className, label, what) in [
      ("V" + longest, "view", "class name"), ("View", longest + "x", "connection label"),
    ] {
      let error = try #require(Self.error(nib(className: className, label: label)))
      #expect(error.code == .limitExceeded)
      #expect(error.message.contains("a \(what) of 1025 bytes"), "\(error.message)")
    }
    // A connection object's own class name, and a placeholder's identifier.
    var builder = KeyedNibBuilder()
    let owner = builder.proxy("IBFilesOwner")
    let view = builder.object(["UIView", "NSObject"])
    let odd = builder.connection("X" + longest, source: owner, destination: view, label: "outlet")
    let connectionClass = try #require(
      Self.error(builder.uiKitNib(objects: [owner, view], topLevel: [owner, view], connections: [odd])))
    #expect(connectionClass.message.contains("a class name of 1025 bytes"), "\(connectionClass.message)")
    var proxies = KeyedNibBuilder()
    let proxy = proxies.proxy("P" + longest)
    let placeholder = try #require(Self.error(proxies.uiKitNib(objects: [proxy], topLevel: [proxy])))
    #expect(placeholder.message.contains("a placeholder identifier of 1025 bytes"), "\(placeholder.message)")
  }

  // MARK: AppKit

  static func appKitNib(
    _ builder: inout KeyedNibBuilder, root: PropertyListValue, children: [(PropertyListValue, PropertyListValue)],
    connections: [PropertyListValue], windows: [PropertyListValue] = [], parents: [PropertyListValue]? = nil
  ) -> Data {
    let keys = builder.array(children.map(\.0))
    let values = builder.array(parents ?? children.map(\.1))
    let connectionList = builder.array(connections, className: "NSMutableArray")
    let windowSet = builder.array(windows, className: "NSMutableSet")
    let objectData = builder.object(
      ["NSIBObjectData", "NSObject"],
      [
        "NSRoot": root, "NSObjectsKeys": keys, "NSObjectsValues": values, "NSConnections": connectionList,
        "NSVisibleWindows": windowSet,
      ])
    return builder.data(top: [("IB.objectdata", objectData)])
  }

  static func index(_ reference: PropertyListValue) -> Int {
    if case .uid(let raw) = reference { return Int(raw) }
    return -1
  }

  @Test("NIBA-046, NIBA-047: AppKit placeholders, custom objects, nil-target actions and top-level objects")
  func appKitStructure() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.object(["NSCustomObject", "NSObject"], ["NSClassName": builder.string("NSApplication")])
    let responder = builder.object(["NSCustomObject", "NSObject"], ["NSClassName": builder.string("FirstResponder")])
    let reference = builder.object(["IBClassReference", "NSObject"], ["IBClassName": builder.string("NSApplication")])
    let application = builder.object(
      ["NSCustomObject", "NSObject"], ["NSClassName": builder.string("MyApplication"), "IBClassReference": reference])
    let delegateReference = builder.object(
      ["IBClassReference", "NSObject"], ["IBClassName": builder.string("AppDelegate")])
    let delegate = builder.object(
      ["NSCustomObject", "NSObject"],
      ["NSClassName": builder.string("AppDelegate"), "IBClassReference": delegateReference])
    let external = builder.object(
      ["NSNibExternalObjectPlaceholder", "NSObject"], ["NSExternalObjectPlaceholderIdentifier": builder.string("Model")]
    )
    let window = builder.object(
      ["NSWindowTemplate", "NSObject"], ["NSWindowRect": builder.string("{{0, 0}, {480, 270}}")])
    let item = builder.object(["NSMenuItem", "NSObject"])
    let swapped = builder.object(
      ["NSClassSwapper", "NSObject"],
      [
        "NSClassName": builder.string("FancyView"), "NSOriginalClassName": builder.string("NSView"),
        "NSvFlags": .integer(256),
      ])
    let quit = builder.object(
      ["NSNibControlConnector", "NSNibConnector", "NSObject"],
      ["NSSource": item, "NSLabel": builder.string("terminate:")])
    let outlet = builder.object(
      ["NSNibOutletConnector", "NSNibConnector", "NSObject"],
      ["NSSource": owner, "NSDestination": delegate, "NSLabel": builder.string("delegate")])
    let data = Self.appKitNib(
      &builder, root: owner,
      children: [
        (responder, owner), (application, owner), (delegate, owner), (external, owner), (window, owner), (item, window),
        (swapped, window),
      ],
      connections: [quit, outlet], windows: [window])
    let table = try Self.table(data)
    #expect(table.platform == .appKit)
    func record(_ reference: PropertyListValue) throws -> ObjectRecord {
      try table.record(String(Self.index(reference)))
    }
    #expect(try record(owner).placeholder == .filesOwner)
    #expect(try record(owner).className == "NSApplication")
    #expect(try record(responder).placeholder == .firstResponder)
    #expect(try record(application).placeholder == .application, "an IBClassReference naming NSApplication")
    #expect(try record(external).placeholder == .external("Model"))
    let delegateRecord = try record(delegate)
    #expect(delegateRecord.placeholder == nil)
    #expect(delegateRecord.className == "AppDelegate")
    #expect(delegateRecord.baseClassName == "NSObject")
    #expect(delegateRecord.fields.isEmpty, "NSClassName and IBClassReference are consumed")
    #expect(try record(swapped).className == "FancyView")
    #expect(try record(swapped).baseClassName == "NSView")
    #expect(try record(swapped).fields == [ObjectField(key: "NSvFlags", value: .integer(256))])
    #expect(
      table.objects.allSatisfy { $0.className != "IBClassReference" },
      "placeholders and custom objects keep no class reference")
    #expect(
      table.topLevel.map { table.objects[$0].id }
        == [owner, responder, application, delegate, external, window].map { String(Self.index($0)) })
    #expect(table.visibleWindows.map { table.objects[$0].id } == [String(Self.index(window))])
    let action = try #require(table.connections.first)
    #expect(action.kind == .action)
    #expect(action.destination == nil, "no NSDestination: the responder chain")
    #expect(action.label == "terminate:")
    #expect(table.connections.count == 2)

    let run = try CompiledNibRun(data: data, name: "built.nib")
    #expect(run.traceLines.contains("action \(Self.index(item)) terminate: nil"))
    #expect(run.instance.statistics.placeholders == 4)
  }

  @Test("NIBA-046: NSObjectsKeys and NSObjectsValues of different lengths are corrupt")
  func parallelArrays() throws {
    var builder = KeyedNibBuilder()
    let owner = builder.object(["NSCustomObject", "NSObject"], ["NSClassName": builder.string("Owner")])
    let view = builder.object(["NSView", "NSObject"])
    let data = Self.appKitNib(
      &builder, root: owner, children: [(view, owner)], connections: [], parents: [owner, owner])
    let error = try #require(Self.error(data))
    #expect(error.code == .corruptData)
    #expect(error.location.file == "built.nib")
  }

  // MARK: Container errors

  @Test("NIBA-042, NIBA-044: container and root errors", arguments: ContainerCase.allCases)
  func containerErrors(_ kind: ContainerCase) throws {
    let error = try #require(Self.error(kind.data))
    #expect(error.code == kind.code, "\(error)")
    #expect(error.location.file == "built.nib")
  }

  enum ContainerCase: CaseIterable {
    case wrongArchiver, wrongVersion, noObjects, uidPastObjects, classNotDescription, rootWithoutNibKeys,
      listNotCollection

    var code: ArchiveError.Code {
      switch self {
      case .wrongArchiver, .wrongVersion, .rootWithoutNibKeys: .unsupportedFormat
      case .noObjects, .uidPastObjects, .classNotDescription: .corruptData
      case .listNotCollection: .typeMismatch
      }
    }

    var data: Data {
      var builder = KeyedNibBuilder()
      func archive(_ entries: [(String, PropertyListValue)]) -> Data {
        BinaryPropertyListWriter.write(.dictionary(PropertyListDictionary(entries.map { (.string($0.0), $0.1) })))
      }
      switch self {
      case .wrongArchiver:
        return archive([("$archiver", "NSArchiver"), ("$version", 100_000), ("$top", [:]), ("$objects", ["$null"])])
      case .wrongVersion:
        return archive([("$archiver", "NSKeyedArchiver"), ("$version", 7), ("$top", [:]), ("$objects", ["$null"])])
      case .noObjects:
        return archive([("$archiver", "NSKeyedArchiver"), ("$version", 100_000), ("$top", [:])])
      case .uidPastObjects:
        let view = builder.object(["UIView", "NSObject"], ["next": .uid(999)])
        return builder.uiKitNib(objects: [view], topLevel: [])
      case .classNotDescription:
        let text = builder.string("not a class")
        let broken = builder.reserve()
        builder.replace(broken, with: .dictionary(PropertyListDictionary([(.string("$class"), text)])))
        return builder.uiKitNib(objects: [KeyedNibBuilder.uid(broken)], topLevel: [])
      case .rootWithoutNibKeys:
        let text = builder.string("hello")
        return builder.data(top: [("root", text)])
      case .listNotCollection:
        let text = builder.string("not a list")
        return builder.data(top: [("UINibObjectsKey", text)])
      }
    }
  }
}
