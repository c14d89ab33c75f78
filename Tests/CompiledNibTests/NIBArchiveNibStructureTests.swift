import ArchiveCoding
import TestSupport
import Testing

@testable import CompiledNib

@Suite("NIBArchive nib structure")
struct NIBArchiveNibStructureTests {
  /// A UIKit nib: File's Owner and First Responder proxies, a view with a button, an outlet, an outlet collection,
  /// an event connection.
  static func uiKitNib(sourceValue: TestArchiveBuilder.Value? = nil) -> [UInt8] {
    var b = TestArchiveBuilder()
    let nsObject = b.addClass("NSObject")
    let proxy = b.addClass("UIProxyObject")
    let view = b.addClass("UIView")
    let button = b.addClass("UIButton")
    let outlet = b.addClass("UIRuntimeOutletConnection")
    let collection = b.addClass("UIRuntimeOutletCollectionConnection")
    let event = b.addClass("UIRuntimeEventConnection")
    let customEvent = b.addClass("MyEventConnection", fallbacks: [UInt32(event)])
    // Object indices are assigned in order; the root refers forward.
    b.addObject(
      nsObject,
      [
        ("UINibTopLevelObjectsKey", .object(1)), ("UINibObjectsKey", .object(2)),
        ("UINibConnectionsKey", .object(3)), ("UINibVisibleWindowsKey", .null),
      ])  // 0
    _ = b.addArray([6, 7, 8])  // 1: top level: First Responder, File's Owner, view
    _ = b.addArray([6, 7, 8, 9])  // 2: all objects
    _ = b.addArray([10, 11, 12, 13])  // 3: connections
    _ = b.addString("IBFilesOwner")  // 4
    _ = b.addString("IBFirstResponder")  // 5
    b.addObject(proxy, [("UIProxiedObjectIdentifier", .object(5))])  // 6
    b.addObject(proxy, [("UIProxiedObjectIdentifier", .object(4))])  // 7
    b.addObject(view, [("UISubviews", .object(15))])  // 8
    b.addObject(button, [])  // 9
    b.addObject(
      outlet, [("UILabel", .object(14)), ("UISource", sourceValue ?? .object(7)), ("UIDestination", .object(8))])  // 10
    b.addObject(
      collection,
      [
        ("UILabel", .object(16)), ("UISource", .object(7)), ("UIDestination", .object(15)),
        ("runtimeCollectionClassName", .object(17)),
      ])  // 11
    b.addObject(
      event,
      [
        ("UILabel", .object(18)), ("UISource", .object(9)), ("UIDestination", .object(7)),
        ("UIEventMask", .int8(64)),
      ])  // 12
    b.addObject(customEvent, [("UILabel", .object(18)), ("UISource", .object(9)), ("UIDestination", .null)])  // 13
    _ = b.addString("view")  // 14
    _ = b.addArray([9])  // 15
    _ = b.addString("buttons")  // 16
    _ = b.addString("NSArray")  // 17
    _ = b.addString("tapped:")  // 18
    return b.bytes()
  }

  @Test("NIBA-024, NIBA-027: a UIKit root lists top-level objects, objects and File's Owner")
  func uiKitStructure() throws {
    let document = try NIBArchiveDocument(bytes: Self.uiKitNib())
    let nib = try document.nibStructure()
    #expect(nib.flavor == .uiKit)
    #expect(nib.rootObjectIndex == 0)
    #expect(nib.objectDataIndex == nil)
    #expect(nib.topLevelObjects == [6, 7, 8])
    #expect(nib.objects == [6, 7, 8, 9])
    #expect(nib.visibleWindows == [])
    #expect(nib.filesOwner == 7)
  }

