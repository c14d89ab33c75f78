import ArchiveCoding
import Foundation
import PropertyList

/// Our twin of the `flat-N` item: a `Coding` class with the same five fields and keys as the NSCoding peer.
final class OurFlatItem: SecureCoding {
  var record: FlatRecord
  init(_ record: FlatRecord) { self.record = record }
  required init(coder: any DecodingCoder) throws {
    record = FlatRecord(
      int: try coder.decodeInt(forKey: FlatRecord.Key.int),
      double: try coder.decodeDouble(forKey: FlatRecord.Key.double),
      bool: try coder.decodeBool(forKey: FlatRecord.Key.bool),
      string: try coder.decodeString(forKey: FlatRecord.Key.string) ?? "",
      data: try coder.decodeData(forKey: FlatRecord.Key.data) ?? Data())
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(record.int, forKey: FlatRecord.Key.int)
    coder.encode(record.double, forKey: FlatRecord.Key.double)
    coder.encode(record.bool, forKey: FlatRecord.Key.bool)
    coder.encode(record.string, forKey: FlatRecord.Key.string)
    coder.encode(record.data, forKey: FlatRecord.Key.data)
  }
}

/// Our twin of a `tree-N` node.
final class OurTreeNode: SecureCoding {
  var name: String
  var value: Int
  var children: [OurTreeNode]
  init(name: String, value: Int, children: [OurTreeNode]) {
    self.name = name
    self.value = value
    self.children = children
  }
  required init(coder: any DecodingCoder) throws {
    name = try coder.decodeString(forKey: TreeNodeRecord.Key.name) ?? ""
    value = try coder.decodeInt(forKey: TreeNodeRecord.Key.value)
    children = try coder.decodeArrayOfObjects(ofClass: OurTreeNode.self, forKey: TreeNodeRecord.Key.children) ?? []
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(name, forKey: TreeNodeRecord.Key.name)
    coder.encode(value, forKey: TreeNodeRecord.Key.value)
    coder.encodeObject(children, forKey: TreeNodeRecord.Key.children)
  }
}

/// Our twin of a `cycle-N` node: both links go through the link phase, so a million-node list decodes without
/// recursion.
final class OurCycleNode: SecureCoding {
  var record: CycleNodeRecord
  var next: OurCycleNode?
  weak var previous: OurCycleNode?
  init(_ record: CycleNodeRecord) { self.record = record }
  required init(coder: any DecodingCoder) throws {
    record = CycleNodeRecord(
      value: try coder.decodeInt(forKey: CycleNodeRecord.Key.value),
      label: try coder.decodeString(forKey: CycleNodeRecord.Key.label) ?? "")
    try coder.decodeReference(forKey: CycleNodeRecord.Key.next, into: \OurCycleNode.next)
    try coder.decodeReference(forKey: CycleNodeRecord.Key.previous, into: \OurCycleNode.previous)
  }
  func encode(with coder: any EncodingCoder) {
    coder.encode(record.value, forKey: CycleNodeRecord.Key.value)
    coder.encode(record.label, forKey: CycleNodeRecord.Key.label)
    coder.encodeObject(next, forKey: CycleNodeRecord.Key.next)
    coder.encodeObject(previous, forKey: CycleNodeRecord.Key.previous)
  }

  /// Unlinks a decoded list front to back, so releasing it does not recurse a million frames deep.
  static func release(_ head: OurCycleNode?) {
    var node = head
    while let current = node {
      node = current.next
      current.next = nil
    }
  }
}

