import Foundation

/// How the peers call the toolchain's NSKeyedArchiver and NSKeyedUnarchiver.
enum FoundationArchiving {
  /// The archived class names of the NSCoding twins: short names, as an app would set them, so the archives carry
  /// the same class names as ours.
  static let classNames: [(any AnyObject.Type, String)] = [
    (FlatItemObject.self, "FlatItem"), (TreeNodeObject.self, "TreeNode"), (SmallObject.self, "SmallObject"),
  ]

  /// Maps the twins to their short class names in both directions; call once before any case runs.
  static func registerClassNames() {
    for (type, name): (any AnyObject.Type, String) in classNames {
      NSKeyedArchiver.setClassName(name, for: type)
      NSKeyedUnarchiver.setClass(type, forClassName: name)
    }
  }

  /// A binary keyed archive of `root`, without secure coding (as most apps archive their own classes).
  static func archive(_ root: Any) throws -> Data {
    try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
  }

  /// The root object of a keyed archive, without secure coding.
  static func unarchive(_ data: Data) throws -> Any? {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    defer { unarchiver.finishDecoding() }
    return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
  }
}