  @Test("NIBA-025, NIBA-026: UIKit connection records carry kind, source, destination, label and event mask")
  func uiKitConnections() throws {
    let nib = try NIBArchiveDocument(bytes: Self.uiKitNib()).nibStructure()
    #expect(
      nib.connections == [
        NIBArchiveConnection(
          kind: .outlet, objectIndex: 10, className: "UIRuntimeOutletConnection", source: 7, destination: 8,
          label: "view", eventMask: nil),
        NIBArchiveConnection(
          kind: .outletCollection, objectIndex: 11, className: "UIRuntimeOutletCollectionConnection", source: 7,
          destination: 15, label: "buttons", eventMask: nil),
        NIBArchiveConnection(
          kind: .action, objectIndex: 12, className: "UIRuntimeEventConnection", source: 9, destination: 7,
          label: "tapped:", eventMask: 64),
        NIBArchiveConnection(
          kind: .action, objectIndex: 13, className: "MyEventConnection", source: 9, destination: nil,
          label: "tapped:", eventMask: nil),
      ])
    #expect(nib.connectionCount(of: .action) == 2)
    #expect(nib.connectionCount(of: .outlet) == 1)
    #expect(nib.connectionCount(of: .binding) == 0)
  }

  @Test("NIBA-026: a connection key of the wrong type is a type mismatch naming object and key")
  func connectionTypeMismatch() throws {
    let document = try NIBArchiveDocument(bytes: Self.uiKitNib(sourceValue: .double(1)))
    let error = try #require(throws: ArchiveError.self) { try document.nibStructure() }
    #expect(error.code == .typeMismatch)
    #expect(error.location.objectIndex == 10)
    #expect(error.location.className == "UIRuntimeOutletConnection")
    #expect(error.location.keyPath == "UISource")
  }

  @Test("NIBA-024, NIBA-027: an AppKit root reads NSIBObjectData: owner, top level, connections")
  func appKitStructure() throws {
    var b = TestArchiveBuilder()
    let nsObject = b.addClass("NSObject")
    let objectData = b.addClass("NSIBObjectData")
    let custom = b.addClass("NSCustomObject")
    let window = b.addClass("NSWindowTemplate")
    let outlet = b.addClass("NSNibOutletConnector")
    let control = b.addClass("NSNibControlConnector")
    let binding = b.addClass("NSNibBindingConnector")
    let help = b.addClass("NSIBHelpConnector")
    b.addObject(nsObject, [("IB.objectdata", .object(1)), ("IB.systemFontUpdateVersion", .int8(1))])  // 0
    b.addObject(
      objectData,
      [
        ("NSRoot", .object(2)), ("NSVisibleWindows", .object(9)), ("NSConnections", .object(6)),
        ("NSObjectsKeys", .object(7)), ("NSObjectsValues", .object(8)),
      ])  // 1
    b.addObject(custom, [])  // 2: File's Owner
    b.addObject(custom, [])  // 3: First Responder
    b.addObject(window, [])  // 4
    b.addObject(custom, [])  // 5: a child of the window
    _ = b.addArray([10, 11, 12, 13], className: "NSMutableArray")  // 6
    _ = b.addArray([3, 4, 5])  // 7: NSObjectsKeys
    _ = b.addArray([2, 2, 4])  // 8: NSObjectsValues
    _ = b.addArray([4], className: "NSMutableSet")  // 9
    b.addObject(outlet, [("NSSource", .object(2)), ("NSDestination", .object(4)), ("NSLabel", .object(14))])  // 10
    b.addObject(control, [("NSSource", .object(5)), ("NSLabel", .object(15))])  // 11
    b.addObject(binding, [("NSSource", .object(5)), ("NSDestination", .object(2)), ("NSLabel", .object(15))])  // 12
    b.addObject(help, [("NSDestination", .object(5))])  // 13
    _ = b.addString("window")  // 14
    _ = b.addString("terminate:")  // 15
    let nib = try NIBArchiveDocument(bytes: b.bytes()).nibStructure()
    #expect(nib.flavor == .appKit)
    #expect(nib.objectDataIndex == 1)
    #expect(nib.filesOwner == 2)
    #expect(nib.objects == [3, 4, 5])
    #expect(nib.topLevelObjects == [3, 4])
    #expect(nib.visibleWindows == [4])
    #expect(nib.connections.map(\.kind) == [.outlet, .action, .binding, .other])
    #expect(nib.connections[0].label == "window")
    #expect(nib.connections[1].destination == nil)
    #expect(nib.connections[1].source == 5)
    #expect(nib.connections[3].source == nil)
    #expect(nib.connections[3].destination == 5)
  }

  @Test("NIBA-027: NSObjectsKeys and NSObjectsValues of different lengths are corrupt")
  func appKitParallelArrays() throws {
    var b = TestArchiveBuilder()
    let nsObject = b.addClass("NSObject")
    let objectData = b.addClass("NSIBObjectData")
    b.addObject(nsObject, [("IB.objectdata", .object(1))])
    b.addObject(objectData, [("NSRoot", .object(0)), ("NSObjectsKeys", .object(2)), ("NSObjectsValues", .object(3))])
    _ = b.addArray([0, 1])
    _ = b.addArray([0])
    let error = try #require(throws: ArchiveError.self) { try NIBArchiveDocument(bytes: b.bytes()).nibStructure() }
    #expect(error.code == .corruptData)
    #expect(error.location.objectIndex == 1)
  }

  @Test("NIBA-024: a root with neither UIKit nor AppKit keys is unsupported")
  func unknownRoot() throws {
    let error = try #require(throws: ArchiveError.self) {
      try NIBArchiveDocument(bytes: minimalArchive).nibStructure()
    }
    #expect(error.code == .unsupportedFormat)
    #expect(error.message.contains("\"k\""), "\(error)")
  }

  @Test("NIBA-024: a root list key that is not a reference is a type mismatch")
  func rootKeyMismatch() throws {
    var b = TestArchiveBuilder()
    let nsObject = b.addClass("NSObject")
    b.addObject(nsObject, [("UINibTopLevelObjectsKey", .int32(4))])
    let error = try #require(throws: ArchiveError.self) { try NIBArchiveDocument(bytes: b.bytes()).nibStructure() }
    #expect(error.code == .typeMismatch)
    #expect(error.location.keyPath == "UINibTopLevelObjectsKey")
  }

  @Test(
    "NIBA-015, NIBA-025: repeated references to large objects do not multiply the work",
    .timeLimit(.minutes(1)))
  func repeatedLargeObjects() throws {
    let width = 40_000
    var b = TestArchiveBuilder()
    let nsObject = b.addClass("NSObject")
    let outlet = b.addClass("UIRuntimeOutletConnection")
    let proxy = b.addClass("UIProxyObject")
    b.addObject(nsObject, [("UINibConnectionsKey", .object(1)), ("UINibTopLevelObjectsKey", .object(2))])  // 0
    // The connections list names object 3 `width` times, then objects 5..<5+width once each.
    _ = b.addArray(Array(repeating: 3, count: width) + Array(5..<(5 + width)))  // 1
    _ = b.addArray(Array(repeating: 5 + width, count: width))  // 2: the same proxy, `width` times
    // Object 3: `width` filler entries before its keys, so every lookup in it scans them all.
    b.addObject(
      outlet,
      Array(repeating: ("filler", TestArchiveBuilder.Value.null), count: width) + [("UILabel", .object(4))])  // 3
    // Object 4: a string whose NS.bytes comes after `width` filler entries.
    let stringClass = b.addClass("NSString")
    b.addObject(
      stringClass,
      Array(repeating: ("filler", TestArchiveBuilder.Value.null), count: width) + [("NS.bytes", .data(Array("v".utf8)))]
    )  // 4
    for _ in 0..<width { b.addObject(outlet, [("UILabel", .object(4))]) }  // 5..<5+width
    b.addObject(
      proxy,
      Array(repeating: ("filler", TestArchiveBuilder.Value.null), count: width) + [
        ("UIProxiedObjectIdentifier", .object(4))
      ])  // 5+width: a proxy, but not the File's Owner
    let document = try NIBArchiveDocument(bytes: b.bytes())
    let nib = try document.nibStructure()
    #expect(nib.connections.count == 2 * width)
    #expect(nib.connections.allSatisfy { $0.label == "v" && $0.kind == .outlet })
    #expect(nib.topLevelObjects.count == width)
    #expect(nib.filesOwner == nil)
  }
}
