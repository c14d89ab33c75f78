import ArchiveCoding
import ArchiveTesting
import Foundation
import PropertyList
import Testing

@testable import KeyedArchive

/// The real-world archives of `../shared/corpus/archives` (Apple-produced, or hand-edited negatives), with the
/// values their MANIFEST and source repositories state.
@Suite("Corpus archives", .enabled(if: ArchiveCorpus.isPresent, "../shared/corpus is absent: corpus tests skipped"))
struct CorpusArchiveTests {
  init() { registerTestClasses }

  static func root(_ name: String, generic: Bool = false) throws -> Any? {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: try ArchiveCorpus.data(name), requiringSecureCoding: false)
    unarchiver.registry = corpusRegistry
    unarchiver.decodesUnknownClassesGenerically = generic
    return try unarchiver.decodeObject(forKey: "root", allowedClasses: nil)
  }

  /// The raw `$objects` and `$top` of an archive, for checks on its layout.
  static func raw(_ name: String) throws -> (objects: [PropertyListValue], top: PropertyListDictionary) {
    let plist = try PropertyListReader.read(try ArchiveCorpus.data(name))
    let top = try #require(plist.dictionaryValue)
    let objects = try #require(top["$objects"]?.arrayValue)
    let scope = try #require(top["$top"]?.dictionaryValue)
    return (objects, scope)
  }

  @Test("ARC-040: the manifest lists the corpus (40 valid and 11 negative archives)")
  func manifest() {
    #expect(ArchiveCorpus.valid.count >= 40)
    #expect(ArchiveCorpus.negative.count >= 11)
  }

  @Test("ARC-040: every valid corpus archive decodes completely", arguments: ArchiveCorpus.valid)
  func validDecodes(file: String) throws {
    let top = try ArchiveCorpus.decodeEverything(try ArchiveCorpus.data(file))
    #expect(!top.isEmpty)
  }

  @Test("ARC-040: every negative corpus archive is rejected with an ArchiveError", arguments: ArchiveCorpus.negative)
  func negativeRejected(file: String) throws {
    let data = try ArchiveCorpus.data(file)
    #expect(throws: ArchiveError.self) { _ = try ArchiveCorpus.decodeEverything(data) }
  }

  @Test(
    "ARC-020: each negative archive fails for the reason its MANIFEST states",
    arguments: [
      ("goios__missing_archiver.xml", "$archiver"), ("goios__missing_objects.xml", "$objects"),
      ("goios__missing_version.xml", "$version"), ("goios__wrong_version.xml", "$version"),
      ("bpylist__invalid_type_archive.plist", "$archiver"), ("bpylist__invalid_version_archive.plist", "$version"),
      ("bpylist__no_objects_archive.plist", "$objects"), ("bpylist__no_top_archive.plist", "$top"),
    ])
  func negativeReasons(file: String, key: String) throws {
    let data = try ArchiveCorpus.data(file)
    do {
      _ = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
      Issue.record("\(file) was accepted")
    } catch let error as ArchiveError {
      #expect(error.description.contains(key), "\(error)")
    }
  }

  @Test("ARC-024: a $objects dictionary without $class, or a class description without $classname, is corrupt")
  func negativeStructure() throws {
    for (file, text) in [
      ("bpylist__missing_uid_archive.plist", "without $class"),
      ("bpylist__no_class_name_archive.plist", "no string $classname"),
    ] {
      do {
        _ = try Self.root(file, generic: true)
        Issue.record("\(file) was accepted")
      } catch let error as ArchiveError {
        #expect(error.code == .corruptData)
        #expect(error.description.contains(text), "\(error)")
        #expect(error.location.objectIndex == 1)
      }
    }
  }

  @Test("ARC-025: a malformed XML container is a located container error")
  func brokenPlist() throws {
    #expect(throws: ArchiveError.self) {
      _ = try KeyedUnarchiver(forReadingFrom: try ArchiveCorpus.data("goios__broken_plist.xml"))
    }
  }

  @Test("ARC-032: ComplexTest holds its UUID, relative URL, string and mixed array")
  func complex() throws {
    let root = try #require(try Self.root("corelibs__NSKeyedUnarchiver-ComplexTest.plist") as? [AnyHashable: Any])
    #expect(root["uuid"] as? UUID == UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22"))
    let url = try #require(root["url"] as? URL)
    #expect(url.relativeString == "index.xml")
    #expect(url.baseURL?.absoluteString == "https://www.swift.org")
    #expect(url.absoluteString == "https://www.swift.org/index.xml")
    #expect(root["string"] as? String == "hello")
    let array = try #require(root["array"] as? [Any])
    #expect(array.count == 4)
    #expect(array.first is NSNull)
    #expect(array[1] as? String == "hello")
    #expect(array[2] as? Int == 34545)
    #expect((array[3] as? [AnyHashable: Any])?["key"] as? String == "val")
  }

  @Test("ARC-030: ArrayTest decodes ['baa', 'baa', 'black', 'sheep'] with one shared entry for the repeated string")
  func array() throws {
    let root = try #require(try Self.root("corelibs__NSKeyedUnarchiver-ArrayTest.plist") as? [String])
    #expect(root == ["baa", "baa", "black", "sheep"])
    let (objects, top) = try Self.raw("corelibs__NSKeyedUnarchiver-ArrayTest.plist")
    let rootUID = try #require(top["root"]?.uidValue)
    let array = try #require(objects[Int(rootUID)].dictionaryValue)
    let uids = try #require(array["NS.objects"]?.arrayValue).compactMap(\.uidValue)
    #expect(uids.count == 4 && uids[0] == uids[1] && uids[1] != uids[2])
  }

  @Test("ARC-033: RectTest is the rectangle {{400, 300}, {200, 300}} and re-archives in Darwin's format")
  func rect() throws {
    let value = try #require(try Self.root("corelibs__NSKeyedUnarchiver-RectTest.plist") as? ArchivedValue)
    #expect(value == .rect(x: 400, y: 300, width: 200, height: 300))
    let (objects, _) = try Self.raw("corelibs__NSKeyedUnarchiver-RectTest.plist")
    #expect(objects.contains("{{400, 300}, {200, 300}}"))
    let again = try PropertyListReader.read(try KeyedArchiver.archivedData(withRootObject: value))
    #expect(again.dictionaryValue?["$objects"]?.arrayValue?.contains("{{400, 300}, {200, 300}}") == true)
  }

  @Test("ARC-033: RangeTest is the range {97345, 98345} (location and length stored as number objects)")
  func range() throws {
    let value = try Self.root("corelibs__NSKeyedUnarchiver-RangeTest.plist") as? ArchivedValue
    #expect(value == .range(location: 97345, length: 98345))
  }

  @Test("ARC-033: EdgeInsetsTest is the AppKit edge insets top 1, left 2, bottom 3, right 4")
  func edgeInsets() throws {
    let value = try Self.root("corelibs__NSKeyedUnarchiver-EdgeInsetsTest.plist") as? ArchivedValue
    #expect(value == .edgeInsets(top: 1, left: 2, bottom: 3, right: 4, special: 12))
  }

  @Test("ARC-032: UUIDTest and nsuuid.bin hold their UUIDs")
  func uuids() throws {
    #expect(
      try Self.root("corelibs__NSKeyedUnarchiver-UUIDTest.plist") as? UUID
        == UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
    #expect(try Self.root("goios__nsuuid.bin") as? UUID == UUID(uuidString: "54CD5574-E957-4499-8A09-DAB688C0B586"))
  }

  @Test("ARC-036: NotificationTest decodes to a Notification with its name, object and user info")
  func notification() throws {
    let note = try #require(try Self.root("corelibs__NSKeyedUnarchiver-NotificationTest.plist") as? Notification)
    #expect(note.name.rawValue == "notification-name")
    #expect(note.object as? String == "notification-object")
    #expect(note.userInfo?["notification-key"] as? String == "notification-val")
  }

  @Test(
    "ARC-026: primitives.bin and .xml hold $0…$11 as unkeyed top-level slots",
    arguments: ["goios__primitives.bin", "goios__primitives.xml"])
  func primitives(file: String) throws {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: try ArchiveCorpus.data(file), requiringSecureCoding: false)
    unarchiver.registry = corpusRegistry
    var values: [Any?] = []
    for _ in 0..<12 { values.append(try unarchiver.decodeObject()) }
    #expect(try unarchiver.decodeObject() == nil)  // no $12
    #expect(values[0] as? Int == 1)
    #expect(values[1] as? Int == 1)
    #expect(values[2] as? Double == 1.0)
    #expect(values[3] as? Double == 1.5)
    #expect(values[4] as? Data == Data("asdfasdfadsfadsf".utf8))
    #expect(values[5] as? Bool == true)
    for i in 6...8 { #expect(values[i] as? String == "Hello, World!") }
    #expect(values[9] as? Bool == false)
    #expect(values[10] as? Bool == false)
    #expect(values[11] as? Int == 42)
    #expect(values[0].map { type(of: $0) == Int.self } == true)
    #expect(values[5].map { type(of: $0) == Bool.self } == true)
    // Identity uniquing by Darwin: the equal numbers and the two `false` share an entry, the strings do not.
    let (_, top) = try Self.raw(file)
    let uid = { (key: String) in top[key]?.uidValue }
    #expect(uid("$0") == uid("$1"))
    #expect(uid("$9") == uid("$10"))
    #expect(Set([uid("$6"), uid("$7"), uid("$8")]).count == 3)
    // A user key "$0" is not the unkeyed slot $0.
    #expect(try unarchiver.decodeObject(forKey: "$0", allowedClasses: nil) == nil)
    #expect(try unarchiver.decodeObject(forStoredKey: "$0", allowedClasses: nil) as? Int == 1)
  }

  @Test("ARC-030: dict and nestedarrays hold their dictionaries, mutable arrays and sets", arguments: ["bin", "xml"])
  func goiosCollections(suffix: String) throws {
    let dictArchive = try KeyedUnarchiver(
      forReadingFrom: try ArchiveCorpus.data("goios__dict.\(suffix)"), requiringSecureCoding: false)
    let dict = try #require(try dictArchive.decodeObject() as? [String: Any])
    #expect(dict["int"] as? Int == 1)
    #expect(dict["string"] as? String == "string")
    let array = try #require(dict["array"] as? [Any])
    #expect(array.count == 3 && array[0] as? Bool == true && array[1] as? String == "Hello, World!")
    #expect(array[2] as? Int == 42)
    let nestedArchive = try KeyedUnarchiver(
      forReadingFrom: try ArchiveCorpus.data("goios__nestedarrays.\(suffix)"), requiringSecureCoding: false)
    let nested = try #require(try nestedArchive.decodeObject() as? [Any])
    #expect(nested.count == 2)
    #expect(nested[0] as? Set<AnyHashable> == [AnyHashable(true)])
    #expect(nested[1] as? Set<AnyHashable> == [AnyHashable(true), AnyHashable("Hello, World!"), AnyHashable(42)])
  }

  @Test("COD-034: the mutable array of dict.bin decodes as an NSMutableArray when that class is asked for")
  func mutableWhenAsked() throws {
    let unarchiver = try KeyedUnarchiver(
      forReadingFrom: try ArchiveCorpus.data("goios__dict.bin"), requiringSecureCoding: true)
    unarchiver.registry = corpusRegistry
    let allowed = ClassRegistry.shared.allowedClassNames(for: [
      NSDictionary.self, NSMutableArray.self, NSString.self, NSNumber.self,
    ])
    // The root is the unkeyed slot $0 (a user key "$0" would be stored as "$$0").
    let root = try #require(try unarchiver.decodeObject(forStoredKey: "$0", allowedClasses: allowed) as? [String: Any])
    #expect(root["array"] is NSMutableArray)
    #expect((root["array"] as? NSMutableArray)?.count == 3)
    #expect(root["string"] as? String == "string")
  }

  @Test("COD-024: Instruments and XCTest captures decode generically with their fields")
  func genericCaptures() throws {
    let tap = try #require(try Self.root("goios__DTSysmonTapMessage.bin", generic: true) as? ArchivedObject)
    #expect(tap.className == "DTSysmonTapMessage")
    guard case .object(let plist?)? = tap["DTTapMessagePlist"], let map = plist as? [String: Any] else {
      Issue.record("DTTapMessagePlist is not a dictionary")
      return
    }
    #expect(map["k"] as? Int == 0 && map["tv"] as? Int == 65536)

    let record = try #require(try Self.root("goios__XCActivityRecord.bin", generic: true) as? ArchivedObject)
    #expect(record.className == "XCActivityRecord")
    if case .object(let title?)? = record["title"] {
      #expect(title as? String == "Suite Set Up")
    } else {
      Issue.record("no title")
    }
    if case .object(let start?)? = record["start"] {
      #expect((start as? Date)?.timeIntervalSinceReferenceDate == 625945468.42794)
    } else {
      Issue.record("no start")
    }
    if case .object(let finish)? = record["finish"] { #expect(finish == nil) } else { Issue.record("no finish") }
    if case .object(let uuid?)? = record["uuid"] {
      #expect(uuid as? UUID == UUID(uuidString: "A8F5C718-D234-49B0-A891-136F94C41213"))
    } else {
      Issue.record("no uuid")
    }

    let identifier = try #require(try Self.root("goios__xctestidentifier.bin", generic: true) as? ArchivedObject)
    if case .object(let c?)? = identifier["c"] {
      #expect(c as? [String] == ["none", "none"])
    } else {
      Issue.record("no c")
    }
    if case .value(let o)? = identifier["o"] { #expect(o == 2) } else { Issue.record("no o") }

    let clusters = try #require(try Self.root("goios__dtcpuclusterinfo.bin", generic: true) as? [AnyHashable: Any])
    #expect(Set(clusters.keys) == [AnyHashable(0), AnyHashable(1)])
    #expect((clusters[AnyHashable(1)] as? ArchivedObject)?.className == "DTCPUClusterInfo")

    let config = try #require(try Self.root("goios__xctestconfiguration.bin", generic: true) as? ArchivedObject)
    #expect(config.className == "XCTestConfiguration")
    if case .object(let session?)? = config["sessionIdentifier"] {
      #expect(session as? UUID == UUID(uuidString: "BE7EDFCE-DA6A-402D-95D3-2D919955A29A"))
    } else {
      Issue.record("no sessionIdentifier")
    }
    if case .object(let url?)? = config["testBundleURL"] {
      #expect((url as? URL)?.lastPathComponent == "WebDriverAgentRunner.xctest")
    } else {
      Issue.record("no testBundleURL")
    }
    let state = try #require(try Self.root("goios__ax_statechange.bin") as? [String: Any])
    #expect(state["pid"] as? Int == 1231)
    #expect((state["timestamp"] as? Date)?.timeIntervalSinceReferenceDate == 620737053.76402)
  }

  @Test("ARC-033: nsvalue.bin holds a rectangle with 17 significant digits and inline mutable data")
  func nsvalue() throws {
    let root = try Self.root("goios__nsvalue.bin", generic: true)
    var rects: [ArchivedValue] = []
    var datas: [Data] = []
    walk(root) { value in
      if let v = value as? ArchivedValue { rects.append(v) }
      if let d = value as? Data { datas.append(d) }
    }
    #expect(
      rects == [
        .rect(x: 146.33333333333337, y: 728.33333333333337, width: 135.66666666666663, height: 69.666666666666629)
      ])
    #expect(datas.contains { $0.count == 20 })
  }

  @Test("ARC-030: Instruments captures (sandin) hold their plain roots, negative integers, sets and mutable strings")
  func sandin() throws {
    #expect(try Self.root("sandin__bool_true.bplist") as? Bool == true)
    #expect(try Self.root("sandin__integer_10.bplist") as? Int == 10)
    #expect(try Self.root("sandin__nsstring_setconfig.bplist") as? String == "setConfig:")
    let networking = try #require(try Self.root("sandin__nsarray_networking.bplist") as? [Any])
    let inner = try #require(networking.last as? [Any])
    #expect(networking.first as? Int == 1)
    #expect((inner[0] as? Data)?.count == 28)
    #expect(inner[3] as? Int == -2)
    let gpu = try #require(try Self.root("sandin__nsarray_gpuinfo.bplist") as? [Any])
    #expect(!gpu.isEmpty && gpu.allSatisfy { $0 is [AnyHashable: Any] })
    let config = try #require(try Self.root("sandin__nsdictionary_setconfig.bplist") as? [String: Any])
    #expect(config["ur"] as? Int == 500 && config["rp"] as? Int == 10)
    let tc = try #require((config["tc"] as? [Any])?.first as? [String: Any])
    #expect(
      tc["kdf2"] as? Set<AnyHashable> == [AnyHashable(630_784_000), AnyHashable(830_472_456), AnyHashable(833_617_920)])
    #expect(tc["uuid"] as? String == "2C46B61A-CDA9-4D59-B901-22E28B08C260")  // an NSMutableString
  }

  @Test("COD-023: bpylist2's crap.Foo archives decode into a registered class, including a self-cycle")
  func crapFoo() throws {
    let simple = try #require(try Self.root("bpylist__simple_archive.plist") as? CrapFoo)
    #expect(simple.title == "yo" && simple.count == 42 && simple.active)
    let complex = try #require(try Self.root("bpylist__complex_archive.plist") as? CrapFoo)
    #expect(complex.categories == ["banana", "apple"])
    #expect(complex.metadata == ["fruit": "kiwi", "veg": "asparagus"])
    let dated = try #require(try Self.root("bpylist__date_archive.plist") as? CrapFoo)
    #expect(dated.stamp?.timeIntervalSinceReferenceDate == 509523358.684097)
    let empty = try #require(try Self.root("bpylist__empty_archive.plist") as? CrapFoo)
    #expect(empty.title == nil && empty.count == 0 && !empty.active && empty.recursive == nil)
    let nested = try #require(try Self.root("bpylist__recursive_archive.plist") as? CrapFoo)
    #expect(nested.title == "hello" && nested.recursive?.title == "yo" && nested.recursive?.recursive == nil)
    let circular = try #require(try Self.root("bpylist__circular_archive.plist") as? CrapFoo)
    #expect(circular.title == "hello")
    #expect(circular.recursive === circular)
    circular.recursive = nil
  }

  @Test(
    "COD-024: keyed nibs decode generically, cycles through generic objects included",
    arguments: ArchiveCorpus.valid.filter { $0.hasPrefix("nib-") })
  func nibs(file: String) throws {
    let data = try ArchiveCorpus.data(file)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.registry = corpusRegistry
    unarchiver.decodesUnknownClassesGenerically = true
    let root = try #require(
      try unarchiver.decodeObject(forKey: "IB.objectdata", allowedClasses: nil) as? ArchivedObject)
    #expect(root.className == "NSIBObjectData")
    // Every class instance reachable in the raw archive whose class is not a Foundation class is one distinct
    // generic object in the decoded graph.
    let (objects, top) = try Self.raw(file)
    var reachable: Set<Int> = []
    let start = try #require(top["IB.objectdata"]?.uidValue)
    var queue = [Int(start)]
    var expectedGeneric = 0
    while let uid = queue.popLast() {
      guard uid != 0, reachable.insert(uid).inserted else { continue }
      guard case .dictionary(let fields) = objects[uid], case .uid(let c)? = fields["$class"] else { continue }
      let name = objects[Int(c)].dictionaryValue?["$classname"]?.stringValue ?? ""
      // A Foundation class decodes as its Swift value; every other class is generic, also one whose `$classes`
      // chain names a Foundation class (NSTextStorage: never decoded as a superclass unless asked, COD-200).
      if !KeyedUnarchiver.foundationClassNames.contains(name) { expectedGeneric += 1 }
      for entry in fields.entries where entry.key != "$class" {
        switch entry.value {
        case .uid(let u): queue.append(Int(u))
        case .array(let list): queue.append(contentsOf: list.compactMap(\.uidValue).map { Int($0) })
        default: break
        }
      }
    }
    var generic: Set<ObjectIdentifier> = []
    var cycles = 0
    walkObjects(root) { object, onPath in
      generic.insert(ObjectIdentifier(object))
      if onPath { cycles += 1 }
    }
    #expect(generic.count == expectedGeneric)
    #expect(cycles > 0, "the nib's view hierarchy has superview/subview cycles")
    // COD-025: the cycles are closed by weak back references, so releasing the root frees the whole graph.
    weak var released: ArchivedObject?
    do {
      let again = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
      again.registry = corpusRegistry
      again.decodesUnknownClassesGenerically = true
      released = try again.decodeObject(forKey: "IB.objectdata", allowedClasses: nil) as? ArchivedObject
      #expect(released != nil)
    }
    #expect(released == nil, "COD-025: the decoded nib graph is still alive after its root was released")
  }
}

