/// One object of an Interface Builder document: an element carrying an `id` (XIB 3.0) or an object record (archive
/// documents), with its class, its place in the tree and its properties.
public struct XIBObject: Sendable, Hashable {
  /// The document-unique id (`CzU-k1-4L7`, `5`, `-1`; for archive documents the record's object id).
  public var id: String
  /// The element name (`label`, `tableViewCell`, `customObject`); for archive documents derived from the archived
  /// class (`IBUILabel` → `label`, `NSWindowTemplate` → `window`).
  public var elementName: String
  /// The Apple class the element stands for on the document's platform (`UILabel`, `NSTextField`).
  public var className: String
  /// The `customClass` attribute: the class actually to instantiate (or, for placeholders, a design-time hint).
  public var customClass: String?
  /// The `customModule` attribute: the Swift module of ``customClass``.
  public var customModule: String?
  /// The `customModuleProvider` attribute (`target` means: the module of the product being built).
  public var customModuleProvider: String?
  /// Non-nil when the object is a placeholder: what it stands for.
  public var placeholder: XIBPlaceholder?
  /// The id of the nearest enclosing object, or `nil` for an object at the top of the graph.
  public var parentID: String?
  /// The property of the parent the object fills: its own `key` attribute (`view`, `contentView`), or the name of
  /// the collection element it is a member of (`subviews`, `constraints`, `items`). `nil` at the top.
  public var key: String?
  /// `true` for a non-placeholder object listed directly in an `<objects>` element (archive documents: in
  /// `IBDocument.RootObjects`). These are the objects a nib load returns.
  public var isTopLevel: Bool
  /// The `sceneID` of the storyboard scene the object belongs to.
  public var sceneID: String?
  /// The element's attributes in document order (all of them, `id` and `customClass` included).
  public var attributes: [XMLElementNode.Attribute]
  /// The keyed child values in document order: structured values (`frame`, `backgroundColor`), child objects as
  /// ``XIBValue/object(id:)`` (`view`), and collections as ``XIBValue/array(_:)`` under the collection's name
  /// (`subviews`, `constraints`).
  public var values: [XIBKeyedValue]
  /// The user-defined runtime attributes, in document order.
  public var runtimeAttributes: [XIBRuntimeAttribute]
  /// The 1-based line of the object's element.
  public var line: Int
  /// The 1-based column of the object's element.
  public var column: Int

  /// Creates an object.
  public init(
    id: String, elementName: String, className: String, customClass: String? = nil, customModule: String? = nil,
    customModuleProvider: String? = nil, placeholder: XIBPlaceholder? = nil, parentID: String? = nil,
    key: String? = nil, isTopLevel: Bool = false, sceneID: String? = nil, attributes: [XMLElementNode.Attribute] = [],
    values: [XIBKeyedValue] = [], runtimeAttributes: [XIBRuntimeAttribute] = [], line: Int = 0, column: Int = 0
  ) {
    self.id = id
    self.elementName = elementName
    self.className = className
    self.customClass = customClass
    self.customModule = customModule
    self.customModuleProvider = customModuleProvider
    self.placeholder = placeholder
    self.parentID = parentID
    self.key = key
    self.isTopLevel = isTopLevel
    self.sceneID = sceneID
    self.attributes = attributes
    self.values = values
    self.runtimeAttributes = runtimeAttributes
    self.line = line
    self.column = column
  }

  /// `true` when the object is a placeholder.
  public var isPlaceholder: Bool { placeholder != nil }

  /// The class to instantiate: ``customClass`` when set, else ``className``.
  public var effectiveClassName: String { customClass ?? className }

  /// The value of the named attribute (`text`, `contentMode`, `storyboardIdentifier`).
  public func attribute(_ name: String) -> String? {
    attributes.first { $0.name == name }?.value
  }

  /// The named attribute read as an Interface Builder boolean: `YES` is `true`, `NO` is `false`, anything else
  /// (or no attribute) is `nil`.
  public func boolAttribute(_ name: String) -> Bool? {
    switch attribute(name) {
    case "YES": return true
    case "NO": return false
    default: return nil
    }
  }

  /// The first keyed value stored under `key`.
  public func value(forKey key: String) -> XIBValue? {
    values.first { $0.key == key }?.value
  }
}
