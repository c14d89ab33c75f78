import FoundationForms

/// Every element, attribute and key name the XIB front end reads, in one place.
enum XIBNames {
  /// XIB 3.0 element names.
  enum Element {
    static let document = "document"
    static let archive = "archive"
    static let objects = "objects"
    static let scenes = "scenes"
    static let scene = "scene"
    static let connections = "connections"
    static let outlet = "outlet"
    static let outletCollection = "outletCollection"
    static let action = "action"
    static let segue = "segue"
    static let binding = "binding"
    static let userDefinedRuntimeAttributes = "userDefinedRuntimeAttributes"
    static let userDefinedRuntimeAttribute = "userDefinedRuntimeAttribute"
    static let placeholder = "placeholder"
    static let exit = "exit"
    static let viewControllerPlaceholder = "viewControllerPlaceholder"
    static let application = "application"
    static let customObject = "customObject"
    static let constraint = "constraint"
    static let null = "nil"
    static let string = "string"
    static let real = "real"
    static let integer = "integer"
    static let bool = "bool"
    static let boolean = "boolean"
    static let rect = "rect"
    static let point = "point"
    static let size = "size"
  }

  /// XIB 3.0 attribute names.
  enum Attribute {
    static let id = "id"
    static let key = "key"
    static let type = "type"
    static let version = "version"
    static let toolsVersion = "toolsVersion"
    static let targetRuntime = "targetRuntime"
    static let initialViewController = "initialViewController"
    static let customClass = "customClass"
    static let customModule = "customModule"
    static let customModuleProvider = "customModuleProvider"
    static let placeholderIdentifier = "placeholderIdentifier"
    static let sceneMemberID = "sceneMemberID"
    static let sceneID = "sceneID"
    static let storyboardIdentifier = "storyboardIdentifier"
    static let storyboardName = "storyboardName"
    static let referencedIdentifier = "referencedIdentifier"
    static let property = "property"
    static let destination = "destination"
    static let target = "target"
    static let selector = "selector"
    static let eventType = "eventType"
    static let kind = "kind"
    static let identifier = "identifier"
    static let unwindAction = "unwindAction"
    static let name = "name"
    static let keyPath = "keyPath"
    static let value = "value"
    static let base64UTF8 = "base64-UTF8"
    static let x = "x"
    static let y = "y"
    static let width = "width"
    static let height = "height"
    static let firstItem = "firstItem"
    static let secondItem = "secondItem"
  }

  /// Attribute values with a fixed meaning.
  enum Value {
    static let yes = "YES"
    static let no = "NO"
    static let filesOwner = "IBFilesOwner"
    static let firstResponder = "IBFirstResponder"
    static let firstResponderMember = "firstResponder"
    static let viewControllerMember = "viewController"
    static let userDefinedValueKey = "value"
    static let filesOwnerID = "-2"
    static let firstResponderID = "-1"
    static let applicationID = "-3"
  }

  /// Names of the older IBDocument archive format (versions 7.x and 8.x).
  enum Archive {
    static let data = "data"
    static let object = "object"
    static let reference = "reference"
    static let array = "array"
    static let dictionary = "dictionary"
    static let string = "string"
    static let characters = "characters"
    static let int = "int"
    static let integer = "integer"
    static let bool = "bool"
    static let boolean = "boolean"
    static let float = "float"
    static let double = "double"
    static let real = "real"
    static let bytes = "bytes"
    static let null = "nil"
    static let classAttribute = "class"
    static let ref = "ref"
    static let typeBase64UTF8 = "base64-UTF8"
    static let arrayMarker = "EncodedWithXMLCoder"
    static let rootObjects = "IBDocument.RootObjects"
    static let documentObjects = "IBDocument.Objects"
    static let connectionRecords = "connectionRecords"
    static let objectRecords = "objectRecords"
    static let orderedObjects = "orderedObjects"
    static let flattenedProperties = "flattenedProperties"
    static let objectID = "objectID"
    static let recordObject = "object"
    static let parent = "parent"
    static let objectName = "objectName"
    static let connection = "connection"
    static let connectionID = "connectionID"
    static let label = "label"
    static let source = "source"
    static let destination = "destination"
    static let eventType = "IBEventType"
    static let connector = "connector"
    static let binding = "NSBinding"
    static let bindingKeyPath = "NSKeyPath"
    static let proxiedObjectIdentifier = "IBProxiedObjectIdentifier"
    static let className = "NSClassName"
    static let sortedKeys = "dict.sortedKeys"
    static let sortedValues = "dict.values"
    static let keyPrefix = FoundationKeys.nsKeyPrefix
    static let objectPrefix = FoundationKeys.nsObjectPrefix
    static let customClassNameSuffix = ".CustomClassName"
    static let proxyObjectClass = "IBProxyObject"
    static let uiCustomObjectClass = "IBUICustomObject"
    static let customObjectClass = "NSCustomObject"
    static let customViewClass = "NSCustomView"
    static let windowTemplateClass = "NSWindowTemplate"
    static let outletConnectionClasses: Set<String> = ["IBCocoaTouchOutletConnection", "IBOutletConnection"]
    static let outletCollectionConnectionClasses: Set<String> = ["IBCocoaTouchOutletCollectionConnection"]
    static let touchEventConnectionClass = "IBCocoaTouchEventConnection"
    static let actionConnectionClass = "IBActionConnection"
    static let bindingConnectionClass = "IBBindingConnection"
    static let arrayClasses: Set<String> = [
      "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "IBMutableOrderedSet",
    ]
    static let dictionaryClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]
    /// Element names of the archive format.
    static let knownElements: Set<String> = [
      "archive", "data", "object", "reference", "array", "dictionary", "string", "characters", "int", "integer",
      "bool", "boolean", "float", "double", "real", "bytes", "nil",
    ]
  }

  /// UIControlEvents names by bit index, for the archive format's `IBEventType` (bit index + 1).
  static let controlEventNames: [Int: String] = [
    0: "touchDown", 1: "touchDownRepeat", 2: "touchDragInside", 3: "touchDragOutside", 4: "touchDragEnter",
    5: "touchDragExit", 6: "touchUpInside", 7: "touchUpOutside", 8: "touchCancel", 12: "valueChanged",
    13: "primaryActionTriggered", 14: "menuActionTriggered", 16: "editingDidBegin", 17: "editingChanged",
    18: "editingDidEnd", 19: "editingDidEndOnExit",
  ]
}
