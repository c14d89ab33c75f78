import ArchiveCoding
import Foundation
import PropertyList
import Synchronization
import Testing

@testable import KeyedArchive

/// A notes app's attachment, and a sketch, a subclass a newer version of the app added.
private class NTAttachment: SecureCoding {
  class var supportsSecureCoding: Bool { true }
  var name: String
  init(name: String) { self.name = name }
  required init(coder: any DecodingCoder) throws { name = try coder.decodeString(forKey: "name") ?? "" }
  func encode(with coder: any EncodingCoder) { coder.encode(name, forKey: "name") }
}

private final class Sketch: NTAttachment {
  var strokes: [Int]
  var inkColor: String
  init(name: String, strokes: [Int], inkColor: String) {
    self.strokes = strokes
    self.inkColor = inkColor
    super.init(name: name)
  }
  required init(coder: any DecodingCoder) throws {
    strokes = try coder.decodeArrayOfObjects(ofClass: Int.self, forKey: "strokes") ?? []
    inkColor = try coder.decodeString(forKey: "inkColor") ?? ""
    try super.init(coder: coder)
  }
  override func encode(with coder: any EncodingCoder) {
    super.encode(with: coder)
    coder.encodeObject(strokes, forKey: "strokes")
    coder.encode(inkColor, forKey: "inkColor")
  }
}

/// Records what the unarchiver asks, and answers with `answer`.
private final class ClassNamingDelegate: KeyedUnarchiverDelegate, @unchecked Sendable {
  var asked: [(name: String, classes: [String])] = []
  let answer: (any Coding.Type)?
  init(answer: (any Coding.Type)?) { self.answer = answer }
  func unarchiver(
    _ unarchiver: KeyedUnarchiver, cannotDecodeObjectOfClassName name: String, originalClasses classNames: [String]
  ) -> (any Coding.Type)? {
    asked.append((name, classNames))
    return answer
  }
}

/// An object of a class nothing resolves goes to the delegate with its `$classes` chain, and is never narrowed to a
/// superclass unless the delegate or the user says so; secure coding checks the archived class (COD-200, COD-201).
@Suite("Unknown classes")
struct UnknownClassTests {
  /// The writer's registry: both classes.
  static let writing: ClassRegistry = {
    let registry = ClassRegistry()
    registry.register(NTAttachment.self, as: "Notes.NTAttachment")
    registry.register(Sketch.self, as: "Notes.Sketch")
    return registry
  }()

  /// The reader's registry: the attachment only, as an older version of the app has it.
  static let reading: ClassRegistry = {
    let registry = ClassRegistry()
    registry.register(NTAttachment.self, as: "Notes.NTAttachment")
    return registry
  }()

  /// An archive whose root is a sketch (chain `Notes.Sketch`, `Notes.NTAttachment`, `NSObject`).
  static func sketchArchive() throws -> Data {
    let archiver = KeyedArchiver(registry: writing)
    archiver.encodeObject(Sketch(name: "plan", strokes: [3, 1, 4], inkColor: "teal"), forKey: "root")
    return try archiver.finishEncoding()
  }

  static func unarchiver(secure: Bool) throws -> KeyedUnarchiver {
    let unarchiver = try KeyedUnarchiver(forReadingFrom: sketchArchive(), requiringSecureCoding: secure)
    unarchiver.registry = reading
    return unarchiver
  }

