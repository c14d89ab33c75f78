import Foundation

/// The format-neutral middle of the pipeline: every object of a document with its class and keyed fields, the
/// placeholders, and the connection table. Front ends (XIB and storyboard XML, compiled nibs in either container)
/// produce it; the nib loader decodes its objects through `init(coder:)`, then links and awakens them.
///
/// An object table is an immutable value: a `Nib` parses a file once and instantiates its table many times.
public struct ObjectTable: Sendable, Hashable {
  /// Every object of the document, placeholders included, in document order.
  public var objects: [ObjectRecord]
  /// Indexes of the top-level objects (placeholders included), in document order.
  public var topLevel: [Int]
  /// The connection table, in document order.
  public var connections: [ConnectionRecord]
  /// User-defined runtime attributes, applied with key-value coding before the outlets.
  public var runtimeAttributes: [RuntimeAttributeRecord]
  /// Indexes of windows marked visible at launch.
  public var visibleWindows: [Int]
  /// The platform the document targets.
  public var platform: Platform
  /// Non-fatal problems met while building the table (unknown elements, and so on), with their locations.
  public var warnings: [String]

  /// The platform a document targets; decides default classes and placeholder ids.
  public enum Platform: String, Sendable, Hashable {
    /// UIKit (iOS, tvOS, Mac Catalyst).
    case uiKit
    /// AppKit (macOS).
    case appKit
  }

  /// Creates a table.
  public init(
    objects: [ObjectRecord] = [], topLevel: [Int] = [], connections: [ConnectionRecord] = [],
    runtimeAttributes: [RuntimeAttributeRecord] = [], visibleWindows: [Int] = [], platform: Platform = .uiKit,
    warnings: [String] = []
  ) {
    self.objects = objects
    self.topLevel = topLevel
    self.connections = connections
    self.runtimeAttributes = runtimeAttributes
    self.visibleWindows = visibleWindows
    self.platform = platform
    self.warnings = warnings
  }

  /// The index of the object with a document id.
  public func index(ofID id: String) -> Int? { objects.firstIndex { $0.id == id } }
}

/// One object of an ``ObjectTable``.
public struct ObjectRecord: Sendable, Hashable {
  /// The document's id for it (a XIB id such as `"CzU-k1-4L7"`, or the object's index for compiled nibs).
  public var id: String
  /// The class to instantiate: the custom class when one is set, module-qualified when the document says so.
  public var className: String
  /// The class of the element itself (`UILabel` for a `<label>` with a custom class), used when ``className``
  /// is not registered: Apple then warns and instantiates the base class.
  public var baseClassName: String
  /// The element or archived class name the object came from (`"label"`, `"UIButton"`), for messages.
  public var elementName: String
  /// Set for File's Owner, First Responder, external objects and other stand-ins: never decoded or awakened.
  public var placeholder: Placeholder?
  /// The object's keyed fields, in document order.
  public var fields: [ObjectField]
  /// Where the object is defined (file:line:column for XML).
  public var location: ArchiveError.Location

  /// Creates a record.
  public init(
    id: String, className: String, baseClassName: String? = nil, elementName: String? = nil,
    placeholder: Placeholder? = nil, fields: [ObjectField] = [], location: ArchiveError.Location = .init()
  ) {
    self.id = id
    self.className = className
    self.baseClassName = baseClassName ?? className
    self.elementName = elementName ?? className
    self.placeholder = placeholder
    self.fields = fields
    self.location = location
  }

  /// The value of a field.
  public func field(_ key: String) -> FieldValue? { fields.first { $0.key == key }?.value }
}

/// A placeholder's role.
public enum Placeholder: Sendable, Hashable {
  /// File's Owner: the owner passed to instantiation.
  case filesOwner
  /// First Responder: the responder chain (`nil` target).
  case firstResponder
  /// The shared application (macOS `-3`, a storyboard's `<application>`).
  case application
  /// An external object, supplied by identifier in the instantiation options.
  case external(String)
  /// Other stand-ins: storyboard exits, view-controller placeholders, upstream placeholders.
  case other(String)
}

