import Foundation

/// The Codable twin of a `flat-N` object, for PropertyListEncoder and JSONEncoder.
struct FlatItemValue: Codable {
  var int: Int
  var double: Double
  var bool: Bool
  var string: String
  var data: Data

  init(_ record: FlatRecord) {
    int = record.int
    double = record.double
    bool = record.bool
    string = record.string
    data = record.data
  }

  var record: FlatRecord { FlatRecord(int: int, double: double, bool: bool, string: string, data: data) }
}