/// Visits every value of a decoded graph once (generic objects by identity), without recursion.
func walk(_ root: Any?, _ visit: (Any) -> Void) {
  var stack: [Any?] = [root]
  var seen: Set<ObjectIdentifier> = []
  while let next = stack.popLast() {
    guard let value = next else { continue }
    visit(value)
    switch value {
    case let object as ArchivedObject:
      guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
      for entry in object.fields {
        switch entry.value {
        case .object(let v): stack.append(v)
        case .objects(let list): stack.append(contentsOf: list)
        case .value: break
        }
      }
    case let array as [Any]: stack.append(contentsOf: array.map { $0 })
    case let dictionary as [AnyHashable: Any]:
      for (key, v) in dictionary {
        stack.append(key.base)
        stack.append(v)
      }
    case let set as Set<AnyHashable>: stack.append(contentsOf: set.map(\.base))
    default: break
    }
  }
}

/// Visits every generic object once, depth first, telling whether a reference closes a cycle (points to an
/// object on the current path).
func walkObjects(_ root: ArchivedObject, _ visit: (ArchivedObject, Bool) -> Void) {
  var onPath: Set<ObjectIdentifier> = []
  var done: Set<ObjectIdentifier> = []
  var stack: [(object: ArchivedObject, children: [ArchivedObject], next: Int)] = []
  /// The generic objects an object's fields reach directly or through Foundation collections.
  func children(of object: ArchivedObject) -> [ArchivedObject] {
    var result: [ArchivedObject] = []
    var values: [Any?] = []
    for entry in object.fields {
      switch entry.value {
      case .object(let v): values.append(v)
      case .objects(let list): values.append(contentsOf: list)
      case .value: break
      }
    }
    while let next = values.popLast() {
      switch next {
      case let o as ArchivedObject: result.append(o)
      case let back as ArchivedObject.BackReference: if let o = back.object { result.append(o) }
      case let array as [Any]: values.append(contentsOf: array.map { $0 })
      case let dictionary as [AnyHashable: Any]: values.append(contentsOf: dictionary.values.map { $0 })
      case let set as Set<AnyHashable>: values.append(contentsOf: set.map(\.base))
      default: break
      }
    }
    return result
  }
  func enter(_ object: ArchivedObject) {
    let id = ObjectIdentifier(object)
    if onPath.contains(id) {
      visit(object, true)
      return
    }
    guard !done.contains(id) else { return }
    visit(object, false)
    onPath.insert(id)
    stack.append((object, children(of: object), 0))
  }
  enter(root)
  while let top = stack.last {
    if top.next < top.children.count {
      stack[stack.count - 1].next += 1
      enter(top.children[top.next])
    } else {
      let id = ObjectIdentifier(top.object)
      onPath.remove(id)
      done.insert(id)
      stack.removeLast()
    }
  }
}
