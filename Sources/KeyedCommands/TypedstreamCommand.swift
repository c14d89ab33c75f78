import ArchiveCoding
import ArchiveComparison
import ArchiveSupport
import Foundation
import KeyedArchive
import PropertyList
import Typedstream

/// What the `keyed` tool does with a typedstream (NSArchiver data): the raw and decoded JSON views of `dump`,
/// `validate` and `convert` (`Specs/Typedstream.md`, TS-060 onwards).
package enum TypedstreamCommand {
  /// `true` when `data` starts with a typedstream header (`\x04\x0bstreamtyped` or `\x04\x0btypedstream`).
  package static func isTypedstream(_ data: Data) -> Bool { TypedstreamFormat.hasMagic(data) }

  /// `dump --raw --json`: the stream itself in the raw view (TS-060).
  /// - Throws: `ArchiveError` when the stream is malformed or its view passes the expansion bound.
  package static func rawJSON(_ data: Data, pretty: Bool = false) throws -> String {
    try rawJSON(data, pretty: pretty, budget: TypedstreamViewBudget())
  }

  static func rawJSON(_ data: Data, pretty: Bool, budget: TypedstreamViewBudget) throws -> String {
    let archive = try TypedstreamReader.read(data)
    var view = RawView(try TypedstreamDecoder(archive), budget: budget)
    return CanonicalJSON.text(try view.archive(archive), pretty: pretty)
  }

  /// `dump --json`: the decoded values in the canonical JSON (TS-070).
  /// - Throws: `ArchiveError` when the stream is malformed or its view passes the expansion bound.
  package static func decodedJSON(_ data: Data, pretty: Bool = false) throws -> String {
    try decodedJSON(data, pretty: pretty, budget: TypedstreamViewBudget())
  }

  static func decodedJSON(_ data: Data, pretty: Bool, budget: TypedstreamViewBudget) throws -> String {
    CanonicalJSON.text(try decodedGraph(data, budget: budget), pretty: pretty)
  }

  /// The decoded values as canonical JSON nodes (what `dump --json` prints and `diff` compares).
  /// - Throws: `ArchiveError` when the stream is malformed or its view passes the expansion bound.
  static func decodedGraph(
    _ data: Data, budget: TypedstreamViewBudget = TypedstreamViewBudget()
  ) throws -> CanonicalJSON.Node {
    var view = try DecodedView(try TypedstreamReader.read(data), budget: budget)
    return try view.render()
  }

  /// `validate`: reads the whole stream and decodes its Foundation values; returns the one-line summary.
  /// - Throws: `ArchiveError` when the stream is malformed.
  package static func validate(_ data: Data, name: String) throws -> String {
    let archive = try TypedstreamReader.read(data)
    var view = try DecodedView(archive)
    _ = try view.render()
    return "\(name): valid typedstream (\(archive.byteOrder.rawValue)-endian), \(view.decoder.objectCount) objects\n"
  }

  /// `convert --format typedstream` (the default for a typedstream): the stream re-encoded (TS-053).
  /// - Throws: `ArchiveError` when the stream is malformed.
  package static func convert(_ data: Data) throws -> Data {
    try TypedstreamWriter.write(try TypedstreamReader.read(data))
  }

  /// `convert --format binary|xml` of a typedstream: its one top-level object, of Foundation's classes, as a keyed
  /// archive (COD-126).
  /// - Throws: `ArchiveError`: `classNotFound` naming an object of another class, `unsupportedFormat` for a stream
  ///   whose top level is not one object, or the stream's own errors.
  package static func keyedArchive(fromTypedstream data: Data, format: PropertyListFormat) throws -> Data {
    let unarchiver = try TypedstreamUnarchiver(data: data, registry: ClassRegistry())
    guard unarchiver.nextEncoding == "@" else {
      throw ArchiveError(
        .unsupportedFormat,
        "a keyed archive holds one root object; the stream starts with a \"\(unarchiver.nextEncoding ?? "")\" group")
    }
    let root = try unarchiver.decodeObject()
    if let encoding = unarchiver.nextEncoding {
      throw ArchiveError(
        .unsupportedFormat,
        "a keyed archive holds one root object; the stream has more top-level groups (\"\(encoding)\")")
    }
    return try KeyedArchiver.archivedData(withRootObject: root, format: format)
  }

  /// `convert --format typedstream` of a keyed archive: its root object, of Foundation's classes, as a
  /// little-endian typedstream (COD-126).
  /// - Throws: `ArchiveError`: `classNotFound` naming an object of another class, or the archive's own errors.
  package static func typedstream(fromKeyedArchive data: Data) throws -> Data {
    let root = try KeyedUnarchiver.unarchivedRootObject(from: data, registry: ClassRegistry())
    return try TypedstreamArchiver.archivedData(withRootObject: root)
  }
}

