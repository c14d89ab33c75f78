import Foundation

/// The ten mixed values of one entry of the `plist-N` input (String, Int, Double, Bool, Data, Date, an array of Ints).
struct PlistEntryRecord: Equatable {
  /// The keys of the inner dictionaries, shared by every entry and every twin.
  enum Key {
    static let name = "name"
    static let count = "count"
    static let ratio = "ratio"
    static let enabled = "enabled"
    static let blob = "blob"
    static let created = "created"
    static let title = "title"
    static let index = "index"
    static let tags = "tags"
    static let note = "note"
  }

  /// The entry's key in the outer dictionary; unique.
  var key: String
  var name: String
  var count: Int
  var ratio: Double
  var enabled: Bool
  /// Always 8 bytes.
  var blob: Data
  /// Whole seconds, so that every format round-trips it exactly.
  var created: Date
  /// One of 20 shared titles.
  var title: String
  var index: Int
  /// Three small integers.
  var tags: [Int]
  var note: String

  /// The entry as a Foundation dictionary (`NSDictionary` of `NSString`, `NSNumber`, `NSData`, `NSDate`,
  /// `NSArray`), as `PropertyListSerialization` and `NSKeyedArchiver` take it.
  func foundationDictionary() -> NSDictionary {
    let dictionary = NSMutableDictionary(capacity: 10)
    dictionary[Key.name] = NSString(string: name)
    dictionary[Key.count] = NSNumber(value: count)
    dictionary[Key.ratio] = NSNumber(value: ratio)
    dictionary[Key.enabled] = NSNumber(value: enabled)
    dictionary[Key.blob] = NSData(data: blob)
    dictionary[Key.created] = NSDate(timeIntervalSinceReferenceDate: created.timeIntervalSinceReferenceDate)
    dictionary[Key.title] = NSString(string: title)
    dictionary[Key.index] = NSNumber(value: index)
    dictionary[Key.tags] = NSArray(array: tags.map { NSNumber(value: $0) })
    dictionary[Key.note] = NSString(string: note)
    return dictionary
  }
}
