import ArchiveCoding
import Foundation
import PropertyList
import Synchronization
import TestSupport
import Testing

@testable import KeyedArchive

/// How many times `Gadget.init(coder:)` ran: it must never run, since no test allows the class.
private let gadgetInits = Mutex(0)

/// A registered class that no test of this suite allows: a crafted archive must not get it instantiated.
final class Gadget: SecureCoding {
  required init(coder: any DecodingCoder) throws { gadgetInits.withLock { $0 += 1 } }
  func encode(with coder: any EncodingCoder) {}
}

/// Hand-written keyed archives that try to confuse the unarchiver about types, classes and references, the way
/// exploits delivered through keyed archives do. Each must be refused with the stated error, never decode into the
/// wrong type, crash or run an initialiser it should not.
@Suite("Crafted archives", .serialized)
struct CraftedArchiveTests {
  /// The test classes plus `Gadget`, in a registry of their own.
  static let registry: ClassRegistry = {
    let registry = ClassRegistry()
    registerTestClasses(in: registry)
    registry.register(Gadget.self, as: "Gadget")
    return registry
  }()

  /// A keyed archive whose `$objects` are exactly `objects` and whose `root` is `$objects[root]`.
  static func archive(_ objects: [PropertyListValue], root: UInt64 = 1) throws -> Data {
    try PropertyListWriter.write([
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(root)], "$objects": .array(objects),
    ])
  }

  /// A class description: `$classname` and the `$classes` chain.
  static func classDescription(_ chain: String...) -> PropertyListValue {
    ["$classname": .string(chain[0]), "$classes": .array(chain.map { .string($0) })]
  }

  /// Decodes `root` (secure: as one of `allowed`; otherwise untyped, unknown classes generically) and returns the
  /// error it throws, or records an issue when it decodes.
  static func failure(
    _ data: Data, secure: Bool, allowed: [Any.Type] = [Record.self], configure: (KeyedUnarchiver) -> Void = { _ in }
  ) -> ArchiveError? {
    let before = gadgetInits.withLock { $0 }
    defer { #expect(gadgetInits.withLock { $0 } == before, "Gadget.init(coder:) ran") }
    do {
      let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: secure)
      unarchiver.registry = registry
      configure(unarchiver)
      let value: Any?
      if secure {
        value = try unarchiver.decodeObject(of: allowed, forKey: "root")
      } else {
        unarchiver.decodesUnknownClassesGenerically = true
        value = try unarchiver.decodeObject(forKey: "root", allowedClasses: nil)
      }
      Issue.record("decoded instead of failing: \(String(describing: value))")
      return nil
    } catch let error as ArchiveError {
      return error
    } catch {
      Issue.record("not an ArchiveError: \(error)")
      return nil
    }
  }

  /// The object field `c` of `root`, an object of an unknown class decoded generically (without secure coding).
  static func genericField(_ data: Data) throws -> Any? {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.decodesUnknownClassesGenerically = true
    let holder = try #require(try unarchiver.decodeObject(forKey: "root") as? ArchivedObject)
    guard case .object(let value)? = holder["c"] else { return nil }
    return value
  }

  /// A `Record` whose field `key` refers to `$objects[2]`, which is `value` (with its class at `$objects[3]`).
  static func recordWithField(
    _ key: String, holding value: PropertyListValue, valueClass: String? = nil
  ) throws
    -> Data
  {
    var objects: [PropertyListValue] = [
      "$null", ["$class": .uid(valueClass == nil ? 3 : 4), .string(key): .uid(2)], value,
    ]
    if let valueClass { objects.append(classDescription(valueClass, "NSObject")) }
    objects.append(classDescription("Record", "NSObject"))
    return try archive(objects)
  }

  static let emptyDictionary: PropertyListValue = ["NS.keys": [], "NS.objects": [], "$class": .uid(3)]

  @Test(
    "ARC-042: a string slot holding a dictionary is refused naming the key: not allowed under secure coding, a type mismatch otherwise",
    arguments: [true, false])
  func stringSlotHoldsDictionary(secure: Bool) throws {
    let data = try Self.recordWithField("title", holding: Self.emptyDictionary, valueClass: "NSDictionary")
    let error = try #require(Self.failure(data, secure: secure))
    #expect(error.code == (secure ? .classNotAllowed : .typeMismatch), "\(error)")
    #expect(error.location.keyPath?.hasSuffix("title") == true, "\(error)")
    // Secure coding refuses the dictionary itself (#2) before decoding it; otherwise the record's slot (#1) fails.
    #expect(error.location.objectIndex == (secure ? 2 : 1), "\(error)")
  }

  @Test("ARC-042: data, integer, boolean and real slots holding a string are refused naming the key")
  func primitiveSlotsHoldStrings() throws {
    for key in ["$$blob", "big", "flag", "ratio"] {
      let data = try Self.recordWithField(key, holding: "not a number")
      for secure in [true, false] {
        let error = try #require(Self.failure(data, secure: secure))
        // A string where data is expected is a class outside the allowed set under secure coding.
        let expected: ArchiveError.Code = secure && key == "$$blob" ? .classNotAllowed : .typeMismatch
        #expect(error.code == expected, "\(key): \(error)")
        #expect(error.location.keyPath?.hasSuffix(key.replacingOccurrences(of: "$$", with: "$")) == true, "\(error)")
      }
    }
  }

  @Test("ARC-042: a $class that is a string, the object itself, $null or a number is corrupt data")
  func classReferenceConfusion() throws {
    let cases: [(String, [PropertyListValue])] = [
      ("a string", ["$null", ["$class": .uid(2)], "Record"]),
      ("the object itself", ["$null", ["$class": .uid(1)]]),
      ("$null", ["$null", ["$class": .uid(0)]]),
      ("an inline integer", ["$null", ["$class": 3]]),
      ("a class description without $classname", ["$null", ["$class": .uid(2)], ["$classes": ["Record"]]]),
      ("a $classname that is a number", ["$null", ["$class": .uid(2)], ["$classname": 7, "$classes": ["Record"]]]),
      ("a $classes that is a string", ["$null", ["$class": .uid(2)], ["$classname": "Record", "$classes": "Record"]]),
    ]
    for (name, objects) in cases {
      for secure in [true, false] {
        let error = try #require(Self.failure(try Self.archive(objects), secure: secure), "\(name)")
        #expect(error.code == .corruptData, "$class is \(name): \(error)")
        #expect(error.location.objectIndex == 1, "$class is \(name): \(error)")
        if name == "an inline integer" { #expect(error.message.contains("$class is a integer, not a UID"), "\(error)") }
      }
    }
    // A reference past the end of $objects.
    let pastTheEnd = try Self.archive(["$null", ["$class": .uid(99)]])
    let error = try #require(Self.failure(pastTheEnd, secure: true))
    #expect(error.code == .corruptData && error.message.contains("99"), "\(error)")
  }

  @Test("ARC-042: a reference past the end of $objects is corrupt data naming the index", arguments: [true, false])
  func referencePastTheEnd(secure: Bool) throws {
    let inField = try Self.archive(["$null", ["$class": .uid(2), "title": .uid(99)], Self.classDescription("Record")])
    let error = try #require(Self.failure(inField, secure: secure))
    #expect(error.code == .corruptData)
    #expect(error.message.contains("99"), "\(error)")
    let atTop = try Self.archive(["$null", ["$class": .uid(2)], Self.classDescription("Record")], root: 1_000)
    #expect(Self.failure(atTop, secure: secure)?.code == .corruptData)
    let inArray = try Self.archive([
      "$null", ["NS.objects": [.uid(1_000_000)], "$class": .uid(2)], Self.classDescription("NSArray", "NSObject"),
    ])
    #expect(Self.failure(inArray, secure: secure, allowed: [NSArray.self])?.code == .corruptData)
  }

  @Test("ARC-042: a dictionary's defects are reported alike whether it decodes as a value or as a mutable instance")
  func dictionaryErrorsAlike() throws {
    let defects: [(keys: [PropertyListValue], objects: [PropertyListValue])] = [
      ([.uid(3), "x"], [.uid(3), .uid(3)]),  // a key that is not a reference, after a good entry
      ([.uid(3), .uid(3)], [.uid(3), .uid(99)]),  // a value past the end of $objects
      ([.uid(3), .uid(3)], [.uid(4), .uid(99)]),  // a value of a class not allowed, before a bad reference
      ([.uid(3), "x"], [.uid(3)]),  // counts that differ, and a bad key
    ]
    for (keys, objects) in defects {
      let data = try Self.archive([
        "$null", ["NS.keys": .array(keys), "NS.objects": .array(objects), "$class": .uid(2)],
        Self.classDescription("NSMutableDictionary", "NSDictionary", "NSObject"), "a",
        ["NS.time": 0.0, "$class": .uid(5)], Self.classDescription("NSDate", "NSObject"),
      ])
      let asValue = Self.failure(data, secure: true, allowed: [NSDictionary.self, NSString.self])
      let asInstance = Self.failure(data, secure: true, allowed: [NSMutableDictionary.self, NSString.self])
      #expect(asValue != nil)
      #expect(asValue?.code == asInstance?.code, "\(String(describing: asValue)) / \(String(describing: asInstance))")
      // The messages differ only in the allowed classes they list.
      #expect(asValue?.location.objectIndex == asInstance?.location.objectIndex)
      #expect(asValue?.location.keyPath == asInstance?.location.keyPath)
    }
  }

  @Test(
    "COD-033, COD-020: numbers of every width in $objects decode to their exact values and types, checked as NSNumber"
  )
  func numbersOfEveryWidth() throws {
    // Each integer width the format has (the writer picks the narrowest: 1, 2, 4 or 8 bytes, 16 above Int64.max),
    // both real widths and both booleans, as the elements of one array (the path an element takes is the path of
    // any `$objects` entry).
    let integers: [Int64] = [0, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, .max, -1, .min]
    let floats: [Float] = [1.5, -.infinity, .leastNonzeroMagnitude]
    let doubles: [Double] = [-0.0, .nan, .greatestFiniteMagnitude, 0.1]
    let values: [PropertyListValue] =
      integers.map { .integer($0) } + [.integer(unsigned: .max)] + floats.map { .float($0) }
      + doubles.map { .real($0) } + [.bool(true), .bool(false)]
    let elementUIDs = (0..<values.count).map { PropertyListValue.uid(UInt64(3 + $0)) }
    let data = try Self.archive(
      ["$null", ["NS.objects": .array(elementUIDs), "$class": .uid(2)], Self.classDescription("NSArray", "NSObject")]
        + values)
    // The archive holds every width.
    let reader = try BinaryPropertyListReader(bytes: [UInt8](data))
    var widths: Set<String> = []
    for object in 0..<reader.objectCount {
      let header = try reader.header(of: object)
      if header.kind == .integer || header.kind == .real { widths.insert("\(header.kind) \(header.count)") }
    }
    #expect(
      widths == ["integer 1", "integer 2", "integer 4", "integer 8", "integer 16", "real 4", "real 8"], "\(widths)")

    for secure in [false, true] {
      let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: secure)
      let decoded = try #require(
        try unarchiver.decodeObject(of: [NSArray.self, NSNumber.self], forKey: "root") as? [Any])
      try #require(decoded.count == values.count)
      for (i, value) in integers.enumerated() {
        #expect(decoded[i] as? Int == Int(value), "element \(i): \(decoded[i])")
      }
      var i = integers.count
      #expect(decoded[i] as? UInt64 == .max, "element \(i): \(decoded[i])")
      i += 1
      for value in floats {
        #expect((decoded[i] as? Float)?.bitPattern == value.bitPattern, "element \(i): \(decoded[i])")
        i += 1
      }
      for value in doubles {
        #expect((decoded[i] as? Double)?.bitPattern == value.bitPattern, "element \(i): \(decoded[i])")
        i += 1
      }
      #expect(decoded[i] as? Bool == true && decoded[i + 1] as? Bool == false, "\(decoded[i...])")
    }
    // Under secure coding, each kind is an NSNumber: refused when only NSArray is allowed, naming its entry.
    for (index, value) in values.enumerated() {
      let single = try Self.archive([
        "$null", ["NS.objects": [.uid(3)], "$class": .uid(2)], Self.classDescription("NSArray", "NSObject"), value,
      ])
      let error = try #require(Self.failure(single, secure: true, allowed: [NSArray.self]), "value \(index)")
      #expect(error.code == .classNotAllowed && error.location.objectIndex == 3, "value \(index): \(error)")
      #expect(error.message.contains("NSNumber"), "value \(index): \(error)")
    }
    // The check runs at every use: a number decoded with NSNumber allowed is refused under a set without it.
    let twice = try PropertyListWriter.write([
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1), "number": .uid(3)],
      "$objects": [
        "$null", ["NS.objects": [.uid(3)], "$class": .uid(2)], Self.classDescription("NSArray", "NSObject"), 7,
      ],
    ])
    let unarchiver = try KeyedUnarchiver(forReadingFrom: twice, requiringSecureCoding: true)
    #expect(try unarchiver.decodeObject(of: [NSArray.self, NSNumber.self], forKey: "root") as? [Int] == [7])
    #expect(throws: ArchiveError.self) { try unarchiver.decodeObject(of: [NSString.self], forKey: "number") }
  }

  @Test("COD-033: a 16-byte integer is a sign-extended negative Int, or refused when it does not fit in 64 bits")
  func sixteenByteIntegers() throws {
    // The writer gives UInt64.max the 16-byte form (high half zero); the high half is then set to all ones (-1, an
    // Int) or to 1 (too large).
    let data = try Self.archive([
      "$null", ["NS.objects": [.uid(3)], "$class": .uid(2)], Self.classDescription("NSArray", "NSObject"),
      .integer(unsigned: .max),
    ])
    let form: [UInt8] = [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)
    let bytes = [UInt8](data)
    let start = try #require((0...(bytes.count - form.count)).first { Array(bytes[$0..<($0 + form.count)]) == form })
    func patched(high: UInt8) -> Data {
      var copy = bytes
      for i in 1...8 { copy[start + i] = i == 8 ? high : (high == 0xFF ? 0xFF : 0) }
      return Data(copy)
    }
    let negative = try KeyedUnarchiver(forReadingFrom: patched(high: 0xFF), requiringSecureCoding: true)
    let values = try #require(try negative.decodeObject(of: [NSArray.self, NSNumber.self], forKey: "root") as? [Any])
    #expect(values.count == 1 && values.first as? Int == -1, "\(values)")
    // Too large: refused as unsupported, before any allowed-class check (NSNumber is not allowed in the second).
    for allowed: [Any.Type] in [[NSArray.self, NSNumber.self], [NSArray.self]] {
      let unarchiver = try KeyedUnarchiver(forReadingFrom: patched(high: 1), requiringSecureCoding: true)
      do {
        let value = try unarchiver.decodeObject(of: allowed, forKey: "root")
        Issue.record("decoded \(String(describing: value))")
      } catch let error as ArchiveError {
        #expect(error.code == .unsupportedFormat, "\(error)")
        #expect(error.message.contains("16-byte integer does not fit in 64 bits"), "\(error)")
        #expect(error.location.byteOffset == start, "\(error)")
      }
    }
  }

  @Test("COD-033: a dictionary of no keys and no NS.objects is the empty dictionary")
  func emptyDictionaryWithoutObjects() throws {
    let data = try Self.archive(["$null", ["NS.keys": [], "$class": .uid(2)], Self.classDescription("NSDictionary")])
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: true)
    let value = try unarchiver.decodeObject(of: [NSDictionary.self], forKey: "root")
    #expect((value as? [String: Any])?.isEmpty == true, "\(String(describing: value))")
  }

  @Test("ARC-042: a dictionary whose key and value counts differ is corrupt data", arguments: [true, false])
  func dictionaryCountsDiffer(secure: Bool) throws {
    let data = try Self.archive([
      "$null", ["NS.keys": [.uid(2), .uid(3)], "NS.objects": [.uid(2)], "$class": .uid(4)], "a", "b",
      Self.classDescription("NSDictionary", "NSObject"),
    ])
    let error = try #require(Self.failure(data, secure: secure, allowed: [NSDictionary.self, NSString.self]))
    #expect(error.code == .corruptData, "\(error)")
    #expect(error.location.objectIndex == 1, "\(error)")
  }

  @Test("ARC-042: collection elements that are not references, and a dictionary as a dictionary key, are refused")
  func collectionElementConfusion() throws {
    let inline = try Self.archive([
      "$null", ["NS.objects": [5, "x"], "$class": .uid(2)], Self.classDescription("NSArray", "NSObject"),
    ])
    let inlineError = Self.failure(inline, secure: true, allowed: [NSArray.self])
    #expect(inlineError?.code == .typeMismatch)
    #expect(inlineError?.message.contains("NS.objects[0]") == true, "\(String(describing: inlineError))")
    // A bad reference after good ones is found at its index.
    let laterElement = try Self.archive([
      "$null", ["NS.objects": [.uid(3), .uid(3), "x"], "$class": .uid(2)], Self.classDescription("NSArray", "NSObject"),
      "a",
    ])
    let laterError = Self.failure(laterElement, secure: true, allowed: [NSArray.self, NSString.self])
    #expect(laterError?.message.contains("NS.objects[2]") == true, "\(String(describing: laterError))")
    let typedError = Self.failure(laterElement, secure: true, allowed: [[String].self])
    #expect(typedError?.code == .typeMismatch, "\(String(describing: typedError))")
    let dictionaryValue = try Self.archive([
      "$null", ["NS.keys": [.uid(3), .uid(4)], "NS.objects": [.uid(3), 7], "$class": .uid(2)],
      Self.classDescription("NSDictionary", "NSObject"), "a", "b",
    ])
    let valueError = Self.failure(dictionaryValue, secure: true, allowed: [NSDictionary.self, NSString.self])
    #expect(valueError?.code == .typeMismatch)
    #expect(valueError?.message.contains("NS.objects[1]") == true, "\(String(describing: valueError))")
    let dictionaryKey = try Self.archive([
      "$null", ["NS.keys": [.uid(3), .uid(9)], "NS.objects": [.uid(3), .uid(4)], "$class": .uid(2)],
      Self.classDescription("NSDictionary", "NSObject"), "a", "b",
    ])
    let keyError = Self.failure(dictionaryKey, secure: true, allowed: [NSDictionary.self, NSString.self])
    #expect(keyError?.code == .corruptData)
    #expect(keyError?.message.contains("#9") == true, "\(String(describing: keyError))")
    let objectsNotArray = try Self.archive([
      "$null", ["NS.objects": .uid(0), "$class": .uid(2)], Self.classDescription("NSArray", "NSObject"),
    ])
    #expect(Self.failure(objectsNotArray, secure: false)?.code == .typeMismatch)
    let dictionaryAsKey = try Self.archive([
      "$null", ["NS.keys": [.uid(2)], "NS.objects": [.uid(2)], "$class": .uid(3)], Self.emptyDictionary,
      Self.classDescription("NSDictionary", "NSObject"),
    ])
    // An immutable dictionary used as its own key's value is fine, but a dictionary as a key must hash: it
    // decodes (Swift dictionaries are hashable through AnyHashable) or is refused, never crashes.
    do {
      let unarchiver = try KeyedUnarchiver(forReadingFrom: dictionaryAsKey, requiringSecureCoding: false)
      _ = try unarchiver.decodeObject(forKey: "root", allowedClasses: nil)
    } catch let error as ArchiveError {
      #expect([.typeMismatch, .corruptData].contains(error.code), "\(error)")
    }
  }

  @Test("ARC-042: an immutable array that contains itself is a reference-cycle error", arguments: [true, false])
  func immutableSelfContainment(secure: Bool) throws {
    let data = try Self.archive([
      "$null", ["NS.objects": [.uid(1)], "$class": .uid(2)], Self.classDescription("NSArray", "NSObject"),
    ])
    let error = try #require(Self.failure(data, secure: secure, allowed: [NSArray.self]))
    #expect(error.code == .referenceCycle, "\(error)")
  }

  @Test(
    "ARC-042: a mutable dictionary that is one of its own keys, or a mutable set one of its own members, is a reference-cycle error",
    arguments: [true, false])
  func mutableSelfKey(secure: Bool) throws {
    // Filling the mutable collection would hash it during its own mutation: Foundation traps.
    let dictionary = try Self.archive([
      "$null", ["NS.keys": [.uid(2), .uid(1)], "NS.objects": [.uid(2), .uid(2)], "$class": .uid(3)], "value",
      Self.classDescription("NSMutableDictionary", "NSDictionary", "NSObject"),
    ])
    let keyError = try #require(
      Self.failure(dictionary, secure: secure, allowed: [NSMutableDictionary.self, String.self]))
    #expect(keyError.code == .referenceCycle, "\(keyError)")
    // Decoded as the mutable class (asked for by class), the error names the key; as a value, it names the object.
    #expect(!secure || keyError.location.keyPath == "root.NS.keys[1]", "\(keyError)")
    let set = try Self.archive([
      "$null", ["NS.objects": [.uid(2), .uid(1)], "$class": .uid(3)], "member",
      Self.classDescription("NSMutableSet", "NSSet", "NSObject"),
    ])
    let memberError = try #require(Self.failure(set, secure: secure, allowed: [NSMutableSet.self, String.self]))
    #expect(memberError.code == .referenceCycle, "\(memberError)")
    #expect(!secure || memberError.location.keyPath == "root.NS.objects[1]", "\(memberError)")
  }

  @Test(
    "ARC-042: a key of a mutable dictionary, or a member of a mutable set, that holds the collection is a reference-cycle error"
  )
  func keyHoldingItsCollection() throws {
    // A generic object's field holds the collection as an instance, and its keys (members) are mutable arrays,
    // hashable instances: one holds the collection, the other a dictionary of one entry. Their hashes (counts)
    // collide, and comparing them would read the collection while it is filled (Foundation traps).
    func archive(_ collection: PropertyListValue, _ className: String...) throws -> Data {
      try Self.archive([
        "$null", ["$class": .uid(2), "c": .uid(3)], Self.classDescription("Holder", "NSObject"), collection,
        ["$classname": .string(className[0]), "$classes": .array((className + ["NSObject"]).map { .string($0) })],
        ["NS.objects": [.uid(3)], "$class": .uid(7)], ["NS.objects": [.uid(8)], "$class": .uid(7)],
        Self.classDescription("NSMutableArray", "NSArray", "NSObject"),
        ["NS.keys": [.uid(10)], "NS.objects": [.uid(10)], "$class": .uid(9)],
        Self.classDescription("NSDictionary", "NSObject"), "value",
      ])
    }
    let dictionary = try archive(
      ["NS.keys": [.uid(5), .uid(6)], "NS.objects": [.uid(10), .uid(10)], "$class": .uid(4)], "NSMutableDictionary",
      "NSDictionary")
    let keyError = try #require(Self.failure(dictionary, secure: false))
    #expect(keyError.code == .referenceCycle, "\(keyError)")
    #expect(keyError.location.keyPath == "root.c.NS.keys[0].NS.objects[0]", "\(keyError)")
    let set = try archive(["NS.objects": [.uid(5), .uid(6)], "$class": .uid(4)], "NSMutableSet", "NSSet")
    let memberError = try #require(Self.failure(set, secure: false))
    #expect(memberError.code == .referenceCycle, "\(memberError)")
    #expect(memberError.location.keyPath == "root.c.NS.objects[0].NS.objects[0]", "\(memberError)")
    // A value that holds the dictionary is no key: it decodes, the cycle the caller's to break. Only its count is
    // read: reading the elements of a collection that contains itself recurses in Foundation's bridging.
    let value = try archive(
      ["NS.keys": [.uid(10)], "NS.objects": [.uid(5)], "$class": .uid(4)], "NSMutableDictionary", "NSDictionary")
    let decoded = try #require(try Self.genericField(value) as? NSMutableDictionary)
    #expect(decoded.count == 1)
    decoded.removeAllObjects()
  }

  @Test(
    "ARC-042: a key or member that holds a cycle through a mutable collection made inside it is a reference-cycle error"
  )
  func keyHoldingACycle() throws {
    // Two mutable arrays that each contain themselves (instances, in a generic object's field) as the members of a
    // set or the keys of a dictionary: their hashes (counts) collide, and Foundation compares them by their contents
    // without end (the stack overflowed).
    func archive(_ collection: PropertyListValue, _ className: String) throws -> Data {
      try Self.archive([
        "$null", ["$class": .uid(2), "c": .uid(3)], Self.classDescription("Holder", "NSObject"), collection,
        ["$classname": .string(className), "$classes": [.string(className), "NSObject"]],
        ["NS.objects": [.uid(5)], "$class": .uid(7)], ["NS.objects": [.uid(6)], "$class": .uid(7)],
        Self.classDescription("NSMutableArray", "NSArray", "NSObject"), "value",
      ])
    }
    let cases: [(PropertyListValue, String, String)] = [
      (["NS.objects": [.uid(5), .uid(6)], "$class": .uid(4)], "NSSet", "root.c.NS.objects[0]"),
      (["NS.objects": [.uid(5), .uid(6)], "$class": .uid(4)], "NSMutableSet", "root.c.NS.objects[0]"),
      (["NS.objects": [.uid(5), .uid(6)], "$class": .uid(4)], "NSOrderedSet", "root.c.NS.objects[0]"),
      (
        ["NS.keys": [.uid(5), .uid(6)], "NS.objects": [.uid(8), .uid(8)], "$class": .uid(4)], "NSDictionary",
        "root.c.NS.keys[0]"
      ),
      (
        ["NS.keys": [.uid(5), .uid(6)], "NS.objects": [.uid(8), .uid(8)], "$class": .uid(4)], "NSMutableDictionary",
        "root.c.NS.keys[0]"
      ),
      (["NS.key.0": .uid(5), "NS.object.0": .uid(8), "$class": .uid(4)], "NSDictionary", "root.c.NS.key.0"),
    ]
    for (collection, className, path) in cases {
      let error = try #require(Self.failure(try archive(collection, className), secure: false), "\(className)")
      #expect(error.code == .referenceCycle, "\(className): \(error)")
      #expect(error.location.keyPath == path, "\(className): \(error)")
    }
    // A member that holds the array around the set (still empty while the set is made) is no cycle inside it.
    let outer = try Self.archive([
      "$null", ["$class": .uid(2), "c": .uid(3)], Self.classDescription("Holder", "NSObject"),
      ["NS.objects": [.uid(4)], "$class": .uid(6)], ["NS.objects": [.uid(5)], "$class": .uid(7)],
      ["NS.objects": [.uid(3)], "$class": .uid(6)], Self.classDescription("NSMutableArray", "NSArray", "NSObject"),
      Self.classDescription("NSSet", "NSObject"),
    ])
    let array = try #require(try Self.genericField(outer) as? NSMutableArray)
    #expect(array.count == 1)
    array.removeAllObjects()
  }

  @Test("COD-020: a registered class outside the allowed set is refused even when $classes claims an allowed class")
  func classesChainCannotWidenTheAllowedSet() throws {
    let claims = try Self.archive([
      "$null", ["$class": .uid(2)], Self.classDescription("Gadget", "Record", "NSObject"),
    ])
    #expect(Self.failure(claims, secure: true)?.code == .classNotAllowed)
    // An unknown class whose `$classes` names a registered class outside the allowed set: never decoded as that
    // class (COD-200), so not found.
    let fallback = try Self.archive([
      "$null", ["$class": .uid(2)], Self.classDescription("Evil", "Gadget", "NSObject"),
    ])
    #expect(Self.failure(fallback, secure: true)?.code == .classNotFound)
    // `$classhints` name a class too: they cannot bring in a class outside the allowed set either.
    let hints = try Self.archive([
      "$null", ["$class": .uid(2)],
      ["$classname": "Evil", "$classes": ["Evil", "NSObject"], "$classhints": ["Gadget"]],
    ])
    let error = try #require(Self.failure(hints, secure: true))
    #expect([.classNotAllowed, .classNotFound].contains(error.code), "\(error)")
  }

  @Test("COD-021: a class description of $classname and $classhints alone is found through its hints")
  func hintsWithoutAChain() throws {
    // Two keys, as a description of `$classname` and `$classes` has: the hints must still be read.
    let data = try Self.archive([
      "$null", ["$class": .uid(2), "title": .uid(3)], ["$classname": "Unheard", "$classhints": ["Record"]], "x",
    ])
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.registry = Self.registry
    let record = try #require(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? Record)
    #expect(record.title == "x")
    // Without the hints, the class is unknown.
    let bare = try Self.archive([
      "$null", ["$class": .uid(2), "title": .uid(3)], ["$classname": "Unheard", "$classes": ["Unheard"]], "x",
    ])
    let plain = try KeyedUnarchiver(forReadingFrom: bare, requiringSecureCoding: false)
    plain.registry = Self.registry
    let error = #expect(throws: ArchiveError.self) { try plain.decodeObject(forKey: "root", allowedClasses: nil) }
    #expect(error?.code == .classNotFound)
  }

  @Test("COD-020: substituting a class for an allowed name does not make the substitute allowed")
  func substitutionCannotWidenTheAllowedSet() throws {
    let data = try Self.archive([
      "$null", ["$class": .uid(2), "title": .uid(3)], Self.classDescription("Record", "NSObject"), "x",
    ])
    let plain = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: true)
    plain.registry = Self.registry
    #expect(try plain.decodeObject(of: [Record.self], forKey: "root") is Record)
    let error = try #require(
      Self.failure(data, secure: true) { $0.setClass(Gadget.self, forClassName: "Record") })
    #expect(error.code == .classNotAllowed, "\(error)")
    let aliased = ClassRegistry()
    aliased.register(Gadget.self, as: "Record")
    let error2 = try #require(
      Self.failure(data, secure: true) { $0.registry = aliased })
    #expect(error2.code == .classNotAllowed, "\(error2)")
  }

  @Test("COD-022: a disallowed class inside an allowed collection is refused before its initialiser runs")
  func disallowedInsideCollections() throws {
    let data = try Self.archive([
      "$null", ["NS.objects": [.uid(2), .uid(3)], "$class": .uid(5)], ["$class": .uid(4)], ["$class": .uid(6)],
      Self.classDescription("Record", "NSObject"), Self.classDescription("NSArray", "NSObject"),
      Self.classDescription("Gadget", "NSObject"),
    ])
    let error = try #require(Self.failure(data, secure: true, allowed: [NSArray.self, Record.self]))
    #expect(error.code == .classNotAllowed, "\(error)")
    #expect(error.location.objectIndex == 3, "\(error)")
    let nested = try Self.archive([
      "$null", ["NS.keys": [.uid(2)], "NS.objects": [.uid(3)], "$class": .uid(4)], "k", ["$class": .uid(5)],
      Self.classDescription("NSDictionary", "NSObject"), Self.classDescription("Gadget", "NSObject"),
    ])
    #expect(
      Self.failure(nested, secure: true, allowed: [NSDictionary.self, NSString.self, Record.self])?.code
        == .classNotAllowed)
  }

  @Test("ARC-042: values quoted in error messages are described without Foundation's Date.description, which traps")
  func farFutureDateInAMessage() throws {
    // Found by the fuzzer: `$version` held a date of 1e300 seconds, and the error message's interpolation of it
    // called Date.description, which traps outside its calendar's range.
    let data = try PropertyListWriter.write([
      "$archiver": "NSKeyedArchiver", "$version": .date(Date(timeIntervalSinceReferenceDate: 1e300)), "$top": [:],
      "$objects": ["$null"],
    ])
    do {
      _ = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
      Issue.record("a date as $version was accepted")
    } catch let error as ArchiveError {
      #expect(error.code == .unsupportedFormat)
      #expect(error.message.contains("1e+300"), "\(error)")
    }
    #expect(PropertyListValue.string(String(repeating: "x", count: 1_000)).description.count < 100)
    #expect(PropertyListValue.date(Date(timeIntervalSinceReferenceDate: -.infinity)).description.contains("-inf"))
  }
}