// MARK: - The tool's verbs on a typedstream

extension Context {
  /// `true` when the input starts with a typedstream header (`\x04\x0bstreamtyped` or `\x04\x0btypedstream`).
  /// Peeks as ``isNibInput(_:)`` does: standard input and streams are read once and kept, a file's first bytes
  /// are read.
  func isTypedstreamInput(_ path: String) -> Bool {
    if path == "-" {
      guard let input = try? standardInput() else { return false }  // the read's error is met again when read
      return TypedstreamCommand.isTypedstream(input)
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
      return false
    }
    if !Self.isRegularFile(path) {
      guard let data = try? readStream(path) else { return false }
      return TypedstreamCommand.isTypedstream(data)
    }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    return TypedstreamCommand.isTypedstream(handle.readData(ofLength: 13))
  }

  /// `dump` of a typedstream: `--raw --json` the raw view, `--json` the decoded view, otherwise the decoded view
  /// as an indented tree (TS-060, TS-070).
  mutating func dumpTypedstream(_ path: String, raw: Bool, json: Bool, pretty: Bool) throws {
    let data = try read(path)
    do {
      if raw {
        output += try TypedstreamCommand.rawJSON(data, pretty: pretty || !json) + "\n"
      } else if json {
        output += try TypedstreamCommand.decodedJSON(data, pretty: pretty) + "\n"
      } else {
        var view = try DecodedView(try TypedstreamReader.read(data))
        output += TreeText.render(try view.render())
      }
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
  }

  /// `validate` of a typedstream: reads it whole and decodes its Foundation objects, then prints one line.
  mutating func validateTypedstream(_ path: String) throws {
    let data = try read(path)
    do {
      output += try TypedstreamCommand.validate(data, name: name(path))
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
  }

  /// `convert` of a typedstream: `--format typedstream` (the default) re-encodes it; `binary` and `xml` write its
  /// root object as a keyed archive when its classes are Foundation's (exit 65 naming the class otherwise).
  mutating func convertTypedstream(_ path: String, to out: String, format: String?) throws {
    let keyedFormat: PropertyListFormat?
    switch format {
    case nil, "typedstream": keyedFormat = nil
    case "binary": keyedFormat = .binary
    case "xml": keyedFormat = .xml
    default: throw UsageError(message: "unknown format '\(format ?? "")' (expected typedstream, binary or xml)")
    }
    let data = try read(path)
    let encoded: Data
    do {
      if let keyedFormat {
        encoded = try TypedstreamCommand.keyedArchive(fromTypedstream: data, format: keyedFormat)
      } else {
        encoded = try TypedstreamCommand.convert(data)
      }
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
    try AtomicFile.write(encoded, to: URL(fileURLWithPath: out))
  }

  /// `convert --format typedstream` of a keyed archive: its root object as a typedstream when its classes are
  /// Foundation's (exit 65 naming the class otherwise).
  mutating func convertToTypedstream(_ path: String, to out: String) throws {
    let data = try read(path)
    let encoded: Data
    do {
      encoded = try TypedstreamCommand.typedstream(fromKeyedArchive: data)
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
    try AtomicFile.write(encoded, to: URL(fileURLWithPath: out))
  }
}

/// The bound on what a view of a stream expands to (TS-066): a shared string, class or Foundation value is
/// written in full wherever it appears, so a small stream can stand for a large view.
struct TypedstreamViewBudget {
  private let maxValues: Int
  private let maxBytes: Int
  private var values: Int
  private var bytes: Int

  /// A budget of `maxValues` JSON values and `maxBytes` bytes of text and data.
  init(maxValues: Int = ExpansionBound.maxValues, maxBytes: Int = ExpansionBound.maxTextBytes) {
    self.maxValues = maxValues
    self.maxBytes = maxBytes
    values = maxValues
    bytes = maxBytes
  }

  /// Counts one value and `text` bytes of strings or data; `limitExceeded` past either bound.
  mutating func spend(_ text: Int = 0) throws {
    values -= 1
    bytes -= text
    guard values >= 0, bytes >= 0 else {
      throw ArchiveError(
        .limitExceeded,
        "the stream's JSON view passes \(maxValues) values or \(maxBytes) bytes of text (a shared value is written "
          + "in full wherever it appears)")
    }
  }
}

// MARK: - Raw view

/// The raw JSON view of a typedstream (TS-060 to TS-066): every value as the stream stored it, each object in full
/// where the stream stored it and `{"$ref": id}` elsewhere.
private struct RawView {
  let decoder: TypedstreamDecoder
  private var written: [Bool]
  private var budget = TypedstreamViewBudget()

  init(_ decoder: TypedstreamDecoder, budget: TypedstreamViewBudget) {
    self.decoder = decoder
    self.budget = budget
    written = Array(repeating: false, count: decoder.objectCount)
  }

  mutating func archive(_ archive: TypedstreamArchive) throws -> CanonicalJSON.Node {
    CanonicalJSON.sortedObject([
      ("byteOrder", .raw(CanonicalJSON.string(archive.byteOrder.rawValue))),
      ("streamerVersion", .raw(String(archive.streamerVersion))),
      ("systemVersion", .raw(String(archive.systemVersion))),
      ("values", .array(try decoder.topLevel.map { try node($0) })),
    ])
  }

  private func typed(_ type: String, _ members: [(String, CanonicalJSON.Node)]) -> CanonicalJSON.Node {
    CanonicalJSON.sortedObject([("$type", .raw(CanonicalJSON.string(type)))] + members)
  }

  mutating func node(_ value: TypedstreamValue) throws -> CanonicalJSON.Node {
    try budget.spend()
    switch value {
    case .signed(let code, let v): return typed(code.description, [("value", .raw(String(v)))])
    case .unsigned(let code, let v): return typed(code.description, [("value", .raw(String(v)))])
    case .bool(let v): return typed("B", [("value", .raw(v != 0 ? "true" : "false"))])
    case .float(let bits): return typed("f", [("value", Self.real(Double(Float(bitPattern: bits))))])
    case .double(let bits): return typed("d", [("value", Self.real(Double(bitPattern: bits)))])
    case .bytes(let raw): return try text("+", raw)
    case .cString(nil): return try text("*", nil)
    case .cString(.literal(let raw)?): return try text("*", raw)
    case .atom(let raw): return try text("%", raw)
    case .selector(let raw): return try text(":", raw)
    case .classValue(nil): return typed("#", [("value", .raw("null"))])
    case .classValue(.literal(let objectClass)?):
      var chain = [objectClass]
      while case .literal(let superclass)? = chain[chain.count - 1].superclass { chain.append(superclass) }
      return typed("#", [("value", CanonicalJSON.sortedObject(try classMembers(chain)))])
    case .object(nil): return .raw("null")
    case .object(.reference(let ordinal)?):
      guard !written[ordinal] else { return .object([("$ref", .raw(String(ordinal)))]) }
      written[ordinal] = true
      var members = try classMembers(decoder.classChains[ordinal])
      members.append(("$id", .raw(String(ordinal))))
      members.append(("$fields", .array(try decoder.fields[ordinal].map { try node($0) })))
      return CanonicalJSON.sortedObject(members)
    case .byteArray(let type, let raw):
      try budget.spend(raw.count * 2)
      return typed(Self.name(type.encoding), [("hex", .raw(CanonicalJSON.string(Self.hex(raw))))])
    case .array(let type, let elements), .structure(let type, let elements):
      return typed(Self.name(type.encoding), [("value", .array(try elements.map { try node($0) }))])
    case .ignored: return typed("!", [("value", .raw("null"))])
    case .cString(.reference?), .classValue(.reference?), .object(.literal?):
      // TypedstreamDecoder resolves these.
      return .raw("null")
    }
  }

  /// `$class`, `$version` and `$super` of a class chain, the class first (TS-063).
  private mutating func classMembers(_ chain: [TypedstreamClass]) throws -> [(String, CanonicalJSON.Node)] {
    guard let first = chain.first else { return [] }
    var supers: [CanonicalJSON.Node] = []
    for objectClass in chain.dropFirst() {
      try budget.spend(objectClass.name.count)
      supers.append(
        CanonicalJSON.sortedObject([
          ("$class", .raw(CanonicalJSON.string(Self.name(objectClass.name)))),
          ("$version", .raw(String(objectClass.version))),
        ]))
    }
    try budget.spend(first.name.count)
    return [
      ("$class", .raw(CanonicalJSON.string(Self.name(first.name)))), ("$version", .raw(String(first.version))),
      ("$super", .array(supers)),
    ]
  }

  private mutating func text(_ type: String, _ raw: [UInt8]?) throws -> CanonicalJSON.Node {
    guard let raw else { return typed(type, [("value", .raw("null"))]) }
    try budget.spend(raw.count * 2)
    if let string = String(validating: raw, as: UTF8.self) {
      return typed(type, [("value", .raw(CanonicalJSON.string(string)))])
    }
    return typed(type, [("hex", .raw(CanonicalJSON.string(Self.hex(raw))))])
  }

  /// A finite real as the canonical JSON writes it; NaN and infinities as the strings the raw view uses.
  static func real(_ value: Double) -> CanonicalJSON.Node {
    if value.isNaN { return .raw("\"NaN\"") }
    if value.isInfinite { return .raw(value < 0 ? "\"-Infinity\"" : "\"Infinity\"") }
    return CanonicalJSON.real(value)
  }

  /// Lower-case hexadecimal digits of bytes.
  static func hex(_ raw: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(raw.count * 2)
    for byte in raw {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A name (class, type encoding) as text: UTF-8, each byte of an invalid sequence as `\xNN` (TS-065).
  static func name(_ raw: [UInt8]) -> String {
    if let valid = String(validating: raw, as: UTF8.self) { return valid }
    var out = ""
    var index = 0
    while index < raw.count {
      // The longest valid UTF-8 sequence starting here, else one escaped byte.
      var decoded: String?
      for length in stride(from: min(4, raw.count - index), through: 1, by: -1) {
        if let piece = String(validating: raw[index..<index + length], as: UTF8.self) {
          decoded = piece
          index += length
          break
        }
      }
      if let decoded {
        out += decoded
      } else {
        out += "\\x" + hex([raw[index]])
        index += 1
      }
    }
    return out
  }
}

// MARK: - Decoded view

/// The decoded JSON view of a typedstream (TS-070 to TS-079): Foundation objects in their canonical JSON forms,
/// other objects as `{"$class": name, "$fields": [...]}` with `$id` / `$ref` when reached more than once.
private struct DecodedView {
  let decoder: TypedstreamDecoder
  private var forms: [TypedstreamDecoder.Form?]
  private var reached: [Int]
  private var written: Set<Int> = []
  private var inProgress: Set<Int> = []
  private var counting = true
  private var budget = TypedstreamViewBudget()
  private var depth = 0
  private let stack = StackGuard()

  private let initialBudget: TypedstreamViewBudget

  init(_ archive: TypedstreamArchive, budget: TypedstreamViewBudget = TypedstreamViewBudget()) throws {
    decoder = try TypedstreamDecoder(archive)
    initialBudget = budget
    forms = Array(repeating: nil, count: decoder.objectCount)
    reached = Array(repeating: 0, count: decoder.objectCount)
  }

  /// The view: the one top-level value, or an array of them when the stream holds several.
  mutating func render() throws -> CanonicalJSON.Node {
    // The first pass counts how often each object of another class is reached (for `$id`); the second writes.
    for pass in 0..<2 {
      counting = pass == 0
      written = []
      budget = initialBudget
      let nodes = try decoder.topLevel.map { try node($0) }
      if !counting { return nodes.count == 1 ? nodes[0] : .array(nodes) }
    }
    return .array([])
  }

  private static func string(_ text: String) -> CanonicalJSON.Node { .raw(CanonicalJSON.string(text)) }

  private static func data(_ raw: [UInt8]) -> CanonicalJSON.Node {
    .object([("$data", string(Data(raw).base64EncodedString()))])
  }

  /// A field or top-level value.
  mutating func node(_ value: TypedstreamValue) throws -> CanonicalJSON.Node {
    try budget.spend()
    switch value {
    case .signed(_, let v): return .raw(String(v))
    case .unsigned(_, let v): return .raw(String(v))
    case .bool(let v): return .raw(v != 0 ? "true" : "false")
    case .float(let bits): return CanonicalJSON.real(Double(Float(bitPattern: bits)))
    case .double(let bits): return CanonicalJSON.real(Double(bitPattern: bits))
    case .bytes(nil), .cString(nil), .atom(nil), .selector(nil), .classValue(nil), .object(nil), .ignored:
      return .raw("null")
    case .bytes(let raw?), .cString(.literal(let raw)?), .atom(let raw?), .selector(let raw?):
      try budget.spend(raw.count)
      if let text = String(validating: raw, as: UTF8.self) { return Self.string(text) }
      return Self.data(raw)
    case .cString(.reference?): return .raw("null")
    case .classValue(.literal(let objectClass)?):
      return Self.string(TypedstreamDecoder.text(objectClass.name))
    case .classValue(.reference?): return .raw("null")
    case .object(.reference(let ordinal)?): return try object(ordinal)
    case .object(.literal?): return .raw("null")
    case .byteArray(_, let raw):
      try budget.spend(raw.count)
      return Self.data(raw)
    case .array(_, let elements), .structure(_, let elements): return .array(try elements.map { try node($0) })
    }
  }

  private mutating func formOf(_ ordinal: Int) throws -> TypedstreamDecoder.Form {
    if let known = forms[ordinal] { return known }
    let computed = try decoder.form(of: ordinal)
    forms[ordinal] = computed
    return computed
  }

  private mutating func member(_ ordinal: Int?) throws -> CanonicalJSON.Node {
    guard let ordinal else { return .raw("null") }
    return try object(ordinal)
  }

  /// An object reached through a field, a member or a top-level value.
  private mutating func object(_ ordinal: Int) throws -> CanonicalJSON.Node {
    try budget.spend()
    let form = try formOf(ordinal)
    if case .other = form { return try classObject(ordinal) }
    if case .value = form {
    } else if case .null = form {
    } else {
      if inProgress.contains(ordinal) { return .object([("$cycle", .raw(String(ordinal)))]) }
    }
    try ExpansionBound.checkDepth(depth, stack: stack, objectIndex: ordinal, className: decoder.className(of: ordinal))
    depth += 1
    inProgress.insert(ordinal)
    defer {
      depth -= 1
      inProgress.remove(ordinal)
    }
    switch form {
    case .string(let text):
      try budget.spend(text.utf8.count)
      return Self.string(text)
    case .number(let value): return try node(value)
    case .data(let raw):
      try budget.spend(raw.count)
      return Self.data(raw)
    case .date(let seconds): return .object([("$date", CanonicalJSON.real(seconds))])
    case .url:
      return .object([("$url", Self.string(try url(ordinal)))])
    case .array(let members): return .array(try members.map { try member($0) })
    case .set(let members):
      let nodes = try members.map { try member($0) }
      return .object([("$set", .array(counting ? nodes : CanonicalJSON.sortedByText(nodes)))])
    case .dictionary(let pairs):
      var entries: [(key: CanonicalJSON.Node, value: CanonicalJSON.Node, text: String?)] = []
      for pair in pairs {
        let keyText: String? = try pair.key.flatMap { key in
          if case .string(let text) = try formOf(key) { return text }
          return nil
        }
        entries.append((try member(pair.key), try member(pair.value), keyText))
      }
      if counting { return .raw("null") }
      if entries.allSatisfy({ $0.text != nil }) {
        return CanonicalJSON.sortedObject(entries.map { ($0.text ?? "", $0.value) })
      }
      return CanonicalJSON.dictionary(entries.map { ($0.key, $0.value) })
    case .attributedString(let string, let runs):
      var text = ""
      if let string, case .string(let value) = try formOf(string) { text = value }
      try budget.spend(text.utf8.count)
      var runNodes: [CanonicalJSON.Node] = []
      for run in runs {
        try budget.spend()
        runNodes.append(.array([.raw(String(run.location)), .raw(String(run.length)), try member(run.attributes)]))
      }
      return CanonicalJSON.sortedObject([
        ("$class", Self.string("NSAttributedString")), ("string", Self.string(text)), ("runs", .array(runNodes)),
      ])
    case .null: return .object([("$class", Self.string("NSNull"))])
    case .value(let type, let value): return try nsValue(type: type, value, ordinal: ordinal)
    case .other: return try classObject(ordinal)
    }
  }

  /// An `NSURL`'s absolute string: its string resolved against its base URLs.
  private mutating func url(_ ordinal: Int) throws -> String {
    var chain: [String] = []
    var next: Int? = ordinal
    var seen: Set<Int> = []
    while let current = next {
      guard seen.insert(current).inserted else {
        throw ArchiveError(.corruptData, "the URL's base URLs form a cycle", at: .init(objectIndex: current))
      }
      guard case .url(let relative, let base) = try formOf(current) else {
        throw ArchiveError(
          .corruptData, "expected an NSURL as base URL, found \(decoder.className(of: current))",
          at: .init(objectIndex: current))
      }
      chain.append(relative)
      next = base
    }
    var resolved: URL?
    for text in chain.reversed() {
      resolved = URL(string: text, relativeTo: resolved) ?? resolved
    }
    return resolved?.absoluteString ?? chain.first ?? ""
  }

  /// An `NSValue`: geometry and ranges in their canonical forms, anything else with its type and value.
  private mutating func nsValue(type: [UInt8], _ value: TypedstreamValue, ordinal: Int) throws -> CanonicalJSON.Node {
    let name = String(decoding: type, as: UTF8.self)
    let flat = Self.numbers(value)
    let key: String?
    switch flat.count {
    case 2 where name.hasPrefix("{_NSPoint=") || name.hasPrefix("{CGPoint="): key = "point"
    case 2 where name.hasPrefix("{_NSSize=") || name.hasPrefix("{CGSize="): key = "size"
    case 2 where name.hasPrefix("{_NSRange=") || name.hasPrefix("{NSRange="): key = "range"
    case 4 where name.hasPrefix("{_NSRect=") || name.hasPrefix("{CGRect="): key = "rect"
    default: key = nil
    }
    if let key {
      return CanonicalJSON.sortedObject([("$class", Self.string("NSValue")), (key, .array(flat))])
    }
    return CanonicalJSON.sortedObject([
      ("$class", Self.string("NSValue")), ("type", Self.string(name)), ("value", try node(value)),
    ])
  }

  /// The numbers of a structure, nested structures flattened.
  private static func numbers(_ value: TypedstreamValue) -> [CanonicalJSON.Node] {
    switch value {
    case .structure(_, let fields): fields.flatMap { numbers($0) }
    case .signed(_, let v): [.raw(String(v))]
    case .unsigned(_, let v): [.raw(String(v))]
    case .float(let bits): [CanonicalJSON.real(Double(Float(bitPattern: bits)))]
    case .double(let bits): [CanonicalJSON.real(Double(bitPattern: bits))]
    default: [.raw("null"), .raw("null"), .raw("null"), .raw("null"), .raw("null")]
    }
  }

  /// An object of a class without a Foundation form: in full at its first appearance, `$ref` afterwards.
  private mutating func classObject(_ ordinal: Int) throws -> CanonicalJSON.Node {
    if counting { reached[ordinal] += 1 }
    guard written.insert(ordinal).inserted else { return .object([("$ref", .raw(String(ordinal)))]) }
    let className = decoder.className(of: ordinal)
    try ExpansionBound.checkDepth(depth, stack: stack, objectIndex: ordinal, className: className)
    // A collection met again inside this object's fields is written in full again (the object itself, met again,
    // is a `$ref`): only a cycle made of collections alone is cut.
    let enclosing = inProgress
    inProgress = []
    depth += 1
    defer {
      depth -= 1
      inProgress = enclosing
    }
    var members: [(String, CanonicalJSON.Node)] = [
      ("$class", Self.string(className)),
      ("$fields", .array(try decoder.fields[ordinal].map { try node($0) })),
    ]
    if reached[ordinal] > 1 { members.append(("$id", .raw(String(ordinal)))) }
    return CanonicalJSON.sortedObject(members)
  }
}
