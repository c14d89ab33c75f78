import Foundation

/// The fields of one object of the `flat-N` input: what every flat twin stores.
struct FlatRecord: Equatable {
  /// The keys every keyed twin writes, so all archives carry the same names.
  enum Key {
    static let int = "int"
    static let double = "double"
    static let bool = "bool"
    static let string = "string"
    static let data = "data"
  }

  var int: Int
  var double: Double
  var bool: Bool
  /// Unique across the input.
  var string: String
  /// Always 16 bytes.
  var data: Data
}
