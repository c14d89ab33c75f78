import Foundation

/// The Codable twin of the `small` object.
struct SmallValue: Codable {
  var identifier: Int
  var name: String
  var score: Double
  var enabled: Bool
  var payload: Data
  var count: Int
  var ratio: Double
  var visible: Bool
  var title: String
  var flags: Int

  init(_ record: SmallRecord) {
    identifier = record.identifier
    name = record.name
    score = record.score
    enabled = record.enabled
    payload = record.payload
    count = record.count
    ratio = record.ratio
    visible = record.visible
    title = record.title
    flags = record.flags
  }

  var record: SmallRecord {
    SmallRecord(
      identifier: identifier, name: name, score: score, enabled: enabled, payload: payload, count: count, ratio: ratio,
      visible: visible, title: title, flags: flags)
  }
}
