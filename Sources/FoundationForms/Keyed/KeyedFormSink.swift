import ArchiveCoding
import Foundation

/// Where a Foundation class's keyed form is written field by field (typed encoding, FORM-050): the archiver gives
/// the forms its own sink, so that the keys and shape a class is written with are the ones it is read with.
package protocol KeyedFormSink {
  /// An inline value (an integer, real, Boolean, or bytes written with the object).
  mutating func inline(_ value: CodedValue, forKey key: String)
  /// A string, number or data entry the field refers to.
  mutating func plain(_ value: CodedValue, forKey key: String)
  /// Another value the field refers to, archived as the sink archives values (`nil` is `$null`).
  mutating func object(_ value: Any?, forKey key: String)
}
