import ArchiveCoding
import Foundation
import PropertyList

extension ValueSnapshot {
  /// The canonical structure of a keyed archive, read without decoding any class: the graph reachable from
  /// `$top`, with objects labelled by `$classname` (their `$classes` chain as a child) and their fields by key.
  ///
  /// Two archives have equal structures when they hold the same graph, however their `$objects` are numbered and
  /// whether or not equal strings and numbers are shared: references to plain values compare by value, references
  /// to class instances by identity (sharing must match). The entries of `NSDictionary` / `NSMutableDictionary`
  /// (`NS.keys` with `NS.objects`) and the members of `NSSet` / `NSMutableSet` compare without regard to order.
  /// A string `"$null"` in `$objects` reads as `nil`, as it does for every unarchiver.
  ///
  /// - Throws: ``ArchiveError`` when the bytes are not a keyed archive or a reference is out of range.
  public init(archive data: Data) throws {
    let plist = try PropertyListReader.read(data)
    guard let top = plist.dictionaryValue, top["$archiver"] == "NSKeyedArchiver", top["$version"] == 100_000 else {
      throw ArchiveError(.unsupportedFormat, "expected a keyed archive ($archiver NSKeyedArchiver, $version 100000)")
    }
    guard let scope = top["$top"]?.dictionaryValue, let objects = top["$objects"]?.arrayValue else {
      throw ArchiveError(.corruptData, "expected a $top dictionary and an $objects array")
    }
    var builder = ArchiveSnapshotBuilder(objects: objects)
    let root = try builder.topNode(scope)
    try builder.run()
    self.init(nodes: builder.nodes, root: root, rootName: "$top")
    sortUnorderedCollections()
  }
}

/// Builds a ``ValueSnapshot`` from an archive's property list with a work list instead of recursion.
struct ArchiveSnapshotBuilder {
  let objects: [PropertyListValue]
  var nodes: [ValueSnapshot.Node] = []
  private var objectNodes: [Int: Int] = [:]
  private var pending: [(node: Int, uid: Int)] = []

  static let dictionaryClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]
  static let setClasses: Set<String> = ["NSSet", "NSMutableSet"]

  init(objects: [PropertyListValue]) { self.objects = objects }

  private mutating func add(_ label: ValueSnapshot.Label, _ children: [(name: String, node: Int)] = []) -> Int {
    nodes.append(ValueSnapshot.Node(label: label, children: children, hasIdentity: false))
    return nodes.count - 1
  }

  mutating func topNode(_ scope: PropertyListDictionary) throws -> Int {
    var children: [(name: String, node: Int)] = []
    for entry in scope.entries.sorted(by: { ($0.key.stringValue ?? "") < ($1.key.stringValue ?? "") }) {
      children.append((entry.key.stringValue ?? "\(entry.key)", try node(forField: entry.value)))
    }
    return add(.object(className: "$top"), children)
  }

  /// The node of a field value: a reference is followed, an inline array or dictionary is mapped member by
  /// member, anything else is a leaf.
  mutating func node(forField value: PropertyListValue) throws -> Int {
    switch value {
    case .uid(let raw):
      guard raw < UInt64(objects.count) else {
        throw ArchiveError(.corruptData, "reference to object #\(raw), but $objects has \(objects.count) entries")
      }
      let uid = Int(raw)
      if uid == 0 { return add(.none) }
      let entry = objects[uid]
      if case .dictionary(let fields) = entry, case .uid? = fields["$class"] {
        if let existing = objectNodes[uid] { return existing }
        let index = add(.none)
        nodes[index].hasIdentity = true
        objectNodes[uid] = index
        pending.append((index, uid))
        return index
      }
      if entry == "$null" { return add(.none) }
      return try node(forField: entry)
    case .array(let elements):
      var children: [(name: String, node: Int)] = []
      for (i, element) in elements.enumerated() { children.append(("[\(i)]", try node(forField: element))) }
      return add(.array, children)
    case .set(let members):
      var children: [(name: String, node: Int)] = []
      for member in members { children.append(("", try node(forField: member))) }
      return add(.set, children)
    case .dictionary(let entries):
      var children: [(name: String, node: Int)] = []
      for entry in entries.entries {
        children.append(("", try node(forField: entry.key)))
        children.append(("", try node(forField: entry.value)))
      }
      return add(.dictionary, children)
    default:
      return add(ValueSnapshot.plainLabel(value))
    }
  }

  mutating func run() throws {
    var head = 0
    while head < pending.count {
      let (index, uid) = pending[head]
      head += 1
      try expand(index, uid: uid)
    }
  }

  private mutating func expand(_ index: Int, uid: Int) throws {
    guard case .dictionary(let fields) = objects[uid], case .uid(let classRaw)? = fields["$class"] else { return }
    guard classRaw < UInt64(objects.count), let description = objects[Int(classRaw)].dictionaryValue,
      let className = description["$classname"]?.stringValue
    else {
      throw ArchiveError(
        .corruptData, "$class does not refer to a class description", at: .init(objectIndex: uid))
    }
    var children: [(name: String, node: Int)] = []
    if let chain = description["$classes"] { children.append(("$classes", try node(forField: chain))) }
    var keys = fields.entries.compactMap { $0.key.stringValue }.filter { $0 != "$class" }.sorted()
    if Self.dictionaryClasses.contains(className), case .array(let dictKeys)? = fields["NS.keys"],
      case .array(let dictValues)? = fields["NS.objects"], dictKeys.count == dictValues.count
    {
      keys.removeAll { $0 == "NS.keys" || $0 == "NS.objects" }
      var entries: [(name: String, node: Int)] = []
      for (key, value) in zip(dictKeys, dictValues) {
        entries.append(("", try node(forField: key)))
        entries.append(("", try node(forField: value)))
      }
      children.append(("NS.keys+NS.objects", add(.dictionary, entries)))
    } else if Self.setClasses.contains(className), case .array(let members)? = fields["NS.objects"] {
      keys.removeAll { $0 == "NS.objects" }
      var entries: [(name: String, node: Int)] = []
      for member in members { entries.append(("", try node(forField: member))) }
      children.append(("NS.objects", add(.set, entries)))
    }
    for key in keys {
      guard let value = fields[key] else { continue }
      children.append((key, try node(forField: value)))
    }
    nodes[index].label = .object(className: className)
    nodes[index].children = children
  }
}
