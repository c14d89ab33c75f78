import Foundation

// `NSCoder.decodePropertyList(forKey:)`: an object restricted to the property-list classes (COD-106).
extension DecodingCoder {
  /// The Swift types whose archived classes make up a property list: strings, numbers, data, dates, arrays and
  /// dictionaries.
  public static var propertyListTypes: [Any.Type] {
    [String.self, Int.self, Data.self, Date.self, [Any].self, [String: Any].self]
  }

  /// A property list (a string, number, boolean, data, date, or an array or dictionary of them), as
  /// `NSCoder.decodePropertyList(forKey:)`; missing is `nil`. Not a requirement: forwards to
  /// ``decodeObject(forKey:allowedClasses:)`` with the property-list classes.
  /// - Throws: ``ArchiveError`` (`classNotAllowed`) under secure coding when the object, or anything inside it, is of
  ///   another class.
  public func decodePropertyList(forKey key: String) throws -> Any? {
    try applyingFailurePolicy(nil) {
      try decodeObject(forKey: key, allowedClasses: registry.allowedClassNames(for: Self.propertyListTypes))
    }
  }
}