/// Keyed archives whose `$objects` entries alias one large payload (ARC-007): the unarchiver checks objects on
/// access, but checks once, before decoding, that no two objects share bytes.
@Suite("Aliased archive entries")
struct AliasedArchiveTests {
  /// An `NSArray` of `count` data entries, each of which the offset table points at one `size`-byte payload when
  /// `aliased` (else each is a distinct 20-byte value), beside that payload.
  static func archive(count: Int, size: Int, aliased: Bool) throws -> Data {
    var objects: [PropertyListValue] = [
      "$null", ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
      ["$class": .uid(1), "NS.objects": .array((0..<count).map { .uid(UInt64(4 + $0)) })],
      .data(Data(repeating: 0xAB, count: size)),
    ]
    for i in 0..<count { objects.append(.data(Data(String(format: "distinct payload %03d", i).utf8))) }
    var bytes = [UInt8](
      try PropertyListWriter.write([
        "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(2)], "$objects": .array(objects),
      ]))
    guard aliased else { return Data(bytes) }
    // Trailer: offset width at -26, object count at -24, offset table position at -8 (big-endian).
    func number(at position: Int, width: Int) -> Int {
      bytes[position..<(position + width)].reduce(0) { $0 << 8 | Int($1) }
    }
    let width = Int(bytes[bytes.count - 26])
    let objectCount = number(at: bytes.count - 24, width: 8)
    let table = number(at: bytes.count - 8, width: 8)
    let reader = try BinaryPropertyListReader(bytes: bytes)
    var large: Int?
    var small: [Int] = []
    for object in 0..<objectCount {
      let header = try reader.header(of: object)
      guard header.kind == .data else { continue }
      if header.count == size { large = try reader.offset(of: object) } else { small.append(object) }
    }
    let target = try #require(large)
    #expect(small.count == count)
    for object in small {
      for i in 0..<width {
        bytes[table + object * width + i] = UInt8(truncatingIfNeeded: target >> (8 * (width - 1 - i)))
      }
    }
    return Data(bytes)
  }

