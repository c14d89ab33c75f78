import ArchiveCoding
import Foundation
import FoundationForms
import KeyedArchive
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
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the bytes are not a keyed archive or a reference is out of range.
  public init(archive data: Data) throws {
    var builder = ArchiveSnapshotBuilder(graph: try KeyedArchiveGraph(data: data))
    let root = try builder.topNode()
    try builder.run()
    self.init(nodes: builder.nodes, root: root, rootName: ArchiveKeys.top)
    sortUnorderedCollections()
  }
}

/// Builds a ``ValueSnapshot`` from an archive's graph with a work list instead of recursion.
struct ArchiveSnapshotBuilder {
  var graph: KeyedArchiveGraph
  var nodes: [ValueSnapshot.Node] = []
  private var objectNodes: [Int: Int] = [:]
  private var pending: [(node: Int, uid: Int)] = []

  static let dictionaryClasses: Set<String> = [FoundationClass.dictionary, FoundationClass.mutableDictionary]
  static let setClasses: Set<String> = [FoundationClass.set, FoundationClass.mutableSet]

  init(graph: KeyedArchiveGraph) { self.graph = graph }

  /// What object `uid` means when it is of one of Foundation's value classes with a form, read by the canonical
  /// walk; `nil` otherwise.
  private mutating func foundationValue(_ uid: Int) throws -> FoundationValue? {
    if walk == nil { walk = KeyedArchiveWalk(graph) }
    return try walk?.foundationValue(ofObject: uid)
  }

  /// Reads Foundation's forms from the archive.
  private var walk: KeyedArchiveWalk?

  private mutating func add(_ label: ValueSnapshot.Label, _ children: [(name: String, node: Int)] = []) -> Int {
    nodes.append(ValueSnapshot.Node(label: label, children: children, hasIdentity: false))
    return nodes.count - 1
  }

  mutating func topNode() throws -> Int {
    var children: [(name: String, node: Int)] = []
    for field in try graph.topLevelFields().sorted(by: { $0.key < $1.key }) {
      children.append((field.key, try node(forField: field.value)))
    }
    return add(.object(className: ArchiveKeys.top), children)
  }

  /// The node of a field value: a reference is followed, an inline array or dictionary is mapped member by
  /// member, anything else is a leaf.
  mutating func node(forField value: PropertyListValue) throws -> Int {
    switch value {
    case .uid(let raw):
      let uid = try graph.index(raw, at: .init())
      switch try graph.kind(of: uid) {
      case .null: return add(.none)
      case .classObject:
        if let existing = objectNodes[uid] { return existing }
        let index = add(.none)
        nodes[index].hasIdentity = true
        objectNodes[uid] = index
        pending.append((index, uid))
        return index
      default:
        guard let plain = try graph.plainValue(of: uid) else { return add(.none) }
        return try node(forField: plain)
      }
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
    guard case .object(let object) = try graph.entry(uid) else { return }
    let className = object.className
    // A Foundation value object by what it means, read through its form (FORM-070), as the value it decodes to.
    if let value = try foundationValue(uid) {
      nodes[index].label = ValueSnapshot.label(of: value)
      nodes[index].hasIdentity = false
      return
    }
    var children: [(name: String, node: Int)] = []
    if let chain = object.classDescription.classes {
      children.append((ArchiveKeys.classes, try node(forField: .array(chain.map { .string($0) }))))
    }
    let fields = object.fields
    var keys = fields.entries.compactMap { $0.key.stringValue }.sorted()
    if Self.dictionaryClasses.contains(className), case .array(let dictKeys)? = fields[FoundationKeys.nsKeys],
      case .array(let dictValues)? = fields[FoundationKeys.nsObjects], dictKeys.count == dictValues.count
    {
      keys.removeAll { $0 == FoundationKeys.nsKeys || $0 == FoundationKeys.nsObjects }
      var entries: [(name: String, node: Int)] = []
      for (key, value) in zip(dictKeys, dictValues) {
        entries.append(("", try node(forField: key)))
        entries.append(("", try node(forField: value)))
      }
      children.append(("\(FoundationKeys.nsKeys)+\(FoundationKeys.nsObjects)", add(.dictionary, entries)))
    } else if Self.setClasses.contains(className), case .array(let members)? = fields[FoundationKeys.nsObjects] {
      keys.removeAll { $0 == FoundationKeys.nsObjects }
      var entries: [(name: String, node: Int)] = []
      for member in members { entries.append(("", try node(forField: member))) }
      children.append((FoundationKeys.nsObjects, add(.set, entries)))
    }
    for key in keys {
      guard let value = fields[key] else { continue }
      children.append((key, try node(forField: value)))
    }
    nodes[index].label = .object(className: className)
    nodes[index].children = children
  }
}
