/// One element of an XML document as read by ``XMLScanner``: its name, its attributes in document order, its child
/// elements, its character data and where it starts in the input.
///
/// The tree keeps only what the XIB front end needs: comments, processing instructions and the document type
/// declaration are dropped, and entity and character references are already replaced.
public struct XMLElementNode: Sendable, Hashable {
  /// One attribute of an element, as written (`name="value"`), with references replaced and white space in the
  /// value normalized as XML requires (each tab, line feed or carriage return becomes a space).
  public struct Attribute: Sendable, Hashable {
    /// The attribute's name, including any namespace prefix.
    public var name: String
    /// The attribute's value.
    public var value: String

    /// Creates an attribute.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The element's name, including any namespace prefix.
  public var name: String
  /// The element's attributes in the order they were written.
  public var attributes: [Attribute]
  /// The element's child elements in document order.
  public var children: [XMLElementNode]
  /// The element's character data (text and CDATA sections, references replaced, line ends normalized to line
  /// feeds). For an element with child elements, runs of character data that are only white space are left out;
  /// for an element without child elements the text is kept exactly.
  public var text: String
  /// The 1-based line of the element's `<`.
  public var line: Int
  /// The 1-based column of the element's `<`, counted in Unicode scalars.
  public var column: Int
  /// The byte offset of the element's `<` in the input.
  public var byteOffset: Int

  /// Creates an element.
  public init(
    name: String, attributes: [Attribute] = [], children: [XMLElementNode] = [], text: String = "", line: Int = 0,
    column: Int = 0, byteOffset: Int = 0
  ) {
    self.name = name
    self.attributes = attributes
    self.children = children
    self.text = text
    self.line = line
    self.column = column
    self.byteOffset = byteOffset
  }

  /// The value of the attribute with the given name, or `nil` when the element has no such attribute.
  public subscript(attribute name: String) -> String? {
    for attribute in attributes where attribute.name == name {
      return attribute.value
    }
    return nil
  }

  /// The number of elements in this subtree, this element included.
  public var elementCount: Int {
    var count = 1
    for child in children {
      count += child.elementCount
    }
    return count
  }
}
