import ArchiveCoding

/// A property value stored in an Interface Builder document: a typed scalar, geometry, a reference to an object of
/// the document, a list, or a structured element such as a colour or font description.
///
/// XIB 3.0 writes structured values as child elements carrying a `key` (`<rect key="frame" …/>`,
/// `<color key="backgroundColor" …/>`); the older archive documents write keyed archive elements
/// (`<string key="IBUIText">`). Both end up here.
public indirect enum XIBValue: Sendable, Hashable {
  /// An explicit nil (`<nil key="highlightedColor"/>`).
  case null
  /// A boolean (`<bool key= value="YES"/>`; archive `<bool>YES</bool>`).
  case bool(Bool)
  /// An integer (`<integer key= value=/>`; archive `<int>`).
  case integer(Int)
  /// A floating-point number (`<real key= value=/>`; archive `<float>`, `<double>`).
  case real(Double)
  /// A string (`<string key=>text</string>`, base64 content already decoded).
  case string(String)
  /// Bytes (archive `<bytes>`, base64 decoded).
  case data([UInt8])
  /// A rectangle (`<rect key= x= y= width= height=/>`).
  case rect(x: Double, y: Double, width: Double, height: Double)
  /// A point (`<point key= x= y=/>`).
  case point(x: Double, y: Double)
  /// A size (`<size key= width= height=/>`).
  case size(width: Double, height: Double)
  /// Another object of the document, by its id (a child object element, or a record object in an archive).
  case object(id: String)
  /// In an archive document, a reference to an archived object that has no object record, by its archive `id`.
  case archivedReference(String)
  /// An ordered list: the members of a collection element such as `<subviews>` or `<segments>`.
  case array([XIBValue])
  /// Any other structured value, kept whole.
  case element(XIBElementValue)

  /// The string, when the value is a string.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The object id, when the value refers to an object of the document.
  public var objectID: String? {
    if case .object(let id) = self { return id }
    return nil
  }

  /// The members, when the value is a list.
  public var arrayValue: [XIBValue]? {
    if case .array(let members) = self { return members }
    return nil
  }

  /// The structured element, when the value is one.
  public var elementValue: XIBElementValue? {
    if case .element(let element) = self { return element }
    return nil
  }
}

/// A value stored under a key: a property of an object or of a structured value.
public typealias XIBKeyedValue = KeyedEntry<String, XIBValue>

/// A structured value kept as written: its element name, attributes, keyed children and unkeyed children.
///
/// `<color key="textColor" red="0" green="0" blue="0" alpha="1" colorSpace="custom" customColorSpace="sRGB"/>`
/// becomes the element value `color` with those six attributes; `<state key="normal" title="OK"><color
/// key="titleColor" …/></state>` becomes `state` with the attribute `title` and the keyed value `titleColor`.
public struct XIBElementValue: Sendable, Hashable {
  /// The element name (`color`, `fontDescription`, `state`; for archive objects the archived class name).
  public var name: String
  /// The element's attributes in document order, without `key`.
  public var attributes: [XMLElementNode.Attribute]
  /// Child values that carry a key, in document order.
  public var values: [XIBKeyedValue]
  /// Child values without a key, in document order.
  public var items: [XIBValue]
  /// The element's text, when it has some.
  public var text: String

  /// Creates a structured value.
  public init(
    name: String, attributes: [XMLElementNode.Attribute] = [], values: [XIBKeyedValue] = [], items: [XIBValue] = [],
    text: String = ""
  ) {
    self.name = name
    self.attributes = attributes
    self.values = values
    self.items = items
    self.text = text
  }

  /// The value of the named attribute.
  public func attribute(_ name: String) -> String? {
    attributes.first { $0.name == name }?.value
  }

  /// The first child value stored under `key`.
  public func value(forKey key: String) -> XIBValue? {
    values.first { $0.key == key }?.value
  }
}
