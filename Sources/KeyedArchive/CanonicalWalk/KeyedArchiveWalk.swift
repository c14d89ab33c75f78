import ArchiveCoding
import ArchiveSupport
import Foundation
import FoundationForms
import PropertyList

/// The canonical walk of a keyed archive (CLI-011, Decision 0040): one traversal of the object graph from `$top`
/// through Foundation's forms, which every consumer of an archive's meaning uses: `keyed dump --json` writes it as
/// it goes (``CanonicalJSONWriter``), `keyed validate` is its checking pass, the tree and the comparison read it.
///
/// The walk runs twice over the graph, without building it:
/// 1. ``check()`` walks it without a visitor: it finds every error (bounds, references, cycles of strings, packed
///    data, nesting, the value and text budgets) and counts how often each class object is reached, so that the
///    first appearance of one reached again carries `"$id"`.
/// 2. ``visit(_:)`` walks it again and reports every value to a ``CanonicalVisitor`` in the order of the view. It
///    finds no error that the first pass did not: an error never leaves part of a view written.
///
/// Foundation collections are written in full at every appearance; a cycle made only of collections is cut with
/// `{"$cycle": N}` where it closes. Class objects other than Foundation's are written in full at their first
/// appearance and as `{"$ref": N}` afterwards. No class needs to be registered, and nothing is instantiated.
package struct KeyedArchiveWalk {
  /// The most JSON values a walk may report (each pass counts its own). An archive of `n` objects may report
  /// `64 × n` values, at least a million and at most this.
  package static let defaultValueLimit = 20_000_000
  /// The most bytes of strings and data a walk may report, a shared string counting at every appearance.
  package static let defaultTextLimit = 512 << 20

  /// The archive, read through its graph view.
  package internal(set) var archive: KeyedArchiveGraph
  let valueLimit: Int
  let textLimit: Int
  var budget: Int
  var textBudget: Int
  /// `true` in the first pass.
  var counting = true
  var checked = false
  var depth = 0
  var stackGuard = StackGuard()
  /// The object being walked and, in a class object, the field: where an error inside it is reported.
  var location = ArchiveError.Location()
  /// The strings and data objects whose contents (another object) are being followed since the last collection or
  /// class object, to find a chain of them that leads back to itself.
  var passing: Set<Int> = []
  /// The collections being expanded, by `$objects` index: the segment they are expanded in, or 0. A segment is the
  /// stretch of the walk between two class objects (each class object's fields begin a new one). A collection met
  /// again in its own segment closes a cycle made only of collections, which is cut there; one met again across a
  /// class object is written in full again, and the class object, reached a second time, is a `$ref`.
  var collectionPath: [Int: Int32] = [:]
  var segment: Int32 = 1
  var segmentsBegun: Int32 = 1
  /// What the first pass found each entry to be (``EntryKind``), so that meeting it again reads none of its fields.
  var kinds: [EntryKind]
  /// For a value met before: the bytes of text it writes each time.
  var valueBytes: [Int32]
  /// For a plain value that writes values besides itself (an inline container): how many.
  var valueValues: [Int: Int] = [:]
  /// For each class object, plain value and Foundation value object: whether it is reached more than once.
  var reached: [UInt8]
  /// The second pass's values of the entries reached more than once, read once (a value is the same at every
  /// appearance, and a long shared string, or an `NSValue` whose geometry is one, costs more to read again than to
  /// keep).
  var sharedValues: [Int: WrittenValue] = [:]
  /// The class objects written so far (second pass).
  var written: [Bool] = []
  /// While counting: the values, bytes of text and nesting of each collection whose expansion met neither a class
  /// object's first appearance nor a cycle. Such an expansion is the same wherever the collection appears again
  /// (none of its collections can be on the path above it, or it would have met the cycle), so a later appearance
  /// adds the count without walking: a chain of arrays that each hold the previous one twice counts in linear time.
  var pureExpansions: [Int: PureExpansion] = [:]
  /// First appearances of class objects and cycle cuts so far (what makes an expansion depend on where it is).
  var contextEvents = 0
  /// The deepest nesting the second pass reaches, as far as the first pass knows it: an object met again is one
  /// level deeper in the second pass, where it is read again, and a collection not walked again reaches as deep as
  /// it did.
  var deepestNesting = 0
  /// The object whose form is being read (``KeyedFormSource``).
  var formObject: WalkedObject?
  /// Where the first pass writes a value to measure its text.
  var measuring = CanonicalJSONWriter()
  /// The layouts of the objects met last (``ObjectLayout``).
  var layouts: [ObjectLayout] = []
  /// The keys of the last dictionary met whose keys are all string entries (``StringKeys``).
  var lastStringKeys: StringKeys?
  /// The order of the last fields met, by class description: objects of one class mostly store the same keys.
  var fieldPlans: [Int: FieldPlan] = [:]

  /// The fields of an object as the walk takes them: a key stored twice once, and the fields in the order of their
  /// names as written.
  final class FieldPlan {
    /// The keys as stored.
    let storedKeys: [String]
    /// `true` when a key is stored more than once.
    let hasDuplicates: Bool
    /// The fields once a key stored twice is taken once, in the order of their names: each one's position among
    /// them and its name as written (``KeyedArchiveWalk/fieldName(_:)``).
    let sorted: [(position: Int, name: String)]

    init(_ fields: [KeyedArchiveGraph.Field]) {
      storedKeys = fields.map(\.key)
      let unique = KeyedArchiveWalk.deduplicated(fields)
      hasDuplicates = unique.count != fields.count
      sorted = unique.indices.map { (position: $0, name: KeyedArchiveWalk.fieldName(unique[$0].key)) }
        .sorted { CanonicalText.precedes($0.name, $1.name) }
    }

    func matches(_ fields: [KeyedArchiveGraph.Field]) -> Bool {
      guard fields.count == storedKeys.count else { return false }
      for index in fields.indices where fields[index].key != storedKeys[index] { return false }
      return true
    }
  }

  /// The keys of a dictionary that are all string entries: their property-list objects, their names, and the
  /// order of the dictionary's members by name.
  struct StringKeys {
    var objects: [Int?]
    var names: [String]
    var order: [Int]
  }

  /// What an entry was found to be.
  enum EntryKind: UInt8 {
    case unknown
    /// A string, number, data or container entry, written the same at every appearance.
    case plainValue
    /// An object of a Foundation value class (a date, a time zone, …), written the same at every appearance.
    case foundationValue
    /// An object of another class: written in full once, `$ref` afterwards.
    case classObject
    /// A Foundation collection.
    case collection
    /// A Foundation string or data object whose contents are another object.
    case passthrough
  }

  /// What a collection whose expansion is pure writes (each within the budgets, which are at most `Int32.max`).
  struct PureExpansion {
    var values: Int32
    var bytes: Int32
    /// The levels of nesting it reaches below the collection.
    var height: Int32
  }

  /// A walk of `archive`.
  /// - Parameters:
  ///   - archive: the archive's graph.
  ///   - valueLimit: the most values the view may hold; by default ``defaultValueLimit``, less for a small archive.
  ///   - textLimit: the most bytes of strings and data the view may hold.
  package init(_ archive: KeyedArchiveGraph, valueLimit: Int? = nil, textLimit: Int = defaultTextLimit) {
    self.archive = archive
    let count = archive.objectCount
    let limit = valueLimit ?? min(Self.defaultValueLimit, max(1 << 20, 64 * count))
    self.valueLimit = limit
    budget = limit
    self.textLimit = textLimit
    textBudget = textLimit
    kinds = Array(repeating: .unknown, count: count)
    valueBytes = Array(repeating: 0, count: count)
    reached = Array(repeating: 0, count: count)
  }

  // MARK: Passes

  /// The first pass: walks the graph without reporting it, finding every error and counting shared objects.
  /// - Throws: ``/ArchiveCoding/ArchiveError``: the graph's errors (located at the object, class and key), `corruptData` for a
  ///   chain of strings or data that leads back to itself or a dictionary without `$class`, `limitExceeded` for a
  ///   graph nested deeper than ``ExpansionBound/maxDepth`` or expanding past the budgets.
  package mutating func check() throws {
    guard !checked else { return }
    var none = NullCanonicalVisitor()
    try walkTop(&none)
    checked = true
    if deepestNesting > ExpansionBound.maxDepth {
      // An object met again deeper than it first was: the second pass would stop there. Rehearsed without output,
      // so that the error is the one the second pass finds, and nothing is written.
      try visit(&none)
    }
  }

  /// The second pass: reports the view to `visitor`, from the top (the root, or `{"$top": {…}}` when the archive
  /// has other top-level keys). Runs ``check()`` first if it has not run.
  /// - Throws: what ``check()`` throws; nothing once it has passed.
  package mutating func visit(_ visitor: inout some CanonicalVisitor) throws {
    try check()
    counting = false
    collectionPath = [:]
    written = Array(repeating: false, count: archive.objectCount)
    (segment, segmentsBegun, depth, passing) = (1, 1, 0, [])
    try walkTop(&visitor)
  }

  /// The second pass, written as canonical JSON by `writer` (``visit(_:)`` for the JSON writer, made here so that
  /// the walk is compiled for it).
  /// - Throws: what ``check()`` throws; nothing once it has passed.
  package mutating func write(to writer: inout CanonicalJSONWriter) throws { try visit(&writer) }

  /// The values and the bytes of strings and data the first pass counted (after ``check()``): what a consumer that
  /// keeps the view can reserve room for.
  package var checkedSize: (values: Int, textBytes: Int) { (valueLimit - budget, textLimit - textBudget) }

  /// The number of class objects of other classes than Foundation's the walk met (after ``check()``).
  package var classObjectCount: Int { kinds.lazy.filter { $0 == .classObject }.count }

  // MARK: Top level

  private mutating func walkTop(_ visitor: inout some CanonicalVisitor) throws {
    let scope = try archive.topLevelFields()
    if scope.count == 1, let root = scope.first, root.key == ArchiveKeys.root {
      location = .init(keyPath: root.key)
      try node(root.value, &visitor)
      return
    }
    // Visited in the order they are written: sorted once `$`-escaping is undone.
    let members = scope.map { (key: KeyedArchiveGraph.unescaped($0.key), value: $0.value) }
      .sorted { CanonicalText.precedes($0.key, $1.key) }
    visitor.beginObject()
    visitor.visitKey(ArchiveKeys.top)
    visitor.beginObject()
    for member in members {
      location = .init(keyPath: member.key)
      visitor.visitKey(member.key)
      try node(member.value, &visitor)
    }
    visitor.endObject()
    visitor.endObject()
  }

  // MARK: Budgets

  mutating func spend(_ count: Int = 1) throws {
    guard counting else { return }
    budget -= count
    guard budget >= 0 else {
      throw ArchiveError(
        .limitExceeded,
        "the object graph expands to more than \(valueLimit) JSON values (a collection is written "
          + "in full wherever it appears)")
    }
  }

  /// Charges `bytes` of strings or data written (while counting; the second pass writes the same).
  mutating func spendText(_ bytes: Int) throws {
    guard counting, bytes > 0 else { return }
    textBudget -= bytes
    guard textBudget >= 0 else {
      throw ArchiveError(
        .limitExceeded,
        "the object graph expands to more than \(textLimit) bytes of strings and data (a shared string is written "
          + "in full wherever it appears)")
    }
  }

  private mutating func charge(values: Int, bytes: Int) throws {
    try spend(values)
    try spendText(bytes)
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

  // MARK: Values

  /// A field value: UIDs are followed, inline arrays map element by element, other values are written as they are.
  mutating func node(_ value: PropertyListValue, _ visitor: inout some CanonicalVisitor) throws {
    try spend()
    switch value {
    case .uid(let raw):
      try object(archive.index(raw, at: location), &visitor)
    case .array(let elements):
      visitor.beginArray(.asWalked)
      for element in elements { try node(element, &visitor) }
      visitor.endArray()
    default:
      if counting {
        let cost = try measure(value)
        try charge(values: cost.values, bytes: cost.bytes)
      } else {
        value.visit(with: &visitor)
      }
    }
  }

  /// Object `uid`, an index of `$objects` (``node(_:_:)`` checked it).
  private mutating func object(_ uid: Int, _ visitor: inout some CanonicalVisitor) throws {
    if uid == 0 {
      visitor.visitNull()
      return
    }
    if counting, kinds[uid] != .unknown {
      try recount(uid)
      return
    }
    if !counting, reached[uid] > 1, kinds[uid] == .plainValue, let known = sharedValues[uid] {
      known.visit(with: &visitor)
      return
    }
    let header = archive.entryHeader(ofEntry: uid)
    if let header, header.kind == .dictionary, let layout = layout(of: uid, header),
      let values = layout.values(header, archive)
    {
      let object = WalkedObject(className: layout.description.name, storage: .laidOut(values, layout))
      try nested(uid, className: object.className) { try $0.classObjectOrFoundation(uid, object, &visitor) }
      return
    }
    var plain: PropertyListValue?
    if let header {
      // Strings and data, as most entries are: read from the header that is in hand.
      if counting, let bytes = archive.textByteCount(header, ofEntry: uid) {
        kinds[uid] = .plainValue
        valueBytes[uid] = Int32(clamping: bytes)
        try spendText(bytes)
        return
      }
      // Other strings and numbers too (what the entry's kind then reads).
      if counting || kinds[uid] == .plainValue { plain = archive.plainEntry(header, ofEntry: uid) }
    }
    let entry: PropertyListValue
    if let plain {
      entry = plain
    } else {
      switch try archive.kind(of: uid) {
      case .null:
        visitor.visitNull()
        return
      case .classObject:
        let object = try walkedObject(uid)
        try nested(uid, className: object.className) { try $0.classObjectOrFoundation(uid, object, &visitor) }
        return
      case .dictionary:
        // An object is a dictionary with `$class` (ARC-024, as `validate` finds): its fields would otherwise be
        // written as a plain dictionary, with its references as raw `{"$uid": N}`.
        throw ArchiveError(
          .corruptData,
          "expected an object with \(ArchiveKeys.class), found a dictionary without \(ArchiveKeys.class)",
          at: .init(objectIndex: uid))
      case .scalar, .string, .data:
        entry = try archive.scalarEntry(uid)
      case .collection:
        entry = .array(try archive.elements(of: uid))
      }
    }
    if counting {
      let cost = try measure(entry)
      kinds[uid] = .plainValue
      valueBytes[uid] = Int32(clamping: cost.bytes)
      if cost.values != 0 { valueValues[uid] = cost.values }
      try charge(values: cost.values, bytes: cost.bytes)
      return
    }
    if reached[uid] > 1 { sharedValues[uid] = .plain(entry) }
    entry.visit(with: &visitor)
  }

  /// The plan of the fields of an object of class description `classIndex`.
  mutating func fieldPlan(_ classIndex: Int, _ fields: [KeyedArchiveGraph.Field]) -> FieldPlan {
    if let known = fieldPlans[classIndex], known.matches(fields) { return known }
    let plan = FieldPlan(fields)
    fieldPlans[classIndex] = plan
    return plan
  }

  /// The fields of a class object as its dictionary holds them: a key stored twice keeps its first place and takes
  /// its last value, as a property-list dictionary reads it.
  static func deduplicated(_ fields: [KeyedArchiveGraph.Field]) -> [KeyedArchiveGraph.Field] {
    guard fields.count > 1 else { return fields }
    var result: [KeyedArchiveGraph.Field] = []
    result.reserveCapacity(fields.count)
    var places: [String: Int] = [:]
    for field in fields {
      if let earlier = places[field.key] {
        result[earlier].value = field.value
      } else {
        places[field.key] = result.count
        result.append(field)
      }
    }
    return result
  }

  /// Counts object `uid` again, from what its first count found.
  private mutating func recount(_ uid: Int) throws {
    switch kinds[uid] {
    case .unknown: break
    case .plainValue:
      reached[uid] = 2
      try charge(values: valueValues[uid] ?? 0, bytes: Int(valueBytes[uid]))
    case .foundationValue:
      // Read again in the second pass, one level deeper.
      reached[uid] = 2
      deepestNesting = max(deepestNesting, depth + 1)
      try spendText(Int(valueBytes[uid]))
    case .classObject:
      deepestNesting = max(deepestNesting, depth + 1)
      reached[uid] = 2
    case .passthrough:
      var none = NullCanonicalVisitor()
      let object = try walkedObject(uid)
      guard let contents = contents(object) else { return }
      try nested(uid) { try $0.passThrough(uid, to: contents, &none) }
    case .collection:
      var none = NullCanonicalVisitor()
      let object = try walkedObject(uid)
      try nested(uid) { walk in
        guard let expansion = try walk.beginCollection(uid, &none) else { return }
        try walk.collection(uid, object, &none)
        walk.endCollection(expansion)
      }
    }
  }

  /// The object a passthrough string or data object refers to.
  private func contents(_ object: WalkedObject) -> PropertyListValue? {
    for key in [FoundationKeys.nsString, FoundationKeys.nsData] {
      if let value = object.value(forKey: key, in: archive), case .uid = value { return value }
    }
    return nil
  }

  /// Runs `body` one object deeper, within the depth limit and the thread's stack.
  private mutating func nested(
    _ uid: Int, className: String? = nil, _ body: (inout KeyedArchiveWalk) throws -> Void
  ) throws {
    depth += 1
    let outer = location
    location = .init(objectIndex: uid, className: className)
    defer { (depth, location) = (depth - 1, outer) }
    if depth == 1 { stackGuard = StackGuard() }
    try ExpansionBound.checkDepth(depth, stack: stackGuard, objectIndex: uid, className: className)
    deepestNesting = max(deepestNesting, depth)
    try body(&self)
  }

  /// Follows a Foundation string or data object whose contents are another object (`NS.string`, `NS.data`). A
  /// chain of such objects that leads back to itself is corrupt: followed, it nested to the depth limit and was
  /// reported as depth. A chain through a collection or a class object ends as those do (`$cycle`, `$ref`): each
  /// begins its own chain.
  mutating func passThrough(
    _ uid: Int, to contents: PropertyListValue, _ visitor: inout some CanonicalVisitor
  ) throws {
    guard passing.insert(uid).inserted else {
      throw ArchiveError(
        .corruptData, "its contents lead back to itself (a cycle of strings or data)", at: .init(objectIndex: uid))
    }
    defer { passing.remove(uid) }
    try node(contents, &visitor)
  }

  // MARK: Objects

  /// Object `uid` of class `className`, one level deeper: a Foundation class's form, else a class object.
  private mutating func classObjectOrFoundation(
    _ uid: Int, _ object: WalkedObject, _ visitor: inout some CanonicalVisitor
  ) throws {
    let className = object.className
    if kinds[uid] != .classObject, try foundation(uid, object, &visitor) { return }
    // A class object: full at its first appearance (with $id when reached again), $ref afterwards.
    if counting {
      kinds[uid] = .classObject
      reached[uid] = 1
      contextEvents += 1
      // Written once, with its class name and its keys (a long shared name or key is written per object).
      try spendText(className.utf8.count + ArchiveKeys.class.utf8.count + object.keyBytes)
    } else if written[uid] {
      visitor.visitReference(uid)
      return
    } else {
      written[uid] = true
    }
    try inSegmentOfItsOwn { walk in
      let shared = walk.reached[uid] > 1
      visitor.beginClassObject(CanonicalClassObject(className: className, id: uid, isShared: shared))
      var header = shared ? [ArchiveKeys.class, CanonicalMember.id] : [ArchiveKeys.class]
      for index in 0..<object.memberCount {
        let member = object.member(index, in: walk.archive)
        while let first = header.first, CanonicalText.precedes(first, member.name) {
          Self.visitHeader(header.removeFirst(), className, uid, &visitor)
        }
        walk.location.keyPath = member.name
        visitor.visitField(member.name)
        try walk.node(member.value, &visitor)
      }
      for member in header { Self.visitHeader(member, className, uid, &visitor) }
      visitor.endClassObject()
    }
  }

  private static func visitHeader(
    _ member: String, _ className: String, _ uid: Int, _ visitor: inout some CanonicalVisitor
  ) {
    if member == ArchiveKeys.class {
      visitor.visitClassMember(className)
    } else {
      visitor.visitIdentityMember(uid)
    }
  }

  /// A class object's field name as written: `$`-escaping undone, except for fields whose names are the view's
  /// own keys (`$class`, `$id`, `$ref`, `$cycle`) after any number of `$`: those keep their stored form (`$$class`
  /// stays `$$class`, `$$$class` stays `$$$class`), so as not to stand for the object's class or id or for a
  /// reference. A bare `$id`, `$ref` or `$cycle` (no archiver writes one: a user key beginning with `$` is stored
  /// escaped) gets one `$` more.
  package static func fieldName(_ key: String) -> String {
    guard key.utf8.first == UInt8(ascii: "$") else { return key }
    let core = key.drop { $0 == "$" }
    let dollars = key.utf8.count - core.utf8.count
    guard ["class", "id", "ref", "cycle"].contains(core) else { return KeyedArchiveGraph.unescaped(key) }
    return dollars == 1 ? "$" + key : key
  }

  /// Runs `body` (a class object's fields) in a new segment: a collection being expanded above the class object is
  /// written again in full inside it, not cut as a cycle (see ``collectionPath``).
  private mutating func inSegmentOfItsOwn(_ body: (inout KeyedArchiveWalk) throws -> Void) throws {
    let (outer, outerPassing) = (segment, passing)
    segmentsBegun += 1
    (segment, passing) = (segmentsBegun, [])
    defer { (segment, passing) = (outer, outerPassing) }
    try body(&self)
  }

  /// What a collection's expansion restores when it ends.
  struct Expansion {
    var uid: Int
    var outerSegment: Int32
    var outerPassing: Set<Int>
    var budget: Int
    var textBudget: Int
    var events: Int
    var deepest: Int
  }

  /// Begins expanding collection `uid`: `nil`, having written `{"$cycle": uid}`, when the collection is already
  /// being expanded above, or (while counting) having charged its count, when its expansion was pure (see
  /// ``pureExpansions``) and need not be walked again. Otherwise ``endCollection(_:)`` ends the expansion.
  mutating func beginCollection(_ uid: Int, _ visitor: inout some CanonicalVisitor) throws -> Expansion? {
    let outerSegment = collectionPath[uid] ?? 0
    if outerSegment == segment {
      contextEvents += 1
      visitor.visitCycle(uid)
      return nil
    }
    if counting, let pure = pureExpansions[uid] {
      deepestNesting = max(deepestNesting, depth + Int(pure.height))
      try charge(values: Int(pure.values), bytes: Int(pure.bytes))
      return nil
    }
    let expansion = Expansion(
      uid: uid, outerSegment: outerSegment, outerPassing: passing, budget: budget, textBudget: textBudget,
      events: contextEvents, deepest: deepestNesting)
    (collectionPath[uid], passing) = (segment, [])
    deepestNesting = depth
    return expansion
  }

  /// Ends the expansion ``beginCollection(_:_:)`` began.
  mutating func endCollection(_ expansion: Expansion) {
    let uid = expansion.uid
    if counting, contextEvents == expansion.events {
      pureExpansions[uid] = PureExpansion(
        values: Int32(clamping: expansion.budget - budget), bytes: Int32(clamping: expansion.textBudget - textBudget),
        height: Int32(clamping: deepestNesting - depth))
    }
    deepestNesting = max(deepestNesting, expansion.deepest)
    collectionPath[uid] = expansion.outerSegment == 0 ? nil : expansion.outerSegment
    passing = expansion.outerPassing
  }
}