/// One keyed field of an object.
public typealias ObjectField = KeyedEntry<String, FieldValue>

/// A field value in an ``ObjectTable``: primitives, references to other objects by index, collections, geometry
/// and small structured values (colours, fonts, button states) as records.
public indirect enum FieldValue: Sendable, Hashable {
  /// Explicitly nil (`<nil key=…>`, `$null`).
  case null
  /// A boolean.
  case bool(Bool)
  /// An integer.
  case integer(Int64)
  /// A real.
  case real(Double)
  /// A string (XML attributes are strings; typed decoding converts `"YES"`, `"3"`, `"0.5"`).
  case string(String)
  /// Raw bytes.
  case data(Data)
  /// A reference to another object of the table, by index.
  case object(Int)
  /// An ordered collection (`<subviews>`, `NS.objects`).
  case array([FieldValue])
  /// A point.
  case point(x: Double, y: Double)
  /// A size.
  case size(width: Double, height: Double)
  /// A rectangle.
  case rect(x: Double, y: Double, width: Double, height: Double)
  /// A structured value that is not an object of the document: its element name and fields (`<color>`,
  /// `<fontDescription>`, `<state>`, `<autoresizingMask>`, `<inset>`).
  case record(String, [ObjectField])
}

/// One connection of an ``ObjectTable``.
public struct ConnectionRecord: Sendable, Hashable {
  /// The kind of connection.
  public enum Kind: String, Sendable, Hashable {
    /// `source.label = destination` through key-value coding.
    case outlet
    /// `destination` appended to the collection `source.label`.
    case outletCollection
    /// `source` sends `label` (an action name such as `"dismiss:"`) to `destination` (nil: the responder chain).
    case action
    /// A storyboard segue from `source` to `destination`.
    case segue
  }
  /// The kind.
  public var kind: Kind
  /// The object that holds the outlet, or the control that sends the action.
  public var source: Int
  /// The outlet's value or the action's target; `nil` for an action sent up the responder chain.
  public var destination: Int?
  /// The outlet key or action name.
  public var label: String
  /// The event mask of a UIKit action (`touchUpInside` = 64), when one is given.
  public var eventMask: UInt64?
  /// The event's name as the document wrote it (`"touchUpInside"`), for traces.
  public var eventName: String?
  /// The connection's document id, when it has one.
  public var id: String?
  /// Where the connection is defined.
  public var location: ArchiveError.Location
  /// The action an unwind segue (kind `unwind`) sends to the controller it unwinds to (`"unwindToHome:"`).
  public var unwindAction: String?
  /// The storyboard identifier of the scene a segue leads to, when that scene is another one: what a compiled
  /// scene keeps of a destination it does not hold.
  public var destinationIdentifier: String?

  /// Creates a connection.
  public init(
    kind: Kind, source: Int, destination: Int?, label: String, eventMask: UInt64? = nil, eventName: String? = nil,
    id: String? = nil, location: ArchiveError.Location = .init(), unwindAction: String? = nil
  ) {
    self.unwindAction = unwindAction
    self.kind = kind
    self.source = source
    self.destination = destination
    self.label = label
    self.eventMask = eventMask
    self.eventName = eventName
    self.id = id
    self.location = location
  }
}

/// A user-defined runtime attribute: `object.setValue(value, forKeyPath: keyPath)`.
public struct RuntimeAttributeRecord: Sendable, Hashable {
  /// The object the attribute is set on.
  public var object: Int
  /// The key path.
  public var keyPath: String
  /// The value.
  public var value: FieldValue
  /// Where the attribute is defined.
  public var location: ArchiveError.Location

  /// Creates a runtime attribute.
  public init(object: Int, keyPath: String, value: FieldValue, location: ArchiveError.Location = .init()) {
    self.object = object
    self.keyPath = keyPath
    self.value = value
    self.location = location
  }
}
