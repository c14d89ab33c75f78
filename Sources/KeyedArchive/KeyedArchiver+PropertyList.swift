import ArchiveCoding
import Foundation

// `NSCoder.encodePropertyList(_:)` (COD-106).
extension KeyedArchiver {
  /// Writes a property list (a string, number, boolean, data, date, or an array or dictionary of them) under the next
  /// unkeyed slot of the current scope, as `NSCoder.encodePropertyList(_:)`; read it with
  /// ``KeyedUnarchiver/decodePropertyList()``.
  public func encodePropertyList(_ propertyList: Any) { encodeObject(propertyList) }
}
