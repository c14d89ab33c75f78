import ArchiveCoding
import Foundation

// `NSCoder.decodePropertyList()` (COD-106).
extension KeyedUnarchiver {
  /// Reads the next unkeyed property list of the current scope, as `NSCoder.decodePropertyList()`: under secure
  /// coding only the property-list classes are allowed.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` as ``decodeObject()``; `classNotAllowed` under secure coding for another
  ///   class.
  public func decodePropertyList() throws -> Any? {
    try decodeUnkeyedObject(allowedClasses: registry.allowedClassNames(for: Self.propertyListTypes))
  }
}
