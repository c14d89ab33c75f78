import ArchiveCoding
import Foundation
import Testing

/// A field of ``MinimalDecodingCoder``: an inline primitive or an object.
enum MinimalField {
  case value(CodedValue)
  case object(Any?)
}

/// A decoding coder that implements only the requirements of `DecodingCoder` that have no default, so that every
/// typed call below runs the protocol's default. It counts the calls that reach its core.
final class MinimalDecodingCoder: DecodingCoder {
  var fields: [String: MinimalField]
  let requiresSecureCoding: Bool
  let decodingFailurePolicy: DecodingFailurePolicy
  private(set) var error: (any Error)?
  /// Every key `decodeValue(forKey:)` was asked for, in order.
  private(set) var valueCalls: [String] = []
  /// Every `decodeObject(forKey:allowedClasses:)` call, with the allowed set it was given.
  private(set) var objectCalls: [(key: String, allowedClasses: Set<String>?)] = []
  /// The deferred assignments, run by ``link(_:)``.
  private var deferred: [(key: String, assign: (AnyObject, Any?) throws -> Void)] = []

  init(
    _ fields: [String: MinimalField], requiresSecureCoding: Bool = false,
    policy: DecodingFailurePolicy = .throwError
  ) {
    self.fields = fields
    self.requiresSecureCoding = requiresSecureCoding
    self.decodingFailurePolicy = policy
  }

  func containsValue(forKey key: String) -> Bool { fields[key] != nil }

  func decodeValue(forKey key: String) throws -> CodedValue? {
    valueCalls.append(key)
    switch fields[key] {
    case nil: return nil
    case .value(let value): return value
    case .object(let object as String): return .string(object)
    case .object(let object as Data): return .bytes(object)
    case .object(let object):
      throw ArchiveError(
        .typeMismatch, "expected a primitive, found \(object.map { "\(type(of: $0))" } ?? "nil")",
        at: .init(keyPath: key))
    }
  }

  func decodeObject(forKey key: String, allowedClasses: Set<String>?) throws -> Any? {
    objectCalls.append((key, allowedClasses))
    switch fields[key] {
    case nil: return nil
    case .object(let object): return object
    case .value(let value):
      throw ArchiveError(.typeMismatch, "expected an object, found \(value.typeName)", at: .init(keyPath: key))
    }
  }

  func decodeDeferred(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, Any?) throws -> Void
  ) throws {
    deferred.append((key, assign))
  }

  func failWithError(_ error: any Error) {
    if self.error == nil { self.error = error }
  }

  /// The link phase: hands each deferred key's object to its assignment, with `object` as the decoded object.
  func link(_ object: AnyObject) throws {
    for (key, assign) in deferred {
      guard case .object(let value)? = fields[key] else {
        try assign(object, nil)
        continue
      }
      try assign(object, value)
    }
  }
}

/// An encoding coder that implements only the three requirements of `EncodingCoder` that have no default, and
/// records what reaches them.
final class MinimalEncodingCoder: EncodingCoder {
  enum Entry {
    case value(CodedValue)
    case object(Any?)
    case conditional(AnyObject?)
  }
  private(set) var entries: [(key: String, entry: Entry)] = []

  func encodeValue(_ value: CodedValue, forKey key: String) { entries.append((key, .value(value))) }
  func encodeObject(_ object: Any?, forKey key: String) { entries.append((key, .object(object))) }
  func encodeConditionalObject(_ object: AnyObject?, forKey key: String) {
    entries.append((key, .conditional(object)))
  }

  /// The primitive written under `key`, or nil when something else (or nothing) was.
  func value(_ key: String) -> CodedValue? {
    guard case .value(let value)? = entries.last(where: { $0.key == key })?.entry else { return nil }
    return value
  }

  /// The object written under `key` with `encodeObject`, or nil when something else (or nothing) was.
  func object(_ key: String) -> Any?? {
    guard case .object(let object)? = entries.last(where: { $0.key == key })?.entry else { return nil }
    return .some(object)
  }
}

