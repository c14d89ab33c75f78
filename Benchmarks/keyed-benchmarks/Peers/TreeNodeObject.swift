import Foundation

/// The NSCoding twin of a `tree-N` node (archived as class `TreeNode`).
final class TreeNodeObject: NSObject, NSCoding {
  let name: String
  let value: Int
  let children: [TreeNodeObject]

  init(_ record: TreeNodeRecord, children: [TreeNodeObject]) {
    name = record.name
    value = record.value
    self.children = children
  }

  func encode(with coder: NSCoder) {
    coder.encode(NSString(string: name), forKey: TreeNodeRecord.Key.name)
    coder.encode(value, forKey: TreeNodeRecord.Key.value)
    coder.encode(NSArray(array: children), forKey: TreeNodeRecord.Key.children)
  }

  init?(coder: NSCoder) {
    guard let name = coder.decodeObject(forKey: TreeNodeRecord.Key.name) as? String,
      let children = coder.decodeObject(forKey: TreeNodeRecord.Key.children) as? [TreeNodeObject]
    else { return nil }
    self.name = name
    value = coder.decodeInteger(forKey: TreeNodeRecord.Key.value)
    self.children = children
  }
}