  @Test(
    "COD-200: an unknown subclass of a registered class is classNotFound naming it, also under secure coding",
    arguments: [false, true])
  func unknownSubclassIsNotNarrowed(secure: Bool) throws {
    let unarchiver = try Self.unarchiver(secure: secure)
    let error = #expect(throws: ArchiveError.self) {
      try unarchiver.decodeObject(of: [NTAttachment.self], forKey: "root")
    }
    #expect(error?.code == .classNotFound, "\(String(describing: error))")
    #expect(error?.location.className == "Notes.Sketch")
    #expect(error?.message.contains("Notes.Sketch") == true)
  }

  @Test("COD-200, COD-104: the delegate is asked with the archived $classes chain, and its class is used")
  func delegateAnswers() throws {
    let silent = ClassNamingDelegate(answer: nil)
    let unarchiver = try Self.unarchiver(secure: false)
    unarchiver.delegate = silent
    let error = #expect(throws: ArchiveError.self) { try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) }
    #expect(error?.code == .classNotFound)
    #expect(silent.asked.map(\.name) == ["Notes.Sketch"])
    #expect(silent.asked.first?.classes == ["Notes.Sketch", "Notes.NTAttachment", "NSObject"])

    let mapping = ClassNamingDelegate(answer: NTAttachment.self)
    let mapped = try Self.unarchiver(secure: false)
    mapped.delegate = mapping
    let attachment = try #require(try mapped.decodeObject(forKey: "root", allowedClasses: nil) as? NTAttachment)
    #expect(attachment.name == "plan")
    #expect(type(of: attachment) == NTAttachment.self)
    #expect(mapping.asked.count == 1)
  }

  @Test("COD-201: under secure coding, a class the delegate gives for the sketch is checked as Notes.Sketch")
  func secureCodingChecksTheArchivedClass() throws {
    let mapping = ClassNamingDelegate(answer: NTAttachment.self)
    let unarchiver = try Self.unarchiver(secure: true)
    unarchiver.delegate = mapping
    let error = #expect(throws: ArchiveError.self) {
      try unarchiver.decodeObject(of: [NTAttachment.self], forKey: "root")
    }
    #expect(mapping.asked.map(\.name) == ["Notes.Sketch"])
    #expect(error?.code == .classNotAllowed, "\(String(describing: error))")
    #expect(error?.location.className == "Notes.Sketch")
    // Declaring the superclass (what the process knows) makes the archived class allowed.
    let declared = ClassRegistry()
    declared.register(NTAttachment.self, as: "Notes.NTAttachment")
    declared.registerSuperclass("Notes.NTAttachment", of: "Notes.Sketch")
    let known = try KeyedUnarchiver(forReadingFrom: Self.sketchArchive(), requiringSecureCoding: true)
    known.registry = declared
    known.delegate = mapping
    let attachment = try #require(try known.decodeObject(of: NTAttachment.self, forKey: "root"))
    #expect(attachment.name == "plan")
  }

  @Test("COD-200, COD-201: a superclass from the chain is used only when asked for, and checked as the archived class")
  func superclassOnRequest() throws {
    let plain = try Self.unarchiver(secure: false)
    plain.decodesUnknownClassesAsSuperclasses = true
    let attachment = try #require(try plain.decodeObject(forKey: "root", allowedClasses: nil) as? NTAttachment)
    #expect(attachment.name == "plan")
    let secure = try Self.unarchiver(secure: true)
    secure.decodesUnknownClassesAsSuperclasses = true
    let error = #expect(throws: ArchiveError.self) { try secure.decodeObject(of: [NTAttachment.self], forKey: "root") }
    #expect(error?.code == .classNotAllowed)
    #expect(error?.location.className == "Notes.Sketch")
  }

  @Test("COD-024: under secure coding, an unknown class decodes generically only when that is allowed too")
  func genericUnderSecureCoding() throws {
    let refused = try Self.unarchiver(secure: true)
    refused.decodesUnknownClassesGenerically = true
    let error = #expect(throws: ArchiveError.self) { try refused.decodeObject(of: [NTAttachment.self], forKey: "root") }
    #expect(error?.code == .classNotFound)
    let allowed = try Self.unarchiver(secure: true)
    allowed.decodesUnknownClassesGenerically = true
    allowed.allowsGenericObjectsUnderSecureCoding = true
    let sketch = try #require(try allowed.decodeObject(of: [NTAttachment.self], forKey: "root") as? ArchivedObject)
    #expect(sketch.className == "Notes.Sketch")
    #expect(sketch.classChain == ["Notes.Sketch", "Notes.NTAttachment", "NSObject"])
    #expect(sketch.fields.map(\.key) == ["name", "strokes", "inkColor"])
  }

  @Test("COD-202: a sketch decoded generically and archived again gives the archive's $objects, entry for entry")
  func genericWriteBackIsByteForByte() throws {
    let original = try Self.sketchArchive()
    let unarchiver = try Self.unarchiver(secure: false)
    unarchiver.decodesUnknownClassesGenerically = true
    let sketch = try unarchiver.decodeObject(forKey: "root", allowedClasses: nil)
    #expect(sketch is ArchivedObject)
    let archiver = KeyedArchiver(registry: Self.reading)
    archiver.encodeObject(sketch, forKey: "root")
    let again = try archiver.finishEncoding()
    // The same entries under the same numbers: the sketch's dictionary (its keys in order, its inline values, its
    // references) and its class description. (The property list may order its objects otherwise: the archiver writes
    // a generic object where it is met, a registered one from its queue.)
    let before = try #require(try PropertyListReader.read(original).dictionaryValue)
    let after = try #require(try PropertyListReader.read(again).dictionaryValue)
    #expect(before[.string("$objects")] == after[.string("$objects")])
    #expect(before[.string("$top")] == after[.string("$top")])
    #expect(again.count == original.count)
  }

  /// The second element of the root array of `data`, with its fields' references replaced by the plain values they
  /// refer to (entries are numbered apart in two archives).
  static func secondElement(of data: Data) throws -> (object: KeyedArchiveGraph.Object, values: [PropertyListValue]) {
    var graph = try KeyedArchiveGraph(data: data)
    guard case .object(let root) = try graph.entry(1), case .array(let elements)? = root["NS.objects"],
      case .uid(let uid) = elements[1], case .object(let object) = try graph.entry(Int(uid))
    else { throw ArchiveError(.corruptData, "no second element") }
    let values = try object.storedFields.map { field -> PropertyListValue in
      guard case .uid(let target) = field.value else { return field.value }
      switch try graph.entry(Int(target)) {
      case .value(let value): return value
      case .object(let referred): return .string("object of \(referred.className)")
      default: return .string("another entry")
      }
    }
    return (object, values)
  }

  @Test("COD-202: inside a document, the sketch's dictionary and class description are written back as read")
  func genericWriteBackInsideADocument() throws {
    let archiver = KeyedArchiver(registry: Self.writing)
    archiver.encodeObject(
      [NTAttachment(name: "a"), Sketch(name: "b", strokes: [2, 7], inkColor: "red"), NTAttachment(name: "c")],
      forKey: "root")
    let original = try archiver.finishEncoding()
    let unarchiver = try KeyedUnarchiver(forReadingFrom: original, requiringSecureCoding: false)
    unarchiver.registry = Self.reading
    unarchiver.decodesUnknownClassesGenerically = true
    let decoded = try #require(try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) as? [Any])
    #expect(decoded[0] is NTAttachment && decoded[1] is ArchivedObject && decoded[2] is NTAttachment)
    let again = KeyedArchiver(registry: Self.reading)
    again.encodeObject(decoded, forKey: "root")
    let written = try again.finishEncoding()
    let sketches = try [original, written].map(Self.secondElement)
    #expect(sketches[0].0.storedFields.map(\.key) == sketches[1].0.storedFields.map(\.key))
    #expect(sketches[0].1 == sketches[1].1)
    #expect(sketches[0].0.classDescription.name == sketches[1].0.classDescription.name)
    #expect(sketches[0].0.classDescription.classes == sketches[1].0.classDescription.classes)
    #expect(sketches[0].0.classDescription.hints == sketches[1].0.classDescription.hints)
  }
}

