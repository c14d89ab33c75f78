import ArchiveCoding
import FoundationForms

/// The objects of an ``ObjectTable`` as canonical JSON, by document id, for comparing tables object by object
/// (ARC-173): each object's class, placeholder, fields, and the connections and runtime attributes it is the source
/// of; a reference to another object is `{"$ref": "<id>"}`, compared by id, never followed.
struct TableNodes {
  typealias Node = CanonicalJSON.Node
  /// The ids, in document order (an object without an id is `#<index>`).
  var ids: [String] = []
  /// Each object by id.
  var objects: [String: Node] = [:]
  /// What each object is called in a path: the first outlet of a placeholder that refers to it, else the first
  /// other outlet (``structuralOutlets`` aside), else its element's name.
  var names: [String: String] = [:]

  /// The members that hold each kind of connection, keyed by the connection's label.
  static let connectionMembers: [ConnectionRecord.Kind: String] = [
    .outlet: "outlets", .outletCollection: "outletCollections", .action: "actions", .segue: "segues",
  ]
  /// Outlets that wire objects together rather than name them (the key-view loop, delegates): they never name an
  /// object in a path.
  static let structuralOutlets: Set<String> = [
    "nextKeyView", "initialFirstResponder", "delegate", "dataSource", "menu", "target",
  ]
  /// The member that holds the runtime attributes, keyed by key path.
  static let runtimeAttributesMember = "runtimeAttributes"

  /// The objects of `table`, under the ids `ids` gives (one per object, in order), else their own.
  init(_ table: ObjectTable, ids displayIDs: [String]? = nil) {
    let idOf =
      displayIDs ?? table.objects.indices.map { table.objects[$0].id.isEmpty ? "#\($0)" : table.objects[$0].id }
    func reference(_ index: Int?) -> Node {
      guard let index, idOf.indices.contains(index) else { return .raw("null") }
      return .object([(CanonicalJSON.Member.reference.rawValue, .raw(CanonicalJSON.string(idOf[index])))])
    }
    // Connections and attributes by source object, then by member and label (a label used more than once holds
    // every value, in document order).
    var extra: [Int: [String: [(String, Node)]]] = [:]
    var namingRanks: [Int: Int] = [:]
    for connection in table.connections {
      guard let member = Self.connectionMembers[connection.kind] else { continue }
      var value = reference(connection.destination)
      if connection.kind == .action {
        var parts: [(String, Node)] = [("target", value)]
        if let event = connection.eventName { parts.append(("event", .raw(CanonicalJSON.string(event)))) }
        value = CanonicalJSON.sortedObject(parts)
      }
      extra[connection.source, default: [:]][member, default: []].append((connection.label, value))
      if connection.kind == .outlet, let destination = connection.destination, idOf.indices.contains(destination),
        !Self.structuralOutlets.contains(connection.label)
      {
        // A placeholder's outlet (File's Owner's) names the object before any other.
        let rank =
          table.objects.indices.contains(connection.source) && table.objects[connection.source].placeholder != nil
          ? 0 : 1
        if rank < namingRanks[destination, default: 2] {
          namingRanks[destination] = rank
          names[idOf[destination]] = connection.label
        }
      }
    }
    for attribute in table.runtimeAttributes {
      let value: Node = CanonicalJSON.node(attribute.value, reference: reference)
      extra[attribute.object, default: [:]][Self.runtimeAttributesMember, default: []].append(
        (attribute.keyPath, value))
    }
    for (index, record) in table.objects.enumerated() {
      let id = idOf[index]
      guard objects[id] == nil else { continue }
      var members: [(String, Node)] = [
        (CanonicalJSON.Member.className.rawValue, .raw(CanonicalJSON.string(record.className)))
      ]
      if let placeholder = record.placeholder {
        members.append((CanonicalJSON.Member.placeholder.rawValue, .raw(CanonicalJSON.string(placeholder.label))))
      }
      var keys = Set(members.map(\.0))
      for field in record.fields where keys.insert(field.key).inserted {
        let value: Node = CanonicalJSON.node(field.value, reference: reference)
        members.append((field.key, value))
      }
      for (member, entries) in extra[index] ?? [:] where keys.insert(member).inserted {
        members.append((member, Self.grouped(entries)))
      }
      ids.append(id)
      objects[id] = CanonicalJSON.sortedObject(members)
      if names[id] == nil { names[id] = record.elementName }
    }
  }

  /// Entries by label: one value as itself, several as an array in their order.
  private static func grouped(_ entries: [(String, Node)]) -> Node {
    var order: [String] = []
    var values: [String: [Node]] = [:]
    for (label, value) in entries {
      if values[label] == nil { order.append(label) }
      values[label, default: []].append(value)
    }
    return CanonicalJSON.sortedObject(
      order.map { label in
        let list = values[label] ?? []
        return (label, list.count == 1 ? list[0] : .array(list))
      })
  }
}