/// A `Coding` class for the typed calls that take one.
final class MinimalNode: Coding {
  var parent: MinimalNode?
  init() {}
  init(coder: any DecodingCoder) throws {}
  func encode(with coder: any EncodingCoder) {}
}

/// Checks that `body` throws an `ArchiveError` with `code` located at `keyPath`.
func expectArchiveError(
  _ code: ArchiveError.Code, at keyPath: String, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) {
  do {
    try body()
    Issue.record("expected \(code) at \(keyPath), nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as ArchiveError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.location.keyPath == keyPath, "\(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected an ArchiveError, got \(error)", sourceLocation: sourceLocation)
  }
}

@Suite("The coder protocols' defaults, through coders that implement only the required core")
struct MinimalCoderTests {
  // MARK: Decoding

  @Test("COD-002: every default decodes a missing key as nil, false or zero without failing")
  func missingKeys() throws {
    let coder = MinimalDecodingCoder([:])
    #expect(!coder.containsValue(forKey: "absent"))
    #expect(try coder.decodeBool(forKey: "absent") == false)
    #expect(try coder.decodeInt64(forKey: "absent") == 0)
    #expect(try coder.decodeInt(forKey: "absent") == 0)
    #expect(try coder.decodeInt32(forKey: "absent") == 0)
    #expect(try coder.decodeUInt64(forKey: "absent") == 0)
    #expect(try coder.decodeInteger(UInt8.self, forKey: "absent") == 0)
    #expect(try coder.decodeDouble(forKey: "absent") == 0)
    #expect(try coder.decodeFloat(forKey: "absent") == 0)
    #expect(try coder.decodeBytes(forKey: "absent") == nil)
    #expect(try coder.decodeObject(forKey: "absent") == nil)
    #expect(try coder.decodeString(forKey: "absent") == nil)
    #expect(try coder.decodeData(forKey: "absent") == nil)
    #expect(try coder.decodeObject(of: MinimalNode.self, forKey: "absent") == nil)
    #expect(try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "absent") == nil)
    #expect(coder.error == nil)
  }

  @Test("COD-002: a key written with a nil object is contained and decodes as nil")
  func nilObject() throws {
    let coder = MinimalDecodingCoder(["none": .object(nil)])
    #expect(coder.containsValue(forKey: "none"))
    #expect(try coder.decodeString(forKey: "none") == nil)
    #expect(try coder.decodeObject(forKey: "none") == nil)
  }

  @Test("COD-003: the primitive defaults read through decodeValue(forKey:), once a call")
  func primitivesReadThroughTheCore() throws {
    let coder = MinimalDecodingCoder([
      "flag": .value(.bool(true)), "count": .value(.integer(42)), "ratio": .value(.double(0.5)),
    ])
    #expect(try coder.decodeBool(forKey: "flag"))
    #expect(try coder.decodeInt64(forKey: "count") == 42)
    #expect(try coder.decodeDouble(forKey: "ratio") == 0.5)
    #expect(coder.valueCalls == ["flag", "count", "ratio"])
    #expect(coder.objectCalls.isEmpty)
  }

  @Test("COD-003: decodeBool's default accepts integers (non-zero is true) and the XML spellings of booleans")
  func boolConversions() throws {
    let coder = MinimalDecodingCoder([
      "two": .value(.integer(2)), "zero": .value(.integer(0)), "huge": .value(.unsignedInteger(UInt64.max)),
      "yes": .value(.string("YES")), "no": .value(.string("NO")), "true": .value(.string("true")),
      "one": .value(.string("1")), "empty": .value(.string("")),
    ])
    #expect(try coder.decodeBool(forKey: "two"))
    #expect(try coder.decodeBool(forKey: "zero") == false)
    #expect(try coder.decodeBool(forKey: "huge"))
    #expect(try coder.decodeBool(forKey: "yes"))
    #expect(try coder.decodeBool(forKey: "no") == false)
    #expect(try coder.decodeBool(forKey: "true"))
    #expect(try coder.decodeBool(forKey: "one"))
    #expect(try coder.decodeBool(forKey: "empty") == false)
  }

  @Test("COD-003: the integer defaults accept booleans, any width that fits and decimal text")
  func integerConversions() throws {
    let coder = MinimalDecodingCoder([
      "flag": .value(.bool(true)), "small": .value(.integer(-7)), "max": .value(.unsignedInteger(UInt64.max)),
      "text": .value(.string("123")),
    ])
    #expect(try coder.decodeInt64(forKey: "flag") == 1)
    #expect(try coder.decodeInt32(forKey: "small") == -7)
    #expect(try coder.decodeInteger(Int8.self, forKey: "small") == -7)
    #expect(try coder.decodeUInt64(forKey: "max") == UInt64.max)
    #expect(try coder.decodeInt(forKey: "text") == 123)
  }

  @Test("COD-003: the real defaults accept either width and integers")
  func realConversions() throws {
    let coder = MinimalDecodingCoder([
      "float": .value(.float(1.5)), "double": .value(.double(2.5)), "integer": .value(.integer(3)),
      "unsigned": .value(.unsignedInteger(UInt64.max)),
    ])
    #expect(try coder.decodeDouble(forKey: "float") == 1.5)
    #expect(try coder.decodeDouble(forKey: "integer") == 3)
    #expect(try coder.decodeDouble(forKey: "unsigned") == Double(UInt64.max))
    #expect(try coder.decodeFloat(forKey: "double") == 2.5)
    #expect(try coder.decodeFloat(forKey: "float") == 1.5)
  }

  @Test("COD-003: a primitive default reading a key that holds a string object reads the string's value")
  func primitiveFromStringObject() throws {
    let coder = MinimalDecodingCoder(["number": .object("17"), "real": .object("0.25")])
    #expect(try coder.decodeInt64(forKey: "number") == 17)
    #expect(try coder.decodeDouble(forKey: "real") == 0.25)
  }

  @Test("COD-032: a type mismatch in a primitive default throws typeMismatch located at the key")
  func primitiveMismatches() {
    let coder = MinimalDecodingCoder([
      "real": .value(.double(1)), "bytes": .value(.bytes(Data([1]))), "flag": .value(.bool(true)),
      "integer": .value(.integer(300)), "huge": .value(.unsignedInteger(UInt64.max)),
      "word": .value(.string("maybe")), "node": .object(MinimalNode()),
    ])
    expectArchiveError(.typeMismatch, at: "real") { _ = try coder.decodeBool(forKey: "real") }
    expectArchiveError(.typeMismatch, at: "word") { _ = try coder.decodeBool(forKey: "word") }
    expectArchiveError(.typeMismatch, at: "bytes") { _ = try coder.decodeInt64(forKey: "bytes") }
    expectArchiveError(.typeMismatch, at: "huge") { _ = try coder.decodeInt64(forKey: "huge") }
    expectArchiveError(.typeMismatch, at: "integer") { _ = try coder.decodeInteger(Int8.self, forKey: "integer") }
    expectArchiveError(.typeMismatch, at: "word") { _ = try coder.decodeInt32(forKey: "word") }
    expectArchiveError(.typeMismatch, at: "flag") { _ = try coder.decodeDouble(forKey: "flag") }
    expectArchiveError(.typeMismatch, at: "integer") { _ = try coder.decodeBytes(forKey: "integer") }
    // The core's own error passes through the default unchanged.
    expectArchiveError(.typeMismatch, at: "node") { _ = try coder.decodeInt64(forKey: "node") }
  }

  @Test("COD-032: an object default throws typeMismatch located at the key when the object has another type")
  func objectMismatches() {
    let coder = MinimalDecodingCoder(["number": .object(5), "text": .object("x")])
    expectArchiveError(.typeMismatch, at: "number") { _ = try coder.decodeString(forKey: "number") }
    expectArchiveError(.typeMismatch, at: "text") { _ = try coder.decodeData(forKey: "text") }
    expectArchiveError(.typeMismatch, at: "text") { _ = try coder.decodeObject(of: MinimalNode.self, forKey: "text") }
  }

  @Test("COD-020: the typed object defaults pass the registry's allowed names only under secure coding")
  func allowedClassesUnderSecureCoding() throws {
    let open = MinimalDecodingCoder(["text": .object("a")])
    #expect(try open.decodeString(forKey: "text") == "a")
    #expect(open.objectCalls.count == 1)
    #expect(open.objectCalls.first?.allowedClasses == nil)

    let secure = MinimalDecodingCoder(["text": .object("a")], requiresSecureCoding: true)
    #expect(try secure.decodeString(forKey: "text") == "a")
    #expect(secure.objectCalls.first?.allowedClasses == ClassRegistry.shared.allowedClassNames(for: [String.self]))
    #expect(secure.objectCalls.first?.allowedClasses?.contains("NSString") == true)
  }

  @Test("COD-020: the untyped decodeObject(forKey:) default allows any class; decodeObject(of:forKey:) with a list")
  func untypedAndListedObjects() throws {
    let coder = MinimalDecodingCoder(["text": .object("a")], requiresSecureCoding: true)
    #expect(try coder.decodeObject(forKey: "text") as? String == "a")
    #expect(coder.objectCalls.last?.allowedClasses == nil)
    #expect(try coder.decodeObject(of: [String.self, Data.self], forKey: "text") as? String == "a")
    #expect(
      coder.objectCalls.last?.allowedClasses
        == ClassRegistry.shared.allowedClassNames(for: [String.self, Data.self]))
  }

  @Test("COD-022: decodeArrayOfObjects' default casts every element and names the first that is not a T")
  func arrayOfObjects() throws {
    let coder = MinimalDecodingCoder(
      ["names": .object(["a", "b"] as [Any]), "mixed": .object(["a", 1] as [Any]), "single": .object("a")],
      requiresSecureCoding: true)
    #expect(try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "names") == ["a", "b"])
    let allowed = try #require(coder.objectCalls.last?.allowedClasses)
    #expect(allowed.isSuperset(of: ClassRegistry.shared.allowedClassNames(for: [[Any].self])))
    #expect(allowed.isSuperset(of: ClassRegistry.shared.allowedClassNames(for: [String.self])))
    expectArchiveError(.typeMismatch, at: "mixed[1]") {
      _ = try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "mixed")
    }
    expectArchiveError(.typeMismatch, at: "single") {
      _ = try coder.decodeArrayOfObjects(ofClass: String.self, forKey: "single")
    }
  }

  @Test("COD-010: decodeReference's default defers through decodeDeferred and sets the key path when linked")
  func referenceThroughDeferred() throws {
    let parent = MinimalNode()
    let coder = MinimalDecodingCoder(["parent": .object(parent), "wrong": .object("text")])
    let child = MinimalNode()
    try coder.decodeReference(forKey: "parent", into: \MinimalNode.parent)
    #expect(child.parent == nil, "nothing is set before the link phase")
    try coder.link(child)
    #expect(child.parent === parent)

    let mismatched = MinimalDecodingCoder(["wrong": .object("text")])
    try mismatched.decodeReference(forKey: "wrong", into: \MinimalNode.parent)
    expectArchiveError(.typeMismatch, at: "wrong") { try mismatched.link(MinimalNode()) }
  }

  @Test("COD-030: under setErrorAndReturn a failing default records the error and every later call returns zero")
  func setErrorAndReturn() throws {
    let coder = MinimalDecodingCoder(
      ["real": .value(.double(1)), "count": .value(.integer(4)), "text": .object("a")], policy: .setErrorAndReturn)
    #expect(try coder.decodeBool(forKey: "real") == false)
    let recorded = try #require(coder.error as? ArchiveError)
    #expect(recorded.code == .typeMismatch)
    #expect(recorded.location.keyPath == "real")
    // Later calls return the fallback without reaching the core, and the first error stays.
    let callsBefore = coder.valueCalls.count
    #expect(try coder.decodeInt64(forKey: "count") == 0)
    #expect(try coder.decodeString(forKey: "text") == nil)
    #expect(coder.valueCalls.count == callsBefore)
    #expect((coder.error as? ArchiveError)?.location.keyPath == "real")
  }

  @Test("COD-030: under throwError (the default) a failing default throws and records nothing")
  func throwErrorRecordsNothing() {
    let coder = MinimalDecodingCoder(["real": .value(.double(1))])
    expectArchiveError(.typeMismatch, at: "real") { _ = try coder.decodeBool(forKey: "real") }
    #expect(coder.error == nil)
  }

  @Test("The registry requirement defaults to the shared registry")
  func registryDefault() {
    #expect(MinimalDecodingCoder([:]).registry === ClassRegistry.shared)
  }

  // MARK: Encoding

  @Test("COD-001: every integer overload writes an inline integer; UInt64 above Int64.max the unsigned form")
  func integersEncodeInline() {
    let coder = MinimalEncodingCoder()
    coder.encode(Int.min, forKey: "int")
    coder.encode(Int8(-8), forKey: "int8")
    coder.encode(Int16(-16), forKey: "int16")
    coder.encode(Int32(-32), forKey: "int32")
    coder.encode(Int64.max, forKey: "int64")
    coder.encode(UInt(7), forKey: "uint")
    coder.encode(UInt8(8), forKey: "uint8")
    coder.encode(UInt16(16), forKey: "uint16")
    coder.encode(UInt32.max, forKey: "uint32")
    coder.encode(UInt64(Int64.max), forKey: "uint64-fits")
    coder.encode(UInt64.max, forKey: "uint64-huge")
    #expect(coder.value("int") == .integer(Int64.min))
    #expect(coder.value("int8") == .integer(-8))
    #expect(coder.value("int16") == .integer(-16))
    #expect(coder.value("int32") == .integer(-32))
    #expect(coder.value("int64") == .integer(Int64.max))
    #expect(coder.value("uint") == .integer(7))
    #expect(coder.value("uint8") == .integer(8))
    #expect(coder.value("uint16") == .integer(16))
    #expect(coder.value("uint32") == .integer(Int64(UInt32.max)))
    #expect(coder.value("uint64-fits") == .integer(Int64.max))
    #expect(coder.value("uint64-huge") == .unsignedInteger(UInt64.max))
    #expect(coder.entries.count == 11)
  }

  @Test("COD-001: booleans, reals and raw bytes write inline values of their own kind")
  func otherPrimitivesEncodeInline() {
    let coder = MinimalEncodingCoder()
    coder.encode(true, forKey: "flag")
    coder.encode(Float(1.5), forKey: "float")
    coder.encode(-0.0, forKey: "double")
    coder.encodeBytes(Data(), forKey: "bytes")
    #expect(coder.value("flag") == .bool(true))
    #expect(coder.value("float") == .float(1.5))
    #expect(coder.value("double") == .double(-0.0))
    #expect(coder.value("bytes") == .bytes(Data()))
  }

  @Test("COD-001: strings, data and Coding instances are written as objects through encodeObject(_:forKey:)")
  func objectsThroughEncodeObject() {
    let coder = MinimalEncodingCoder()
    let node = MinimalNode()
    coder.encode("text" as String?, forKey: "string")
    coder.encode(Data([1, 2]) as Data?, forKey: "data")
    coder.encode(nil as String?, forKey: "none")
    coder.encode(node as (any Coding)?, forKey: "node")
    #expect(coder.object("string").flatMap { $0 as? String } == "text")
    #expect(coder.object("data").flatMap { $0 as? Data } == Data([1, 2]))
    #expect(coder.object("none").map { $0 == nil } == true, "nil is written as a nil object, not left out")
    #expect(coder.object("node").flatMap { $0 as? MinimalNode } === node)
    #expect(coder.entries.allSatisfy { if case .object = $0.entry { true } else { false } })
  }

  @Test("The encoding defaults: requiresSecureCoding is false and failWithError(_:) records nothing")
  func encodingRequirementDefaults() {
    let coder = MinimalEncodingCoder()
    #expect(coder.requiresSecureCoding == false)
    coder.failWithError(ArchiveError(.other, "ignored"))
    #expect(coder.entries.isEmpty)
  }
}
