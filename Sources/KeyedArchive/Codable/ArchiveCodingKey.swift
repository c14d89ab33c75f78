/// A coding key made at run time: an index of an unkeyed container or the `super` key.
struct ArchiveCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = "Index \(intValue)"
    self.intValue = intValue
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
