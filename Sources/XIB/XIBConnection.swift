/// A connection between two objects of a document: an outlet, an outlet-collection member, an action, a segue or
/// (macOS) a binding. Its source is the object whose `<connections>` list holds it.
public struct XIBConnection: Sendable, Hashable {
  /// The kind of connection.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// `<outlet property= destination=>`: sets `source.property = destination`.
    case outlet
    /// `<outletCollection property= destination=>`: appends `destination` to `source.property`.
    case outletCollection
    /// `<action selector= destination=|target= [eventType=]>`: `source` sends `selector` to the target.
    case action
    /// `<segue destination= kind= [identifier=]>` (storyboards).
    case segue
    /// `<binding name= destination= keyPath=>` (macOS only).
    case binding
  }

  /// The kind of connection.
  public var kind: Kind
  /// The connection's own id, when written.
  public var id: String?
  /// The id of the object that owns the connection (the outlet's owner, the control sending the action, the
  /// segue's trigger, the bound object).
  public var sourceID: String
  /// The id of the other end: the outlet's value, the action's target (`destination` on iOS, `target` on macOS;
  /// `nil` for a nil-targeted action), the segue's destination, the bound-to object.
  public var destinationID: String?
  /// The outlet or outlet-collection property, or the binding name.
  public var property: String?
  /// The action's selector (`buttonTapped:`).
  public var selector: String?
  /// The action's control event (`touchUpInside`), when written.
  public var eventType: String?
  /// The segue kind (`show`, `push`, `relationship`…).
  public var segueKind: String?
  /// The segue identifier, or the binding's key path for ``Kind/binding``.
  public var identifier: String?
  /// The action an `unwind` segue sends to the controller it unwinds to (`unwindToHome:`), when written
  /// (NIB-130).
  public var unwindAction: String?
  /// All attributes of the connection element, in document order.
  public var attributes: [XMLElementNode.Attribute]
  /// The 1-based line of the connection element.
  public var line: Int
  /// The 1-based column of the connection element.
  public var column: Int

  /// Creates a connection.
  public init(
    kind: Kind, id: String?, sourceID: String, destinationID: String?, property: String? = nil,
    selector: String? = nil, eventType: String? = nil, segueKind: String? = nil, identifier: String? = nil,
    attributes: [XMLElementNode.Attribute] = [], line: Int = 0, column: Int = 0
  ) {
    self.kind = kind
    self.id = id
    self.sourceID = sourceID
    self.destinationID = destinationID
    self.property = property
    self.selector = selector
    self.eventType = eventType
    self.segueKind = segueKind
    self.identifier = identifier
    self.attributes = attributes
    self.line = line
    self.column = column
  }

  /// The value of the named attribute of the connection element.
  public func attribute(_ name: String) -> String? {
    attributes.first { $0.name == name }?.value
  }
}
