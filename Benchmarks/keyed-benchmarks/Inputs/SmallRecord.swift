import Foundation

/// The ten fields of the `small` object.
struct SmallRecord: Equatable {
  /// The keys every keyed twin writes.
  enum Key {
    static let identifier = "identifier"
    static let name = "name"
    static let score = "score"
    static let enabled = "enabled"
    static let payload = "payload"
    static let count = "count"
    static let ratio = "ratio"
    static let visible = "visible"
    static let title = "title"
    static let flags = "flags"
  }

  var identifier: Int
  var name: String
  var score: Double
  var enabled: Bool
  /// Always 16 bytes.
  var payload: Data
  var count: Int
  var ratio: Double
  var visible: Bool
  var title: String
  var flags: Int
}
