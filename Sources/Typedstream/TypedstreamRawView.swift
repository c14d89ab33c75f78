import ArchiveCoding
import Foundation
import FoundationForms
import KeyedArchive

/// The raw JSON view of a typedstream (TS-060 to TS-066): every value as the stream stored it, each object in full
/// where the stream stored it and `{"$ref": id}` elsewhere.
package struct TypedstreamRawView {
  let decoder: TypedstreamDecoder
  private var written: [Bool]
  private var budget = TypedstreamViewBudget()

  package init(_ decoder: TypedstreamDecoder, budget: TypedstreamViewBudget) {
    self.decoder = decoder
    self.budget = budget
    written = Array(repeating: false, count: decoder.objectCount)
  }

  package mutating func archive(_ archive: TypedstreamArchive) throws -> CanonicalJSON.Node {
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