  @Test("ARC-007: entries that alias one large payload are refused before decoding, naming both objects")
  func aliasedEntriesRefused() throws {
    // 200 entries aliasing 1 MiB: 200 MiB if each were materialised, from a file of just over 1 MiB.
    let archive = try Self.archive(count: 200, size: 1 << 20, aliased: true)
    #expect(archive.count < (1 << 20) + 20_000)
    do {
      let value = try KeyedUnarchiver.unarchivedRootObject(from: archive)
      Issue.record("decoded \(type(of: value)) from an aliased archive")
    } catch let error as ArchiveError {
      #expect(error.code == .corruptData, "\(error)")
      #expect(error.message.contains("objects must not share bytes"), "\(error)")
      #expect(error.location.objectIndex != nil, "\(error)")
    }
    // Full validation names the overlap.
    #expect(throws: ArchiveError.self) { _ = try PropertyListReader.read(archive) }
  }

  @Test("ARC-007: the same archive without aliases decodes, and many references to one large entry share it")
  func sharedEntriesDecode() throws {
    let plain = try #require(
      try KeyedUnarchiver.unarchivedRootObject(from: try Self.archive(count: 200, size: 1 << 20, aliased: false))
        as? [Data])
    #expect(plain.count == 200)
    #expect(plain[7] == Data("distinct payload 007".utf8))
    // 2,000 references to one 1 MiB entry: legitimate sharing, decoded once, within the byte budget.
    let elements = try #require(try KeyedUnarchiver.unarchivedRootObject(from: try Self.manyReferences()) as? [Data])
    #expect(elements.count == 2_000)
    #expect(Set(elements.map { $0.withUnsafeBytes { Int(bitPattern: $0.baseAddress) } }).count == 1)
  }

  @Test("ARC-007: the Codable bridge reads a large data entry once, and every reference shares it")
  func sharedEntriesDecodeThroughCodable() throws {
    let elements = try KeyedArchiveDecoder().decode([Data].self, from: try Self.manyReferences())
    #expect(elements.count == 2_000)
    #expect(elements[1_999] == Data(repeating: 0xCD, count: 1 << 20))
    #expect(Set(elements.map { $0.withUnsafeBytes { Int(bitPattern: $0.baseAddress) } }).count == 1)
    // A small entry may be read at each reference; its values are the same.
    let small = try KeyedArchiveDecoder().decode([Data].self, from: try Self.manyReferences(count: 3, size: 64))
    #expect(small == Array(repeating: Data(repeating: 0xCD, count: 64), count: 3))
  }

  /// An `NSArray` of `count` references to one data entry of `size` bytes.
  static func manyReferences(count: Int = 2_000, size: Int = 1 << 20) throws -> Data {
    try CraftedArchiveTests.archive([
      "$null", ["$class": .uid(3), "NS.objects": .array(Array(repeating: PropertyListValue.uid(2), count: count))],
      .data(Data(repeating: 0xCD, count: size)), ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
    ])
  }

  /// A keyed archive whose root object (`Thing`) has a field `items`, an inline array of `count` elements that all
  /// refer to one data object of `size` bytes (what a hand-made file can do, no archiver), and that array's number.
  static func inlineAliases(count: Int, size: Int) -> (archive: Data, items: Int) {
    var plist = RawPropertyList()
    let payload = plist.add(
      [0x4F, 0x12] + RawPropertyList.bigEndian(UInt64(size), 4) + [UInt8](repeating: 0xCD, count: size))
    let items = plist.array(Array(repeating: payload, count: count))
    let thing = plist.dictionary([(plist.string("$class"), plist.uid(2)), (plist.string("items"), items)])
    let bytes = plist.keyedArchiveBytes(objects: [plist.string("$null"), thing, plist.classDescription("Thing")])
    return (Data(bytes), items)
  }

  @Test("ARC-007: an inline array whose elements all refer to one large data object reads it once, shared")
  func inlineArrayAliases() throws {
    // 2,000 elements of one 1 MiB object: 2 GiB if each were read, from a file of just over 1 MiB.
    let (archive, items) = Self.inlineAliases(count: 2_000, size: 1 << 20)
    #expect(archive.count < (1 << 20) + 20_000)
    let graph = try KeyedArchiveGraph(data: archive)
    guard case .array(let elements)? = graph.fieldValue(ofObject: items) else {
      Issue.record("the field is no array")
      return
    }
    #expect(elements.count == 2_000)
    let storages = Set(
      elements.map { element -> Int in
        guard case .data(let data) = element else { return -1 }
        return data.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
      })
    #expect(storages.count == 1 && !storages.contains(-1))
    // The unarchiver's generic object holds the array as read, shared too.
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    unarchiver.decodesUnknownClassesGenerically = true
    let thing = try #require(try unarchiver.decodeObject(forKey: "root") as? ArchivedObject)
    let field = thing.fields.first(where: { $0.key == "items" })?.value
    let decoded: [Data?]
    switch field {
    case .value(.array(let values))?: decoded = values.map { if case .data(let data) = $0 { data } else { nil } }
    case .objects(let objects)?:
      decoded = objects.map { if case .data(let data)? = $0 as? PropertyListValue { data } else { nil } }
    default:
      Issue.record("items: \(String(describing: field))")
      return
    }
    let decodedStorages = Set(decoded.map { $0?.withUnsafeBytes { Int(bitPattern: $0.baseAddress) } ?? -1 })
    #expect(decoded.count == 2_000 && decodedStorages.count == 1 && !decodedStorages.contains(-1))
  }

  /// A keyed archive whose root is an `NSArray` of `count` `Blob` objects whose fields `blob` and `text` all refer
  /// to one data object and one string object of `size` bytes, stored inline (no archiver shares them so).
  static func fieldAliases(count: Int, size: Int) -> Data {
    var plist = RawPropertyList()
    let payload = plist.add(
      [0x4F, 0x12] + RawPropertyList.bigEndian(UInt64(size), 4) + [UInt8](repeating: 0xCD, count: size))
    let text = plist.add(
      [0x5F, 0x12] + RawPropertyList.bigEndian(UInt64(size), 4) + [UInt8](repeating: 0x61, count: size))
    let (classKey, blobKey, textKey) = (plist.string("$class"), plist.string("blob"), plist.string("text"))
    let blobs = (0..<count).map { _ in
      plist.dictionary([(classKey, plist.uid(3 + count)), (blobKey, payload), (textKey, text)])
    }
    let root = plist.dictionary([
      (classKey, plist.uid(2)), (plist.string("NS.objects"), plist.array((0..<count).map { plist.uid(3 + $0) })),
    ])
    return Data(
      plist.keyedArchiveBytes(
        objects: [plist.string("$null"), root, plist.classDescription("NSArray")] + blobs
          + [plist.classDescription("Blob")]))
  }

  /// An object of two fields, a data and a string.
  final class Blob: Coding {
    let blob: Data?
    let text: String?
    required init(coder: any DecodingCoder) throws {
      blob = try coder.decodeData(forKey: "blob")
      text = try coder.decodeString(forKey: "text")
    }
    func encode(with coder: any EncodingCoder) {}
  }

  @Test("ARC-007: fields of many objects that refer to one large inline string or data read it once, shared")
  func fieldAliasesShared() throws {
    let archive = Self.fieldAliases(count: 2_000, size: 1 << 20)
    #expect(archive.count < 3 * (1 << 20))
    // Typed: each object decodes its fields through `decodeData` and `decodeString`.
    let registry = ClassRegistry()
    registry.register(Blob.self, as: "Blob")
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    unarchiver.registry = registry
    let blobs = try #require(try unarchiver.decodeObject(forKey: "root") as? [Any]).compactMap { $0 as? Blob }
    #expect(blobs.count == 2_000)
    let storages = Set(blobs.map { $0.blob?.withUnsafeBytes { Int(bitPattern: $0.baseAddress) } ?? -1 })
    #expect(storages.count == 1 && !storages.contains(-1))
    #expect(blobs.allSatisfy { $0.text?.utf8.count == 1 << 20 })
    // Generic: each object keeps its fields as read.
    let generic = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    generic.registry = ClassRegistry()
    generic.decodesUnknownClassesGenerically = true
    let objects = try #require(try generic.decodeObject(forKey: "root") as? [Any]).compactMap { $0 as? ArchivedObject }
    #expect(objects.count == 2_000)
    let genericStorages = Set(
      objects.map { object -> Int in
        guard case .value(.data(let data))? = object.fields.first(where: { $0.key == "blob" })?.value else { return -1 }
        return data.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
      })
    #expect(genericStorages.count == 1 && !genericStorages.contains(-1))
    // The graph as the nib reader reads it, keeping every entry: each entry's fields share the payload.
    var graph = try KeyedArchiveGraph(data: archive)
    graph.payloads = SharedPayloads()
    let graphStorages = try Set(
      (3..<(3 + 2_000)).map { index -> Int in
        guard case .object(let object) = try graph.entry(index), case .data(let data)? = object.fields["blob"] else {
          return -1
        }
        return data.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
      })
    #expect(graphStorages.count == 1 && !graphStorages.contains(-1))
  }

  @Test("ARC-007, ARC-043: a data object inside inline containers of many objects' fields is read once, shared")
  func nestedInlineAliasesShared() throws {
    // 2,000 objects, each with its own inline array of an inline array of one 1 MiB data object: 2 GiB if each
    // container were materialised on its own, from a file of just over 1 MiB.
    let objects = 2_000
    let archive = Data(RawPropertyList.nestedInlineContainersArchive(objects: objects, size: 1 << 20))
    #expect(archive.count < (1 << 20) + 200_000)
    /// The storages of the data inside `list`, by address.
    func storages(_ lists: [PropertyListValue?]) -> Set<Int> {
      Set(
        lists.map { list in
          guard case .array(let outer)? = list, case .array(let inner)? = outer.first,
            case .data(let data)? = inner.first
          else { return -1 }
          return data.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
        })
    }
    // Generic: each object keeps its field (an inline array of values) as read.
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    unarchiver.registry = ClassRegistry()
    unarchiver.decodesUnknownClassesGenerically = true
    let things = try #require(try unarchiver.decodeObject(forKey: "root") as? [Any]).compactMap {
      $0 as? ArchivedObject
    }
    #expect(things.count == objects)
    let generic = things.map { thing -> PropertyListValue? in
      guard case .objects(let items)? = thing.fields.first(where: { $0.key == "list" })?.value else { return nil }
      return .array(items.compactMap { $0 as? PropertyListValue })
    }
    #expect(storages(generic) == storages([generic[0]]) && !storages(generic).contains(-1))
    // The graph as the nib reader reads it, keeping every entry.
    var graph = try KeyedArchiveGraph(data: archive)
    graph.payloads = SharedPayloads()
    let read = try (3..<(3 + objects)).map { index -> PropertyListValue? in
      guard case .object(let object) = try graph.entry(index) else { return nil }
      return object.fields["list"]
    }
    #expect(storages(read).count == 1 && !storages(read).contains(-1))
  }

  /// The storages that `references` references to one data entry of `size` bytes decode into, by address.
  static func storages(references: Int, size: Int) throws -> Set<Int> {
    let archive = try CraftedArchiveTests.archive(
      [
        "$null",
        ["$class": .uid(3), "NS.objects": .array(Array(repeating: PropertyListValue.uid(2), count: references))],
        .data(Data(repeating: 0xCD, count: size)), ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
      ])
    let elements = try #require(try KeyedUnarchiver.unarchivedRootObject(from: archive) as? [Data])
    #expect(elements.count == references)
    #expect(elements.allSatisfy { $0 == Data(repeating: 0xCD, count: size) })
    return Set(elements.map { $0.withUnsafeBytes { Int(bitPattern: $0.baseAddress) } })
  }

  @Test("ARC-007: an entry of at most 64 bytes is read twice, then shared; a longer one is read once")
  func smallEntriesReadTwice() throws {
    // 64 bytes: the first reference reads its own copy, the second caches the one every later reference shares.
    #expect(try Self.storages(references: 100, size: 64).count == 2)
    #expect(try Self.storages(references: 100, size: 65).count == 1)
    #expect(try Self.storages(references: 1, size: 64).count == 1)
  }
}

