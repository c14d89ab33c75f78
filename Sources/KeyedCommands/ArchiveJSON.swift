import ArchiveCoding
import Foundation
import PropertyList

/// Renders a keyed archive's object graph as canonical JSON (CLI-011): Foundation classes as JSON values, other
/// classes as `{"$class": …}` objects with `$id`/`$ref` for objects reached more than once, `{"$cycle": N}` where
/// a cycle of Foundation collections closes. No class needs to be registered.
struct ArchiveJSON {
  let objects: [PropertyListValue]
  private var referenceCounts: [Int: Int] = [:]
  private var written: Set<Int> = []
  private var collectionPath: Set<Int> = []
  private var budget = 50_000_000
  private var depth = 0
  private let maxDepth = 2000
  private var stackGuard = StackGuard()
  private var counting = true

  static func render(_ archive: PropertyListValue, pretty: Bool) throws -> String {
    guard let top = archive.dictionaryValue, let objects = top["$objects"]?.arrayValue,
      let scope = top["$top"]?.dictionaryValue
    else {
      throw ArchiveError(.corruptData, "not a keyed archive")
    }
    var walker = ArchiveJSON(objects: objects)
    let rootOnly = scope.count == 1 && scope["root"] != nil
    _ = try walker.topNode(scope, rootOnly: rootOnly)
    walker.counting = false
    walker.collectionPath = []
    return CanonicalJSON.text(try walker.topNode(scope, rootOnly: rootOnly), pretty: pretty)
  }

  private mutating func topNode(_ scope: PropertyListDictionary, rootOnly: Bool) throws -> CanonicalJSON.Node {
    if rootOnly, let root = scope["root"] { return try node(root) }
    let members = try scope.entries.sorted { ($0.key.stringValue ?? "") < ($1.key.stringValue ?? "") }.map {
      (Self.unescape($0.key.stringValue ?? ""), try node($0.value))
    }
    return .object([("$top", .object(members))])
  }

  static func unescape(_ key: String) -> String { key.hasPrefix("$$") ? String(key.dropFirst()) : key }

  private mutating func spend() throws {
    budget -= 1
    guard budget >= 0 else {
      throw ArchiveError(.limitExceeded, "the object graph expands to more than 50,000,000 JSON values")
    }
  }

  /// A field value: UIDs are followed, inline arrays map element by element, other values are raw.
  private mutating func node(_ value: PropertyListValue) throws -> CanonicalJSON.Node {
    try spend()
    switch value {
    case .uid(let uid): return try object(Int(uid))
    case .array(let elements): return .array(try elements.map { try node($0) })
    default: return CanonicalJSON.node(value)
    }
  }

  private mutating func object(_ uid: Int) throws -> CanonicalJSON.Node {
    guard uid >= 0, uid < objects.count else {
      throw ArchiveError(.corruptData, "reference to object #\(uid), but $objects has \(objects.count) entries")
    }
    if uid == 0 { return .raw("null") }
    let entry = objects[uid]
    guard case .dictionary(let fields) = entry, case .uid(let classUID)? = fields["$class"] else {
      if entry == "$null" { return .raw("null") }
      return CanonicalJSON.node(entry)
    }
    guard Int(classUID) < objects.count, let classDescription = objects[Int(classUID)].dictionaryValue,
      let className = classDescription["$classname"]?.stringValue
    else {
      throw ArchiveError(
        .corruptData, "object #\(uid): $class does not refer to a class description", at: .init(objectIndex: uid))
    }
    depth += 1
    defer { depth -= 1 }
    if depth == 1 { stackGuard = StackGuard() }
    guard depth <= maxDepth, stackGuard.hasRoom() else {
      throw ArchiveError(
        .limitExceeded, "objects nest deeper than \(maxDepth) or than this thread's stack allows",
        at: .init(objectIndex: uid, className: className))
    }
    if let foundation = try foundationNode(className, fields, uid: uid) { return foundation }
    // A class object: full at its first appearance (with $id when reached again), $ref afterwards.
    if counting {
      referenceCounts[uid, default: 0] += 1
      if referenceCounts[uid, default: 0] > 1 { return .raw("null") }
    } else if written.contains(uid) {
      return .object([("$ref", .raw(String(uid)))])
    } else {
      written.insert(uid)
    }
    var members: [(String, CanonicalJSON.Node)] = [("$class", .raw(CanonicalJSON.string(className)))]
    if !counting, referenceCounts[uid, default: 0] > 1 { members.append(("$id", .raw(String(uid)))) }
    for entry in fields.entries {
      guard let key = entry.key.stringValue, key != "$class" else { continue }
      members.append((Self.unescape(key), try node(entry.value)))
    }
    return CanonicalJSON.sortedObject(members)
  }

