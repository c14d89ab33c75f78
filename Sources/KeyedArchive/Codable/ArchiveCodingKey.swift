/// A coding key made at run time: an index of an unkeyed container or the `super` key.
///
/// An index's name (`Index 3`) is only made when asked for (errors, `codingPath`): every element of an unkeyed
/// container gets a key, and formatting the number cost more than the rest of the element's path. Holding either a
/// name or an index also keeps the key small enough to live inside an `any CodingKey` without a heap box.
struct ArchiveCodingKey: CodingKey {
  private enum Storage {
    case name(String)
    case index(Int)
  }

  private let storage: Storage

  var stringValue: String {
    switch storage {
    case .name(let name): name
    case .index(let index): "Index \(index)"
    }
  }

  var intValue: Int? {
    switch storage {
    case .name: nil
    case .index(let index): index
    }
  }

  init(stringValue: String) {
    storage = .name(stringValue)
  }

  init(intValue: Int) {
    storage = .index(intValue)
  }

  /// The key `superEncoder()` / `superDecoder()` use, as Foundation's coders do.
  static let superKey = ArchiveCodingKey(stringValue: "super")

  /// A coding path as text, `items[2].count`, for error messages.
  static func describe(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue, key.stringValue == "Index \(index)" {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : "." + key.stringValue
      }
    }
    return text.isEmpty ? "the top level" : text
  }
}
