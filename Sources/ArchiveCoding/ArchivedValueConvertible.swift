/// A value type that typed decoding makes from the value its archived class decodes as: `Measurement<UnitLength>`
/// from the `Measurement<Unit>` an `NSMeasurement` decodes as, when its unit is a length. Decoding one with
/// ``DecodingCoder/decodeObject(of:forKey:)`` allows ``archivedClassNames`` under secure coding and converts the
/// decoded value with ``init(archivedValue:)``.
package protocol ArchivedValueConvertible {
  /// The archived class names the type's values are stored as (`NSMeasurement`).
  static var archivedClassNames: Set<String> { get }
  /// The decoded value `value` as this type, or `nil` when it is not one (a measurement of another dimension).
  init?(archivedValue value: Any)
}

/// Casts a decoded value to the type a decode call asked for.
package enum ArchivedValueCast {
  /// `value` as a `T`: itself when it is one, else converted when `T` is ``ArchivedValueConvertible``; `nil`
  /// otherwise.
  package static func cast<T>(_ value: Any, to type: T.Type) -> T? {
    if let typed = value as? T { return typed }
    guard let convertible = T.self as? any ArchivedValueConvertible.Type else { return nil }
    return convertible.init(archivedValue: value) as? T
  }
}