/// Class descriptions that share one long `$classes` list (ARC-043).
@Suite("Shared class chains")
struct SharedClassChainTests {
  static func archive(count: Int, length: Int) -> Data {
    Data(RawPropertyList.sharedClassChainArchive(descriptions: count, names: length))
  }

  @Test("ARC-043: many class descriptions of one long shared chain decode as one class, each object generically")
  func sharedChainDecodes() throws {
    let archive = Self.archive(count: 2_000, length: 900)
    // 2,000 descriptions of one 901-name chain in 250 kB: read per description, 1.8 M names.
    #expect(archive.count < 300_000)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false)
    unarchiver.registry = ClassRegistry()
    unarchiver.decodesUnknownClassesGenerically = true
    let objects = try #require(try unarchiver.decodeObject(forKey: "root") as? [Any])
    #expect(objects.count == 2_000)
    let last = try #require(objects.last as? ArchivedObject)
    #expect(last.className == "C0")
    // The whole list materialised as a plain property list shares the chain too.
    let plain = try PropertyListReader.read(archive)
    #expect(plain.dictionaryValue?["$objects"]?.arrayValue?.count == 3 + 2 * 2_000)
  }

  /// The root of `archive`, decoded without secure coding and with no registered class (every object generically).
  static func genericRoot(_ archive: Data, options: KeyedUnarchiverOptions = .default) throws -> Any? {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: archive, requiringSecureCoding: false, options: options)
    unarchiver.registry = ClassRegistry()
    unarchiver.decodesUnknownClassesGenerically = true
    return try unarchiver.decodeObject(forKey: "root")
  }

  @Test("ARC-043: a $classes list longer than maxClassChainLength is refused with limitExceeded naming the description")
  func longChainRefused() throws {
    let archive = Self.archive(count: 1, length: 1_000)  // 1,001 names with NSObject
    do {
      _ = try Self.genericRoot(archive)
      Issue.record("a class description of 1,001 names was accepted")
    } catch let error as ArchiveError {
      #expect(error.code == .limitExceeded, "\(error)")
      #expect(error.message.contains("1001 class names, more than the limit of 1000"), "\(error)")
    }
    var options = KeyedUnarchiverOptions()
    options.maxClassChainLength = 2_000
    #expect((try Self.genericRoot(archive, options: options) as? [Any])?.count == 1)
  }

  /// An archive whose root is of class `name`, with `chain` as its `$classes`.
  static func archive(className name: String, chain: [String]) throws -> Data {
    try CraftedArchiveTests.archive([
      "$null", ["$class": .uid(2)],
      ["$classname": .string(name), "$classes": .array(chain.map { .string($0) })],
    ])
  }

  @Test(
    "ARC-043: a class name longer than maxClassNameLength, in $classname or $classes, is refused with limitExceeded")
  func longClassNamesRefused() throws {
    let long = String(repeating: "N", count: 1_025)
    for (name, chain, what) in [
      (long, [long, "NSObject"], "$classname is 1025 characters long"),
      ("Short", ["Short", long, "NSObject"], "$classes[1] is 1025 characters long"),
    ] {
      do {
        _ = try Self.genericRoot(try Self.archive(className: name, chain: chain))
        Issue.record("a class name of 1,025 characters was accepted")
      } catch let error as ArchiveError {
        #expect(error.code == .limitExceeded, "\(error)")
        #expect(error.message.contains("\(what), more than the limit of 1024"), "\(error)")
        #expect(error.location.objectIndex == 1, "\(error)")
      }
    }
    // At the limit, the object decodes (generically: no class has that name).
    let name = String(repeating: "N", count: 1_024)
    let root = try Self.genericRoot(try Self.archive(className: name, chain: [name, "NSObject"]))
    #expect((root as? ArchivedObject)?.className == name)
  }

  /// A root object of class `name` holding one integer field, `value`, for the Codable bridge (which decodes a
  /// struct from a dictionary: this root is never one).
  static func codableArchive(className name: String) throws -> Data {
    try CraftedArchiveTests.archive([
      "$null", ["$class": .uid(2), "value": 7],
      ["$classname": .string(name), "$classes": .array([.string(name), "NSObject"])],
    ])
  }

  private struct Valued: Decodable { var value: Int }

  @Test("ARC-043: the Codable bridge refuses a $classname longer than maxClassNameLength, as the unarchiver does")
  func longClassNamesRefusedByTheCodableBridge() throws {
    let decoder = KeyedArchiveDecoder()
    /// The error decoding a `Valued` from a root of class `name` throws.
    func failure(_ length: Int) throws -> DecodingError {
      let data = try Self.codableArchive(className: String(repeating: "N", count: length))
      return try #require(#expect(throws: DecodingError.self) { try decoder.decode(Valued.self, from: data) })
    }
    guard case .dataCorrupted(let context) = try failure(1_025) else {
      Issue.record("a $classname of 1,025 characters was not refused as damaged")
      return
    }
    let underlying = try #require(context.underlyingError as? ArchiveError)
    #expect(underlying.code == .limitExceeded, "\(underlying)")
    #expect(underlying.message.contains("$classname is 1025 characters long, more than the limit of 1024"))
    #expect(underlying.location.objectIndex == 1)
    // At the limit, or past it with a higher limit, the name is read: the root is then an object, not a dictionary.
    for (length, limit) in [(1_024, 1_024), (1_025, 2_000)] {
      decoder.options.maxClassNameLength = limit
      guard case .typeMismatch(_, let mismatch) = try failure(length) else {
        Issue.record("a $classname of \(length) characters under a limit of \(limit) was refused")
        continue
      }
      #expect(mismatch.debugDescription.contains("found an object of class NNN"))
    }
  }

}
