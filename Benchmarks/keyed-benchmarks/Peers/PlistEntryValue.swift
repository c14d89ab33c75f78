import Foundation

/// The Codable twin of one `plist-N` entry (the whole input is a `[String: PlistEntryValue]`).
struct PlistEntryValue: Codable {
  var name: String
  var count: Int
  var ratio: Double
  var enabled: Bool
  var blob: Data
  var created: Date
  var title: String
  var index: Int
  var tags: [Int]
  var note: String

  init(_ record: PlistEntryRecord) {
    name = record.name
    count = record.count
    ratio = record.ratio
    enabled = record.enabled
    blob = record.blob
    created = record.created
    title = record.title
    index = record.index
    tags = record.tags
    note = record.note
  }

  func record(key: String) -> PlistEntryRecord {
    PlistEntryRecord(
      key: key, name: name, count: count, ratio: ratio, enabled: enabled, blob: blob, created: created, title: title,
      index: index, tags: tags, note: note)
  }
}