  /// Foundation collections and value classes, or `nil` for other classes.
  private mutating func foundationNode(
    _ className: String, _ fields: PropertyListDictionary, uid: Int
  ) throws
    -> CanonicalJSON.Node?
  {
    func collection(_ body: (inout ArchiveJSON) throws -> CanonicalJSON.Node) throws -> CanonicalJSON.Node {
      if collectionPath.contains(uid) { return .object([("$cycle", .raw(String(uid)))]) }
      collectionPath.insert(uid)
      defer { collectionPath.remove(uid) }
      return try body(&self)
    }
    switch className {
    case "NSArray", "NSMutableArray":
      return try collection { .array(try $0.elementsOf(fields)) }
    case "NSSet", "NSMutableSet":
      return try collection { .object([("$set", .array(CanonicalJSON.sortedByText(try $0.elementsOf(fields))))]) }
    case "NSOrderedSet", "NSMutableOrderedSet":
      return try collection { .object([("$orderedSet", .array(try $0.elementsOf(fields)))]) }
    case "NSDictionary", "NSMutableDictionary":
      return try collection { walker in
        let keys = fields["NS.keys"]?.arrayValue ?? []
        let values = fields["NS.objects"]?.arrayValue ?? []
        guard keys.count == values.count else {
          throw ArchiveError(
            .corruptData, "NS.keys has \(keys.count) entries but NS.objects has \(values.count)",
            at: .init(objectIndex: uid, className: className))
        }
        var pairs: [(CanonicalJSON.Node, CanonicalJSON.Node)] = []
        for (k, v) in zip(keys, values) { pairs.append((try walker.node(k), try walker.node(v))) }
        let stringKeys = pairs.allSatisfy { if case .raw(let t) = $0.0, t.hasPrefix("\"") { true } else { false } }
        if stringKeys {
          return CanonicalJSON.sortedObject(
            pairs.map { key, value in
              guard case .raw(let text) = key,
                let decoded = try? JSONDecoder().decode(String.self, from: Data(text.utf8))
              else { return ("", value) }
              return (decoded, value)
            })
        }
        return .object([
          (
            "$dictionary",
            .array(
              pairs.map { (CanonicalJSON.text($0.0), CanonicalJSON.Node.array([$0.0, $0.1])) }.sorted { $0.0 < $1.0 }
                .map(\.1))
          )
        ])
      }
    case "NSString", "NSMutableString":
      if let string = fields["NS.string"]?.stringValue { return .raw(CanonicalJSON.string(string)) }
      if case .data(let bytes)? = fields["NS.bytes"] {
        return .raw(CanonicalJSON.string(String(decoding: bytes, as: UTF8.self)))
      }
      if case .uid? = fields["NS.string"] { return try node(fields["NS.string"] ?? .string("")) }
      return nil
    case "NSData", "NSMutableData":
      if case .data(let bytes)? = fields["NS.data"] ?? fields["NS.bytes"] {
        return .object([("$data", .raw(CanonicalJSON.string(bytes.base64EncodedString())))])
      }
      if case .uid? = fields["NS.data"] { return try node(fields["NS.data"] ?? .data(Data())) }
      return nil
    case "NSDate":
      switch fields["NS.time"] {
      case .real(let t)?: return .object([("$date", CanonicalJSON.real(t))])
      case .float(let t)?: return .object([("$date", CanonicalJSON.real(Double(t)))])
      case .integer(let t)?: return .object([("$date", .raw(String(t)))])
      default: return nil
      }
    case "NSUUID":
      guard case .data(let bytes)? = fields["NS.uuidbytes"], bytes.count == 16 else { return nil }
      let b = [UInt8](bytes)
      let uuid = UUID(
        uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
      return .object([("$uuid", .raw(CanonicalJSON.string(uuid.uuidString.uppercased())))])
    case "NSURL":
      guard let url = try resolveURL(fields, depth: 0) else { return nil }
      return .object([("$url", .raw(CanonicalJSON.string(url.absoluteString)))])
    case "NSNull":
      return .object([("$class", .raw("\"NSNull\""))])
    case "NSValue":
      let special = fields["NS.special"]?.integerValue ?? 0
      func numbers(_ key: String) throws -> [CanonicalJSON.Node] {
        let text: String
        switch fields[key] {
        case .uid(let u)?: text = Int(u) < objects.count ? objects[Int(u)].stringValue ?? "" : ""
        case .string(let s)?: text = s
        default: text = ""
        }
        return text.split(whereSeparator: { "{}, \t\n".contains($0) }).compactMap { Double($0) }.map(CanonicalJSON.real)
      }
      func number(_ key: String) -> CanonicalJSON.Node {
        switch fields[key] {
        case .uid(let u)? where Int(u) < objects.count: CanonicalJSON.node(objects[Int(u)])
        case let value?: CanonicalJSON.node(value)
        case nil: .raw("0")
        }
      }
      let value: (String, CanonicalJSON.Node)
      switch special {
      case 1: value = ("point", .array(try numbers("NS.pointval")))
      case 2: value = ("size", .array(try numbers("NS.sizeval")))
      case 3: value = ("rect", .array(try numbers("NS.rectval")))
      case 4: value = ("range", .array([number("NS.rangeval.location"), number("NS.rangeval.length")]))
      default: return nil
      }
      return .object([("$class", .raw("\"NSValue\"")), value])
    default:
      return nil
    }
  }

  private mutating func elementsOf(_ fields: PropertyListDictionary) throws -> [CanonicalJSON.Node] {
    if let list = fields["NS.objects"]?.arrayValue { return try list.map { try node($0) } }
    var result: [CanonicalJSON.Node] = []
    var i = 0
    while let element = fields["NS.object.\(i)"] {
      result.append(try node(element))
      i += 1
    }
    return result
  }

  private func resolveURL(_ fields: PropertyListDictionary, depth: Int) throws -> URL? {
    guard depth < 16 else { return nil }
    var relative: String?
    switch fields["NS.relative"] {
    case .uid(let u)? where Int(u) < objects.count: relative = objects[Int(u)].stringValue
    case .string(let s)?: relative = s
    default: relative = nil
    }
    guard let relative else { return nil }
    var base: URL?
    if case .uid(let u)? = fields["NS.base"], u != 0, Int(u) < objects.count,
      let baseFields = objects[Int(u)].dictionaryValue
    {
      base = try resolveURL(baseFields, depth: depth + 1)
    }
    return URL(string: relative, relativeTo: base)?.absoluteURL
  }
}
