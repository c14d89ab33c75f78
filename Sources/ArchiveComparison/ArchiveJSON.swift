import ArchiveCoding
import ArchiveSupport
import Foundation
import FoundationForms
import KeyedArchive
import PropertyList

/// Renders a keyed archive's object graph as canonical JSON (CLI-011): Foundation classes as JSON values, other
/// classes as `{"$class": …}` objects with `$id`/`$ref` for objects reached more than once, `{"$cycle": N}` where
/// a cycle of Foundation collections closes. No class needs to be registered.
package struct ArchiveJSON {
  /// The archive, read through its graph view.
  var archive: KeyedArchiveGraph
  /// The member that names a class object's class in the output.
  package static let classMember = CanonicalJSON.Member.className.rawValue
  /// The member that holds the top-level keys in the output when there are others than `root`: the archive's own
  /// name for them.
  package static let topMember = ArchiveKeys.top
  private var referenceCounts: [Int: Int] = [:]
  private var written: Set<Int> = []
  /// The collections being expanded, by `$objects` index: the segment they are expanded in, or 0. A segment is
  /// the stretch of the walk between two class objects (each class object's fields begin a new one). A collection
  /// met again in its own segment closes a cycle made only of collections, which is cut there; one met again
  /// across a class object is written in full again, and the class object, reached a second time, is a `$ref`.
  private var collectionPath: [Int]
  /// The segment the walk is in, and the last one begun.
  private var segment = 1
  private var segmentsBegun = 1
  /// The most JSON values a graph may expand to (each pass counts its own): CLI-011's bound. An archive of `n`
  /// objects may expand to `64 × n` values, at least a million and at most this: the output's nodes take about
  /// 120 bytes a value, so the bound keeps the dump of any archive within a few gigabytes.
  package static let defaultValueLimit = 20_000_000
  /// The most bytes of strings and data the JSON may hold, a shared string counting at every appearance.
  package static let defaultTextLimit = 512 << 20
  private let valueLimit: Int
  private var budget: Int
  private let textLimit: Int
  private var textBudget: Int
  private var depth = 0
  private var stackGuard = StackGuard()
  /// The first pass only counts (values, and how often each class object is reached, for `$id`): it builds no
  /// nodes, so a graph that expands past the budget (shared collections written in full at every appearance, 2^40
  /// values from a 1 KB file) is refused in seconds and without holding what it has walked.
  private var counting = true
  /// What a counted node returns: nothing of it is kept.
  private static let counted = CanonicalJSON.Node.raw("null")
  /// While counting: the values and bytes of text inside each collection whose expansion met neither a class
  /// object's first appearance nor a cycle. Such an expansion is the same wherever the collection appears again
  /// (none of its collections can be on the path above it, or it would have met the cycle), so a later appearance
  /// adds the count without walking: a chain of arrays that each hold the previous one twice counts in linear time.
  private var pureExpansions: [(values: Int, bytes: Int)?]
  /// The JSON of each plain entry and Foundation value object written so far (a value is the same at every
  /// appearance, and some, such as a long shared string or an `NSValue` whose geometry is one, cost more to read
  /// and escape than to keep).
  private var valueNodes: [Int: CanonicalJSON.Node] = [:]
  /// First appearances of class objects and cycle cuts so far (what makes an expansion depend on where it is).
  private var contextEvents = 0
  /// The object being walked and, in a class object, the field: where an error inside it is reported.
  private var location = ArchiveError.Location()
  /// The strings and data objects whose contents (another object) are being followed since the last collection or
  /// class object, to find a chain of them that leads back to itself.
  private var passing: Set<Int> = []

  /// What the first count of an object found it to be, so that counting it again reads none of its fields.
  private enum Counted {
    /// A Foundation collection, with the values its expansion walks in order (a dictionary's keys and values
    /// interleaved).
    case collection([PropertyListValue])
    /// A Foundation string or data object whose contents are another object.
    case passthrough(PropertyListValue)
    /// A plain entry or Foundation value written the same at every appearance, with nothing to walk: the values
    /// (beyond the one its reference counts) and the bytes of text it writes.
    case value(values: Int, bytes: Int)
    /// An object of another class: written in full once, `$ref` afterwards.
    case classObject
  }
  private var countedKinds: [Counted?]

  init(archive: KeyedArchiveGraph, valueLimit: Int, textLimit: Int) {
    self.archive = archive
    self.valueLimit = valueLimit
    budget = valueLimit
    self.textLimit = textLimit
    textBudget = textLimit
    collectionPath = Array(repeating: 0, count: archive.objectCount)
    countedKinds = Array(repeating: nil, count: archive.objectCount)
    pureExpansions = Array(repeating: nil, count: archive.objectCount)
  }

  /// The graph of `archive` as canonical JSON, or `limitExceeded` when it would expand past `valueLimit` values
  /// (by default ``defaultValueLimit``, less for a small archive) or `textLimit` bytes of strings and data.
  package static func render(
    _ archive: KeyedArchiveGraph, pretty: Bool, valueLimit: Int? = nil, textLimit: Int = defaultTextLimit
  ) throws -> String {
    CanonicalJSON.text(try graph(archive, valueLimit: valueLimit, textLimit: textLimit), pretty: pretty)
  }

  /// The graph of the archive `value` holds (written as a binary property list and read back) as canonical JSON.
  package static func render(
    _ value: PropertyListValue, pretty: Bool, valueLimit: Int? = nil, textLimit: Int = defaultTextLimit
  ) throws -> String {
    try render(archive(value), pretty: pretty, valueLimit: valueLimit, textLimit: textLimit)
  }

  /// The graph view of the archive `value` holds.
  package static func archive(_ value: PropertyListValue) throws -> KeyedArchiveGraph {
    try KeyedArchiveGraph(data: BinaryPropertyListWriter.write(value))
  }

  /// The graph of `archive` as canonical JSON nodes (what ``render(_:pretty:valueLimit:textLimit:)`` writes, and
  /// what `keyed dump` without `--json` prints as a tree).
  package static func graph(
    _ archive: KeyedArchiveGraph, valueLimit: Int? = nil, textLimit: Int = defaultTextLimit
  ) throws -> CanonicalJSON.Node {
    let valueLimit = valueLimit ?? min(defaultValueLimit, max(1 << 20, 64 * archive.objectCount))
    var walker = ArchiveJSON(archive: archive, valueLimit: valueLimit, textLimit: textLimit)
    let scope = try walker.archive.topLevelFields()
    let rootOnly = scope.count == 1 && scope[0].key == ArchiveKeys.root
    _ = try walker.topNode(scope, rootOnly: rootOnly)
    walker.counting = false
    walker.collectionPath = Array(repeating: 0, count: archive.objectCount)
    (walker.segment, walker.segmentsBegun) = (1, 1)
    walker.budget = valueLimit
    return try walker.topNode(scope, rootOnly: rootOnly)
  }

  /// The graph of the archive `value` holds as canonical JSON nodes.
  package static func graph(
    _ value: PropertyListValue, valueLimit: Int? = nil, textLimit: Int = defaultTextLimit
  ) throws -> CanonicalJSON.Node {
    try graph(archive(value), valueLimit: valueLimit, textLimit: textLimit)
  }

  private mutating func topNode(_ scope: [KeyedArchiveGraph.Field], rootOnly: Bool) throws -> CanonicalJSON.Node {
    if rootOnly, let root = scope.first {
      location = .init(keyPath: root.key)
      return try node(root.value)
    }
    // Visited in the order they are written: sorted once `$`-escaping is undone.
    let members = try Self.sortedFields(scope.map { (KeyedArchiveGraph.unescaped($0.key), $0.value) })
      .map { member in
        location = .init(keyPath: member.key)
        return (member.key, try node(member.value))
      }
    return .object([(Self.topMember, .object(members))])
  }

  /// `fields` in the order the JSON writes them, by key (``CanonicalJSON/precedes(_:_:)``). Both passes walk
  /// them in that order, so an object's first appearance, which carries its `$id`, is its first in the output.
  private static func sortedFields(
    _ fields: [(key: String, value: PropertyListValue)]
  ) -> [(key: String, value: PropertyListValue)] {
    CanonicalJSON.inKeyOrder(fields) { $0.key }
  }

  /// `raw` as an index into `$objects`, or `nil` past its end.
  private func index(_ raw: UInt64) -> Int? {
    try? archive.index(raw, at: .init())
  }

  /// The plain value (not an object, not the null marker) of the `$objects` entry `raw` refers to, or `nil`.
  private mutating func plainEntry(_ raw: UInt64) -> PropertyListValue? {
    index(raw).flatMap { try? archive.plainValue(of: $0) }
  }

  /// A class object's field name as written: `$`-escaping undone, except for fields whose names are the output's
  /// own keys (`$class`, `$id`, `$ref`, `$cycle`) after any number of `$`: those keep their stored form (`$$class`
  /// stays `$$class`, `$$$class` stays `$$$class`), so as not to stand for the object's class or id or for a
  /// reference. A bare `$id`, `$ref` or `$cycle` (no archiver writes one: a user key beginning with `$` is stored
  /// escaped) gets one `$` more.
  package static func fieldName(_ key: String) -> String {
    let core = key.drop { $0 == "$" }
    let dollars = key.utf8.count - core.utf8.count
    guard dollars > 0, ["class", "id", "ref", "cycle"].contains(core) else { return KeyedArchiveGraph.unescaped(key) }
    return dollars == 1 ? "$" + key : key
  }

  private mutating func spend(_ count: Int = 1) throws {
    budget -= count
    guard budget >= 0 else {
      throw ArchiveError(
        .limitExceeded,
        "the object graph expands to more than \(valueLimit) JSON values (a collection is written "
          + "in full wherever it appears)")
    }
  }

  /// Charges `bytes` of strings or data written (while counting; the writing pass writes the same).
  private mutating func spendText(_ bytes: Int) throws {
    guard counting, bytes > 0 else { return }
    textBudget -= bytes
    guard textBudget >= 0 else {
      throw ArchiveError(
        .limitExceeded,
        "the object graph expands to more than \(textLimit) bytes of strings and data (a shared string is written "
          + "in full wherever it appears)")
    }
  }

  /// Charges what `written` measured: its values and its bytes of text.
  private mutating func charge(_ written: (values: Int, bytes: Int)) throws {
    try spend(written.values)
    try spendText(written.bytes)
  }

  /// What a plain value writes beyond the value its reference counted: the values inside it (a plain array or
  /// dictionary is written whole) and its bytes of text, within what the budgets have left.
  private func measure(_ value: PropertyListValue) throws -> (values: Int, bytes: Int) {
    switch value {
    case .string(let text): return (0, text.utf8.count)
    case .data(let bytes): return (0, bytes.count)
    case .array, .set, .dictionary:
      let (values, bytes) = try ExpansionBound.measure(
        value, maxValues: max(budget, 0) + 1, maxTextBytes: max(textBudget, 0))
      return (values - 1, bytes)
    default: return (0, 0)
    }
  }

  /// A field value: UIDs are followed, inline arrays map element by element, other values are raw.
  private mutating func node(_ value: PropertyListValue) throws -> CanonicalJSON.Node {
    try spend()
    switch value {
    case .uid(let uid):
      return try object(archive.index(uid, at: location))
    case .array(let elements):
      if counting {
        for element in elements { _ = try node(element) }
        return Self.counted
      }
      return .array(try elements.map { try node($0) })
    default:
      if counting {
        try charge(try measure(value))
        return Self.counted
      }
      return CanonicalJSON.node(value)
    }
  }

  /// Object `uid`, an index of `$objects` (``node(_:)`` checked it).
  private mutating func object(_ uid: Int) throws -> CanonicalJSON.Node {
    if uid == 0 { return .raw("null") }
    if counting, let kind = countedKinds[uid] { return try recount(uid, kind) }
    let entry: PropertyListValue
    switch try archive.entry(uid) {
    case .null: return .raw("null")
    case .object(let object):
      return try nested(uid, className: object.className) {
        try $0.classObjectOrFoundation(uid, object.className, object.fields)
      }
    case .dictionary:
      // An object is a dictionary with `$class` (ARC-024, as `validate` finds): its fields would otherwise be
      // written as a plain dictionary, with its references as raw `{"$uid": N}`.
      throw ArchiveError(
        .corruptData, "expected an object with \(Self.classMember), found a dictionary without \(Self.classMember)",
        at: .init(objectIndex: uid))
    case .value(let value): entry = value
    case .collection(let elements): entry = .array(elements)
    }
    if counting {
      let written = try measure(entry)
      countedKinds[uid] = .value(values: written.values, bytes: written.bytes)
      try charge(written)
      return Self.counted
    }
    // Escaped once however often the entry is shared (a string of the `$objects` may be used anywhere).
    if let known = valueNodes[uid] { return known }
    let written = CanonicalJSON.node(entry)
    valueNodes[uid] = written
    return written
  }

  /// Object `uid` of class `className`, one level deeper: a Foundation class's value, else a class object.
  private mutating func classObjectOrFoundation(
    _ uid: Int, _ className: String, _ fields: PropertyListDictionary
  ) throws -> CanonicalJSON.Node {
    if !counting, case .value? = countedKinds[uid], let known = valueNodes[uid] { return known }
    // Known to be a class object (the count found it so): not read again as a Foundation value at each `$ref`.
    let knownClassObject = if case .classObject? = countedKinds[uid] { true } else { false }
    if !knownClassObject, let foundation = try foundationNode(className, fields, uid: uid) {
      if counting, countedKinds[uid] == nil {
        // A value object's text, measured once: an NSValue's geometry or an NSURL can be long and shared.
        let bytes = CanonicalJSON.text(foundation, pretty: false).utf8.count
        countedKinds[uid] = .value(values: 0, bytes: bytes)
        try spendText(bytes)
      } else if !counting, case .value? = countedKinds[uid] {
        valueNodes[uid] = foundation
      }
      return foundation
    }
    // A class object: full at its first appearance (with $id when reached again), $ref afterwards.
    if counting {
      countedKinds[uid] = .classObject
      referenceCounts[uid, default: 0] += 1
      contextEvents += 1
      // Written once, with its class name and its keys (a long shared name or key is written per object).
      try spendText(
        className.utf8.count + Self.classMember.utf8.count
          + fields.entries.reduce(0) { $0 + ($1.key.stringValue?.utf8.count ?? 0) })
    } else if written.contains(uid) {
      return .object([("$ref", .raw(String(uid)))])
    } else {
      written.insert(uid)
    }
    let members = try inSegmentOfItsOwn { walker in
      try Self.sortedFields(
        fields.entries.compactMap { entry in
          guard let key = entry.key.stringValue else { return nil }
          return (Self.fieldName(key), entry.value)
        }
      ).map { field in
        walker.location.keyPath = field.key
        return (field.key, try walker.node(field.value))
      }
    }
    if counting { return Self.counted }
    var header: [(String, CanonicalJSON.Node)] = [(Self.classMember, .raw(CanonicalJSON.string(className)))]
    if referenceCounts[uid, default: 0] > 1 { header.append(("$id", .raw(String(uid)))) }
    return CanonicalJSON.sortedObject(header + members)
  }

  /// Runs `body` (a class object's fields) in a new segment: a collection being expanded above the class object
  /// is written again in full inside it, not cut as a cycle (see ``collectionPath``).
  private mutating func inSegmentOfItsOwn<R>(_ body: (inout ArchiveJSON) throws -> R) throws -> R {
    let (outer, outerPassing) = (segment, passing)
    segmentsBegun += 1
    (segment, passing) = (segmentsBegun, [])
    defer { (segment, passing) = (outer, outerPassing) }
    return try body(&self)
  }

  /// Foundation collections and value classes, or `nil` for other classes.
  private mutating func foundationNode(
    _ className: String, _ fields: PropertyListDictionary, uid: Int
  ) throws
    -> CanonicalJSON.Node?
  {
    func collection(_ body: (inout ArchiveJSON) throws -> CanonicalJSON.Node) throws -> CanonicalJSON.Node {
      try expandCollection(uid) { try body(&$0) }
    }
    switch className {
    case FoundationClass.array, FoundationClass.mutableArray:
      return try collection { .array(try $0.elementsOf(fields, uid: uid)) }
    case FoundationClass.set, FoundationClass.mutableSet:
      return try collection {
        .object([("$set", .array(CanonicalJSON.sortedByText(try $0.elementsOf(fields, uid: uid))))])
      }
    case FoundationClass.orderedSet, FoundationClass.mutableOrderedSet:
      return try collection { .object([("$orderedSet", .array(try $0.elementsOf(fields, uid: uid)))]) }
    case FoundationClass.dictionary, FoundationClass.mutableDictionary:
      return try collection { walker in
        let keys = fields[FoundationKeys.nsKeys]?.arrayValue ?? []
        let values = fields[FoundationKeys.nsObjects]?.arrayValue ?? []
        guard keys.count == values.count else {
          throw ArchiveError(
            .corruptData,
            "\(FoundationKeys.nsKeys) has \(keys.count) entries but \(FoundationKeys.nsObjects) has \(values.count)",
            at: .init(objectIndex: uid, className: className))
        }
        // Entries are walked in the order they are written: by key when the keys are all strings, by the keys'
        // text when they are all plain values (numbers, strings, null). Keys that are objects are walked in stored
        // order (their text depends on where `$id` goes), then sorted.
        let stringKeys = keys.map { walker.plainString($0) }
        let keysAreStrings = stringKeys.allSatisfy { $0 != nil }
        var order = Array(keys.indices)
        if keysAreStrings {
          order.sort { CanonicalJSON.precedes(stringKeys[$0] ?? "", stringKeys[$1] ?? "") }
        } else {
          let texts = keys.map { walker.plainText($0) }
          if texts.allSatisfy({ $0 != nil }) { order.sort { CanonicalJSON.precedes(texts[$0] ?? "", texts[$1] ?? "") } }
        }
        if walker.counting {
          walker.countedKinds[uid] = .collection(order.flatMap { [keys[$0], values[$0]] })
          for i in order { (_, _) = (try walker.node(keys[i]), try walker.node(values[i])) }
          return Self.counted
        }
        var pairs: [(CanonicalJSON.Node, CanonicalJSON.Node)] = []
        for i in order { pairs.append((try walker.node(keys[i]), try walker.node(values[i]))) }
        if keysAreStrings { return .object(zip(order, pairs).map { (stringKeys[$0] ?? "", $1.1) }) }
        return CanonicalJSON.dictionary(pairs.map { (key: $0.0, value: $0.1) })
      }
    case FoundationClass.string, FoundationClass.mutableString:
      switch Self.stringForm(fields) {
      case .text(let string)?: return .raw(CanonicalJSON.string(string))
      case .contents(let contents)?:
        if counting { countedKinds[uid] = .passthrough(contents) }
        return try passThrough(uid, to: contents)
      case nil: return nil
      }
    case FoundationClass.data, FoundationClass.mutableData:
      if case .data(let bytes)? = fields[FoundationKeys.nsData] ?? fields[FoundationKeys.nsBytes] {
        return .object([("$data", .raw(CanonicalJSON.string(bytes.base64EncodedString())))])
      }
      if case .uid? = fields[FoundationKeys.nsData], let contents = fields[FoundationKeys.nsData] {
        if counting { countedKinds[uid] = .passthrough(contents) }
        return try passThrough(uid, to: contents)
      }
      return nil
    case FoundationClass.date:
      switch fields[FoundationKeys.nsTime] {
      case .real(let t)?: return .object([("$date", CanonicalJSON.real(t))])
      case .float(let t)?: return .object([("$date", CanonicalJSON.real(Double(t)))])
      case .integer(let t)?: return .object([("$date", .raw(String(t)))])
      default: return nil
      }
    case FoundationClass.uuid:
      guard case .data(let bytes)? = fields[FoundationKeys.nsUUIDBytes], bytes.count == 16 else { return nil }
      let b = [UInt8](bytes)
      let uuid = UUID(
        uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
      return .object([("$uuid", .raw(CanonicalJSON.string(uuid.uuidString.uppercased())))])
    case FoundationClass.url:
      guard let url = try resolveURL(fields, depth: 0) else { return nil }
      return .object([("$url", .raw(CanonicalJSON.string(url.absoluteString)))])
    case FoundationClass.null:
      return .object([(Self.classMember, .raw(CanonicalJSON.string(FoundationClass.null)))])
    case FoundationClass.value:
      let special = fields[FoundationKeys.nsSpecial]?.integerValue ?? 0
      /// The `count` numbers of a geometry string (`{{x, y}, {w, h}}`), or `nil` when it holds anything else (the
      /// object is then written as a class object, as for a range).
      func numbers(_ key: String, count: Int) -> CanonicalJSON.Node? {
        let text: String
        switch fields[key] {
        case .uid(let u)?: text = plainEntry(u)?.stringValue ?? ""
        case .string(let s)?: text = s
        default: text = ""
        }
        let parts = text.split(whereSeparator: { "{}, \t\n".contains($0) }).map { Double($0) }
        guard parts.count == count, parts.allSatisfy({ $0 != nil }) else { return nil }
        return .array(parts.compactMap { $0 }.map(CanonicalJSON.real))
      }
      /// A range's location or length: a number, inline or behind a UID; `nil` for anything else (the object is
      /// then written as a class object, whose fields count against the budget).
      func number(_ key: String) -> CanonicalJSON.Node? {
        var value = fields[key]
        if case .uid(let u)? = value { value = plainEntry(u) }
        switch value {
        case .integer?, .unsignedInteger?, .real?, .float?: return value.map(CanonicalJSON.node)
        case nil: return fields[key] == nil ? .raw("0") : nil
        default: return nil
        }
      }
      let value: (String, CanonicalJSON.Node)
      switch special {
      case 1:
        guard let point = numbers(FoundationKeys.nsPointValue, count: 2) else { return nil }
        value = ("point", point)
      case 2:
        guard let size = numbers(FoundationKeys.nsSizeValue, count: 2) else { return nil }
        value = ("size", size)
      case 3:
        guard let rect = numbers(FoundationKeys.nsRectValue, count: 4) else { return nil }
        value = ("rect", rect)
      case 4:
        guard let location = number(FoundationKeys.nsRangeLocation), let length = number(FoundationKeys.nsRangeLength)
        else {
          return nil
        }
        value = ("range", .array([location, length]))
      default: return nil
      }
      return .object([(Self.classMember, .raw(CanonicalJSON.string(FoundationClass.value))), value])
    default:
      return try valueClassNode(className, fields, uid: uid, depth: 0)
    }
  }

  /// The canonical form of an object of one of Foundation's value classes (`NSTimeZone`, `NSLocale`, `NSCalendar`,
  /// `NSIndexSet`, `NSIndexPath`, `NSDateComponents`, `NSPersonNameComponents`, `NSMeasurement`,
  /// `NSCharacterSet`), or `nil` for another class or when a field the form needs is missing or of another type
  /// (the object is then written as a class object). Packed data that is corrupt is an error naming the key.
  private mutating func valueClassNode(
    _ className: String, _ fields: PropertyListDictionary, uid: Int, depth: Int
  ) throws -> CanonicalJSON.Node? {
    func corrupt(_ key: String, _ message: String) -> ArchiveError {
      ArchiveError(.corruptData, message, at: .init(objectIndex: uid, className: className, keyPath: key))
    }
    func tagged(_ tag: String, _ value: CanonicalJSON.Node) -> CanonicalJSON.Node { .object([(tag, value)]) }
    switch className {
    case FoundationClass.timeZone:
      return fieldString(fields, FoundationKeys.nsName).map { tagged("$timeZone", .raw(CanonicalJSON.string($0))) }
    case FoundationClass.locale:
      return fieldString(fields, FoundationKeys.nsIdentifier).map { tagged("$locale", .raw(CanonicalJSON.string($0))) }
    case FoundationClass.calendar:
      return fieldString(fields, FoundationKeys.nsIdentifier).map {
        tagged("$calendar", .raw(CanonicalJSON.string($0)))
      }
    case FoundationClass.indexSet, FoundationClass.mutableIndexSet:
      guard let count = fieldInteger(fields, FoundationKeys.nsRangeCount) else {
        return fields[FoundationKeys.nsRangeCount] == nil ? tagged("$indexSet", .array([])) : nil
      }
      var ranges: [(UInt64, UInt64)] = []
      if count == 1, fields[FoundationKeys.nsRangeData] == nil {
        guard let location = fieldInteger(fields, FoundationKeys.nsIndexSetLocation),
          let length = fieldInteger(fields, FoundationKeys.nsIndexSetLength), location >= 0, length >= 0
        else { return nil }
        ranges = [(UInt64(location), UInt64(length))]
      } else if count > 0 || fields[FoundationKeys.nsRangeData] != nil {
        guard let bytes = fieldData(fields, FoundationKeys.nsRangeData) else { return nil }
        guard count >= 0, count <= bytes.count / 2 else {
          throw corrupt(
            FoundationKeys.nsRangeData,
            "\(FoundationKeys.nsRangeCount) is \(count) but the data holds \(bytes.count) bytes")
        }
        let values: [UInt64]
        do { values = try PackedIntegers.decode(bytes, count: Int(count) * 2) } catch {
          throw corrupt(FoundationKeys.nsRangeData, "the packed ranges are corrupt (\(error))")
        }
        ranges = stride(from: 0, to: values.count, by: 2).map { (values[$0], values[$0 + 1]) }
      }
      try spend(ranges.count)
      let sorted = ranges.sorted { $0.0 < $1.0 }
      return tagged(
        "$indexSet", .array(sorted.map { .array([.raw(String($0.0)), .raw(String($0.1))]) }))
    case FoundationClass.indexPath:
      guard let length = fieldInteger(fields, FoundationKeys.nsIndexPathLength) else {
        return fields[FoundationKeys.nsIndexPathLength] == nil ? tagged("$indexPath", .array([])) : nil
      }
      var indexes: [UInt64] = []
      if length == 1, fields[FoundationKeys.nsIndexPathData] == nil {
        guard let value = fieldInteger(fields, FoundationKeys.nsIndexPathValue), value >= 0 else { return nil }
        indexes = [UInt64(value)]
      } else if length != 0 {
        guard let bytes = fieldData(fields, FoundationKeys.nsIndexPathData) else { return nil }
        guard length > 0, length <= bytes.count else {
          throw corrupt(
            FoundationKeys.nsIndexPathData,
            "\(FoundationKeys.nsIndexPathLength) is \(length) but the data holds \(bytes.count) bytes")
        }
        do { indexes = try PackedIntegers.decode(bytes, count: Int(length)) } catch {
          throw corrupt(FoundationKeys.nsIndexPathData, "the packed indexes are corrupt (\(error))")
        }
      }
      try spend(indexes.count)
      return tagged("$indexPath", .array(indexes.map { .raw(String($0)) }))
    case FoundationClass.dateComponents:
      var members: [(String, CanonicalJSON.Node)] = []
      for field in FoundationKeys.dateComponentFields {
        guard let raw = fields[field.key] else { continue }
        guard let value = fieldInteger(fields, field.key) else { return nil }
        if value != FoundationKeys.dateComponentUndefined { members.append((field.name, .raw(String(value)))) }
        _ = raw
      }
      if case .bool(true)? = fieldPlain(fields, FoundationKeys.nsIsLeapMonth) {
        members.append(("isLeapMonth", .raw("true")))
      }
      for (key, name, nestedClass) in [
        (FoundationKeys.nsCalendar, "calendar", FoundationClass.calendar),
        (FoundationKeys.nsTimeZone, "timeZone", FoundationClass.timeZone),
      ] {
        guard let nested = try nestedValue(fields, key, expecting: nestedClass, depth: depth) else { continue }
        guard let node = nested else { return nil }
        members.append((name, node))
      }
      return tagged("$dateComponents", CanonicalJSON.sortedObject(members))
    case FoundationClass.personNameComponents:
      var members: [(String, CanonicalJSON.Node)] = []
      for part in FoundationKeys.personNameParts {
        guard let value = fields[part.key], value != .uid(0) else { continue }
        guard let text = fieldString(fields, part.key) else { return nil }
        members.append((part.name, .raw(CanonicalJSON.string(text))))
      }
      if depth < 1,
        let nested = try nestedValue(
          fields, FoundationKeys.nsPhoneticRepresentation, expecting: FoundationClass.personNameComponents, depth: depth
        )
      {
        guard let node = nested else { return nil }
        members.append(("phoneticRepresentation", node))
      }
      return tagged("$personName", CanonicalJSON.sortedObject(members))
    case FoundationClass.measurement:
      guard let value = fieldReal(fields, FoundationKeys.nsValue),
        case .uid(let unitReference)? = fields[FoundationKeys.nsUnit],
        let unitIndex = index(unitReference), case .object(let unit)? = try? archive.entry(unitIndex),
        let symbol = fieldString(unit.fields, FoundationKeys.nsSymbol)
      else { return nil }
      return tagged(
        "$measurement",
        CanonicalJSON.sortedObject([
          ("value", CanonicalJSON.real(value)), ("unit", .raw(CanonicalJSON.string(symbol))),
          ("unitClass", .raw(CanonicalJSON.string(unit.className))),
        ]))
    case FoundationClass.characterSet, FoundationClass.mutableCharacterSet:
      var members: [(String, CanonicalJSON.Node)] = []
      if fields[FoundationKeys.nsCharacterSetString] != nil {
        guard let text = fieldString(fields, FoundationKeys.nsCharacterSetString) else { return nil }
        members.append(("string", .raw(CanonicalJSON.string(text))))
      } else if fields[FoundationKeys.nsBuiltinID] != nil {
        guard let builtin = fieldInteger(fields, FoundationKeys.nsBuiltinID) else { return nil }
        members.append(("builtin", .raw(String(builtin))))
      } else if fields[FoundationKeys.nsBitmap] != nil {
        guard let bitmap = fieldData(fields, FoundationKeys.nsBitmap) else { return nil }
        members.append(("bitmap", .object([("$data", .raw(CanonicalJSON.string(bitmap.base64EncodedString())))])))
      } else {
        return nil
      }
      if case .bool(true)? = fieldPlain(fields, FoundationKeys.nsIsInverted) {
        members.append(("inverted", .raw("true")))
      }
      return tagged("$characterSet", CanonicalJSON.sortedObject(members))
    default:
      return nil
    }
  }

  /// The form of the value object field `key` refers to: `nil` when the field is absent or `$null`, `.some(nil)`
  /// when it refers to something other than an object of `expectedClass` with a form.
  private mutating func nestedValue(
    _ fields: PropertyListDictionary, _ key: String, expecting expectedClass: String, depth: Int
  ) throws -> CanonicalJSON.Node?? {
    guard let value = fields[key], value != .uid(0) else { return nil }
    guard case .uid(let reference) = value, let uid = index(reference) else { return .some(nil) }
    switch try? archive.entry(uid) {
    case .null?: return nil
    case .object(let object)? where object.className == expectedClass:
      return .some(try valueClassNode(object.className, object.fields, uid: uid, depth: depth + 1))
    default: return .some(nil)
    }
  }

  /// Field `key` as a plain value, inline or behind a UID.
  private mutating func fieldPlain(_ fields: PropertyListDictionary, _ key: String) -> PropertyListValue? {
    guard let value = fields[key] else { return nil }
    if case .uid(let reference) = value { return plainEntry(reference) }
    return value
  }

  /// Field `key` as a string (a plain string or an `NSString`), or `nil`.
  private mutating func fieldString(_ fields: PropertyListDictionary, _ key: String) -> String? {
    fields[key].flatMap { plainString($0) }
  }

  /// Field `key` as an integer in the signed 64-bit range, or `nil`.
  private mutating func fieldInteger(_ fields: PropertyListDictionary, _ key: String) -> Int64? {
    fieldPlain(fields, key)?.integerValue
  }

  /// Field `key` as a real (an integer is read as one), or `nil`.
  private mutating func fieldReal(_ fields: PropertyListDictionary, _ key: String) -> Double? {
    switch fieldPlain(fields, key) {
    case .real(let value)?: value
    case .float(let value)?: Double(value)
    case .integer(let value)?: Double(value)
    default: nil
    }
  }

  /// Field `key` as bytes (plain data or an `NSData`), or `nil`.
  private mutating func fieldData(_ fields: PropertyListDictionary, _ key: String) -> Data? {
    guard let value = fields[key] else { return nil }
    if case .data(let bytes) = value { return bytes }
    guard case .uid(let reference) = value, let uid = index(reference) else { return nil }
    switch try? archive.entry(uid) {
    case .value(.data(let bytes))?: return bytes
    case .object(let object)?
    where object.className == FoundationClass.data || object.className == FoundationClass.mutableData:
      if case .data(let bytes)? = object.fields[FoundationKeys.nsData] ?? object.fields[FoundationKeys.nsBytes] {
        return bytes
      }
      return nil
    default: return nil
    }
  }

  /// The string a dictionary key is written as (a plain string, or an `NSString` however its text is stored), or
  /// `nil` when it is written as anything else: the entries of a dictionary whose keys are all strings are walked
  /// in the order of those strings, which is the order they are written in. An `NSString` whose text is another
  /// object is followed 64 deep at most (a key asked at every appearance of its dictionary must cost little):
  /// past that its dictionary is written as one with other keys.
  private mutating func plainString(_ value: PropertyListValue, depth: Int = 0) -> String? {
    switch value {
    case .string(let text): return text
    case .uid(let reference):
      guard let uid = index(reference), uid > 0, depth < 64 else { return nil }
      switch try? archive.entry(uid) {
      case .value(.string(let text))?: return text
      case .object(let object)?:
        guard object.className == FoundationClass.string || object.className == FoundationClass.mutableString else {
          return nil
        }
        return stringForm(object.fields, depth: depth)
      default: return nil
      }
    default: return nil
    }
  }

  /// The text of an `NSString` whose fields are `fields`, followed through its contents as ``plainString(_:depth:)``
  /// follows it.
  private mutating func stringForm(_ fields: PropertyListDictionary, depth: Int) -> String? {
    switch Self.stringForm(fields) {
    case .text(let text)?: return text
    case .contents(let contents)?: return plainString(contents, depth: depth + 1)
    case nil: return nil
    }
  }

  /// How an `NSString`'s fields hold its text.
  private enum StringForm {
    /// In `NS.string`, or as UTF-8 in `NS.bytes`.
    case text(String)
    /// In another object, which `NS.string` refers to.
    case contents(PropertyListValue)
  }

  /// The form of an `NSString` whose fields are `fields`, or `nil` when they hold none of them.
  private static func stringForm(_ fields: PropertyListDictionary) -> StringForm? {
    if let text = fields[FoundationKeys.nsString]?.stringValue { return .text(text) }
    if case .data(let bytes)? = fields[FoundationKeys.nsBytes] { return .text(String(decoding: bytes, as: UTF8.self)) }
    if case .uid? = fields[FoundationKeys.nsString], let contents = fields[FoundationKeys.nsString] {
      return .contents(contents)
    }
    return nil
  }

  /// The canonical text of a plain value (a number, string, data, date, boolean or null, inline or behind a UID):
  /// what it is written as wherever it appears. `nil` for anything else (an object, whose text depends on where
  /// its `$id` goes).
  private mutating func plainText(_ value: PropertyListValue) -> String? {
    if let text = plainString(value) { return CanonicalJSON.string(text) }
    var plain = value
    if case .uid(let reference) = value {
      guard let uid = index(reference) else { return nil }
      if (try? archive.kind(of: uid)) == .null { return "null" }
      guard let entry = try? archive.plainValue(of: uid) else { return nil }
      plain = entry
    }
    switch plain {
    case .bool, .integer, .unsignedInteger, .real, .float, .date, .data:
      return CanonicalJSON.text(CanonicalJSON.node(plain))
    default: return nil
    }
  }

  /// The elements of collection `uid`, in order; none while counting (each is walked and counted, not kept).
  private mutating func elementsOf(_ fields: PropertyListDictionary, uid: Int) throws -> [CanonicalJSON.Node] {
    var list: [PropertyListValue]
    if let inline = fields[FoundationKeys.nsObjects]?.arrayValue {
      list = inline
    } else {
      list = []
      while let element = fields[FoundationKeys.nsObject(list.count)] { list.append(element) }
    }
    if counting {
      countedKinds[uid] = .collection(list)
      for element in list { _ = try node(element) }
      return []
    }
    return try list.map { try node($0) }
  }

  /// Expands collection `uid` with `body`, or writes `{"$cycle": uid}` when the collection is already being
  /// expanded above. While counting, a collection whose expansion was pure (see ``pureExpansions``) is not walked again.
  private mutating func expandCollection(
    _ uid: Int, _ body: (inout ArchiveJSON) throws -> CanonicalJSON.Node
  ) throws -> CanonicalJSON.Node {
    if collectionPath[uid] == segment {
      contextEvents += 1
      return counting ? Self.counted : .object([("$cycle", .raw(String(uid)))])
    }
    if counting, let pure = pureExpansions[uid] {
      try charge(pure)
      return Self.counted
    }
    let (outer, outerPassing) = (collectionPath[uid], passing)
    (collectionPath[uid], passing) = (segment, [])
    defer { (collectionPath[uid], passing) = (outer, outerPassing) }
    let (budgetBefore, textBefore, eventsBefore) = (budget, textBudget, contextEvents)
    let result = try body(&self)
    if counting, contextEvents == eventsBefore {
      pureExpansions[uid] = (budgetBefore - budget, textBefore - textBudget)
    }
    return result
  }

  /// Counts object `uid` again, from what its first count found, with the first count's nesting limits.
  private mutating func recount(_ uid: Int, _ kind: Counted) throws -> CanonicalJSON.Node {
    switch kind {
    case .value(let values, let bytes):
      try charge((values, bytes))
      return Self.counted
    case .classObject:
      referenceCounts[uid, default: 0] += 1
      return Self.counted
    case .passthrough(let contents):
      return try nested(uid) { try $0.passThrough(uid, to: contents) }
    case .collection(let values):
      return try nested(uid) { walker in
        try walker.expandCollection(uid) { walker in
          for value in values { _ = try walker.node(value) }
          return Self.counted
        }
      }
    }
  }

  /// Runs `body` one object deeper, within the depth limit and the thread's stack.
  private mutating func nested(
    _ uid: Int, className: String? = nil, _ body: (inout ArchiveJSON) throws -> CanonicalJSON.Node
  ) throws -> CanonicalJSON.Node {
    depth += 1
    let outer = location
    location = .init(objectIndex: uid, className: className)
    defer { (depth, location) = (depth - 1, outer) }
    if depth == 1 { stackGuard = StackGuard() }
    try ExpansionBound.checkDepth(depth, stack: stackGuard, objectIndex: uid, className: className)
    return try body(&self)
  }

  /// Follows a Foundation string or data object whose contents are another object (`NS.string`, `NS.data`). A
  /// chain of such objects that leads back to itself is corrupt: followed, it nested to the depth limit and was
  /// reported as depth. A chain through a collection or a class object ends as those do (`$cycle`, `$ref`): each
  /// begins its own chain.
  private mutating func passThrough(_ uid: Int, to contents: PropertyListValue) throws -> CanonicalJSON.Node {
    guard passing.insert(uid).inserted else {
      throw ArchiveError(
        .corruptData, "its contents lead back to itself (a cycle of strings or data)", at: .init(objectIndex: uid))
    }
    defer { passing.remove(uid) }
    return try node(contents)
  }

  private mutating func resolveURL(_ fields: PropertyListDictionary, depth: Int) throws -> URL? {
    guard depth < 16 else { return nil }
    var relative: String?
    switch fields[FoundationKeys.nsRelative] {
    case .uid(let u)?: relative = plainEntry(u)?.stringValue
    case .string(let s)?: relative = s
    default: relative = nil
    }
    guard let relative else { return nil }
    var base: URL?
    if case .uid(let u)? = fields[FoundationKeys.nsBase], let uid = index(u),
      case .object(let object)? = try? archive.entry(uid)
    {
      base = try resolveURL(object.fields, depth: depth + 1)
    }
    // An empty reference is its base without the fragment (RFC 3986, 5.2.2); `URL(string: "")` is nil.
    if relative.isEmpty, let base {
      var components = URLComponents(url: base, resolvingAgainstBaseURL: true)
      components?.fragment = nil
      return components?.url ?? base
    }
    return URL(string: relative, relativeTo: base)?.absoluteURL
  }
}
