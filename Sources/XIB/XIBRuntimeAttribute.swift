/// One user-defined runtime attribute (`<userDefinedRuntimeAttribute type= keyPath= value=>`), applied with
/// key-value coding after the object is created.
public struct XIBRuntimeAttribute: Sendable, Hashable {
  /// The attribute type as written: `boolean`, `number`, `string`, `localizedString`, `color`, `size`, `point`,
  /// `rect`, `range`, `image`, `nil`.
  public var type: String
  /// The key path to set.
  public var keyPath: String
  /// The value: from the `value` attribute (`boolean` as ``XIBValue/bool(_:)``, `string` as
  /// ``XIBValue/string(_:)``), or from the child element with `key="value"`; ``XIBValue/null`` when neither exists.
  public var value: XIBValue
  /// The 1-based line of the element.
  public var line: Int
  /// The 1-based column of the element.
  public var column: Int

  /// Creates a runtime attribute.
  public init(type: String, keyPath: String, value: XIBValue, line: Int = 0, column: Int = 0) {
    self.type = type
    self.keyPath = keyPath
    self.value = value
    self.line = line
    self.column = column
  }
}