/// Our twin of the `small` object.
final class OurSmallObject: SecureCoding {
  var record: SmallRecord
  init(_ record: SmallRecord) { self.record = record }
  required init(coder: any DecodingCoder) throws {
    typealias Key = SmallRecord.Key
    record = SmallRecord(
      identifier: try coder.decodeInt(forKey: Key.identifier), name: try coder.decodeString(forKey: Key.name) ?? "",
      score: try coder.decodeDouble(forKey: Key.score), enabled: try coder.decodeBool(forKey: Key.enabled),
      payload: try coder.decodeData(forKey: Key.payload) ?? Data(), count: try coder.decodeInt(forKey: Key.count),
      ratio: try coder.decodeDouble(forKey: Key.ratio), visible: try coder.decodeBool(forKey: Key.visible),
      title: try coder.decodeString(forKey: Key.title) ?? "", flags: try coder.decodeInt(forKey: Key.flags))
  }
  func encode(with coder: any EncodingCoder) {
    typealias Key = SmallRecord.Key
    coder.encode(record.identifier, forKey: Key.identifier)
    coder.encode(record.name, forKey: Key.name)
    coder.encode(record.score, forKey: Key.score)
    coder.encode(record.enabled, forKey: Key.enabled)
    coder.encode(record.payload, forKey: Key.payload)
    coder.encode(record.count, forKey: Key.count)
    coder.encode(record.ratio, forKey: Key.ratio)
    coder.encode(record.visible, forKey: Key.visible)
    coder.encode(record.title, forKey: Key.title)
    coder.encode(record.flags, forKey: Key.flags)
  }
}

enum OurModels {
  static let registered: Void = {
    ClassRegistry.shared.register(OurFlatItem.self, as: "FlatItem")
    ClassRegistry.shared.register(OurTreeNode.self, as: "TreeNode")
    ClassRegistry.shared.register(OurCycleNode.self, as: "CycleNode")
    ClassRegistry.shared.register(OurSmallObject.self, as: "SmallObject")
  }()

  /// A `plist-N` entry as Swift Foundation values.
  static func value(of entry: PlistEntryRecord) -> [String: Any] {
    typealias Key = PlistEntryRecord.Key
    return [
      Key.name: entry.name, Key.count: entry.count, Key.ratio: entry.ratio, Key.enabled: entry.enabled,
      Key.blob: entry.blob, Key.created: entry.created, Key.title: entry.title, Key.index: entry.index,
      Key.tags: entry.tags, Key.note: entry.note,
    ]
  }

  static func value(of input: PlistInput) -> [String: Any] {
    var dictionary: [String: Any] = [:]
    dictionary.reserveCapacity(input.entries.count)
    for entry in input.entries { dictionary[entry.key] = value(of: entry) }
    return dictionary
  }

  static func record(key: String, _ value: Any?) -> PlistEntryRecord? {
    typealias Key = PlistEntryRecord.Key
    guard let d = value as? [String: Any], let name = d[Key.name] as? String, let count = d[Key.count] as? Int,
      let ratio = d[Key.ratio] as? Double, let enabled = d[Key.enabled] as? Bool, let blob = d[Key.blob] as? Data,
      let created = d[Key.created] as? Date, let title = d[Key.title] as? String, let index = d[Key.index] as? Int,
      let tags = d[Key.tags] as? [Int], let note = d[Key.note] as? String
    else { return nil }
    return PlistEntryRecord(
      key: key, name: name, count: count, ratio: ratio, enabled: enabled, blob: blob, created: created, title: title,
      index: index, tags: tags, note: note)
  }
}

/// A decoded list; releasing it unlinks the nodes front to back, so no release recursion happens.
final class CycleList {
  let head: OurCycleNode
  init(head: OurCycleNode) { self.head = head }
  deinit { OurCycleNode.release(head) }
}

/// A failed benchmark operation.
struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension OurModels {
  /// The `plist-N` input as our property-list value.
  static func propertyListValue(of input: PlistInput) -> PropertyListValue {
    typealias Key = PlistEntryRecord.Key
    var root = PropertyListDictionary()
    for entry in input.entries {
      root[entry.key] = .dictionary(
        PropertyListDictionary(stringKeyed: [
          Key.name: .string(entry.name), Key.count: .integer(Int64(entry.count)), Key.ratio: .real(entry.ratio),
          Key.enabled: .bool(entry.enabled), Key.blob: .data(entry.blob), Key.created: .date(entry.created),
          Key.title: .string(entry.title), Key.index: .integer(Int64(entry.index)),
          Key.tags: .array(entry.tags.map { .integer(Int64($0)) }), Key.note: .string(entry.note),
        ]))
    }
    return .dictionary(root)
  }
}
