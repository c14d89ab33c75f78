import ArchiveCoding
import Foundation

// `NSCoder.encodePropertyList(_:)` (COD-106).
extension KeyedArchiver {
  /// Writes a property list (a string, number, boolean, data, date, or an array or dictionary of them) under the next
  /// unkeyed slot of the current scope, as `NSCoder.encodePropertyList(_:)`; read it with
  /// ``KeyedUnarchiver/decodePropertyList()``.
  public func encodePropertyList(_ propertyList: Any) { encodeObject(propertyList) }
}

extension KeyedUnarchiver {
  /// Reads the next unkeyed property list of the current scope, as `NSCoder.decodePropertyList()`: under secure
  /// coding only the property-list classes are allowed.
  /// - Throws: ``ArchiveError`` as ``decodeObject()``; `classNotAllowed` under secure coding for another class.
  public func decodePropertyList() throws -> Any? {
    try decodeUnkeyedObject(allowedClasses: registry.allowedClassNames(for: Self.propertyListTypes))
  }
}