/// The toolchain's `NSKeyedArchiver` twins of the attachment and the sketch (top-level and internal: corelibs names
/// only those).
class UnknownClassAttachmentTwin: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  let name: String
  init(name: String) { self.name = name }
  required init?(coder: NSCoder) { name = coder.decodeObject(of: NSString.self, forKey: "name") as String? ?? "" }
  func encode(with coder: NSCoder) { coder.encode(name as NSString, forKey: "name") }
}

final class UnknownClassSketchTwin: UnknownClassAttachmentTwin {
  let inkColor: String
  init(name: String, inkColor: String) {
    self.inkColor = inkColor
    super.init(name: name)
  }
  required init?(coder: NSCoder) {
    inkColor = coder.decodeObject(of: NSString.self, forKey: "inkColor") as String? ?? ""
    super.init(coder: coder)
  }
  override func encode(with coder: NSCoder) {
    super.encode(with: coder)
    coder.encode(inkColor as NSString, forKey: "inkColor")
  }
}

@Suite("Unknown classes against the toolchain")
struct UnknownClassInteropTests {
  @Test(
    "COD-200, COD-202: a subclass NSKeyedArchiver wrote reaches the delegate, and its generic copy reads back in NSKeyedUnarchiver"
  )
  func toolchainSubclass() throws {
    let data = try NSKeyedArchiver.archivedData(
      withRootObject: UnknownClassSketchTwin(name: "plan", inkColor: "teal"), requiringSecureCoding: false)
    let attachmentName = NSStringFromClass(UnknownClassAttachmentTwin.self)
    let sketchName = NSStringFromClass(UnknownClassSketchTwin.self)
    let registry = ClassRegistry()
    registry.register(NTAttachment.self, as: attachmentName)
    let delegate = ClassNamingDelegate(answer: nil)
    let unarchiver = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    unarchiver.registry = registry
    unarchiver.delegate = delegate
    let error = #expect(throws: ArchiveError.self) { try unarchiver.decodeObject(forKey: "root", allowedClasses: nil) }
    #expect(error?.code == .classNotFound)
    #expect(delegate.asked.first?.name == sketchName)
    #expect(delegate.asked.first?.classes.prefix(2) == [sketchName, attachmentName])
    // Generically, and archived again: the toolchain reads a sketch with its fields.
    let generic = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
    generic.registry = registry
    generic.decodesUnknownClassesGenerically = true
    let sketch = try generic.decodeObject(forKey: "root", allowedClasses: nil)
    let written = try KeyedArchiver.archivedData(withRootObject: sketch)
    let back = try NSKeyedUnarchiver.unarchivedObject(
      ofClasses: [UnknownClassSketchTwin.self, NSString.self], from: written)
    let twin = try #require(back as? UnknownClassSketchTwin)
    #expect(twin.name == "plan" && twin.inkColor == "teal")
  }
}
