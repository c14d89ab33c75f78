import Foundation

/// One value under construction while a `Codable` value is encoded: a leaf (a string, a number, a Foundation
/// value or `NSNull`), a keyed container (an `NSDictionary` with string keys) or an unkeyed container (an
/// `NSArray`). A class, so that nested containers and super encoders can fill it after they are handed out.
final class ArchiveEncodingNode {
  enum Content {
    case empty
    case leaf(Any)
    case keyed([String: ArchiveEncodingNode])
    case unkeyed([ArchiveEncodingNode])
  }

  var content: Content = .empty

  init() {}

  init(leaf: Any) { content = .leaf(leaf) }

  /// Stores `node` under `key`, making this node a keyed container if it is not one yet.
  func set(_ node: ArchiveEncodingNode, forKey key: String) {
    if case .keyed(var entries) = content {
      content = .empty
      entries[key] = node
      content = .keyed(entries)
    } else {
      content = .keyed([key: node])
    }
  }

  /// Appends `node`, making this node an unkeyed container if it is not one yet.
  func append(_ node: ArchiveEncodingNode) {
    if case .unkeyed(var elements) = content {
      content = .empty
      elements.append(node)
      content = .unkeyed(elements)
    } else {
      content = .unkeyed([node])
    }
  }

  var count: Int {
    if case .unkeyed(let elements) = content { return elements.count }
    return 0
  }

  func makeKeyed() {
    if case .keyed = content { return }
    content = .keyed([:])
  }

  func makeUnkeyed() {
    if case .unkeyed = content { return }
    content = .unkeyed([])
  }

  /// The Swift value the archiver writes: `[String: Any]`, `[Any]` or the leaf. A value that encoded nothing is
  /// an empty dictionary (as `JSONEncoder` writes `{}`).
  func materialized() -> Any {
    switch content {
    case .empty: return [String: Any]()
    case .leaf(let value): return value
    case .keyed(let entries): return entries.mapValues { $0.materialized() }
    case .unkeyed(let elements): return elements.map { $0.materialized() }
    }
  }
}
