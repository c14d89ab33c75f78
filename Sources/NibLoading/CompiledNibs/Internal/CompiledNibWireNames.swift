import FoundationForms
import KeyedArchive

/// The wire names compiled nibs use (keys of the root, of `NSIBObjectData`, of the wiring classes, and the Foundation
/// classes' keys in both containers). Every nib-specific literal of the compiled-nib table builder lives here
/// (NIBA-040…); the keyed-archive layout and the Foundation classes' keys are `KeyedArchive`'s.
enum CompiledNibWireNames {
  // MARK: Foundation classes' keys

  static let nsObjects = FoundationKeys.nsObjects
  static let nsKeys = FoundationKeys.nsKeys
  static let nsString = FoundationKeys.nsString
  static let nsBytes = FoundationKeys.nsBytes
  static let nsData = FoundationKeys.nsData
  static let nsIntegerValue = FoundationKeys.nsIntegerValue
  static let nsDoubleValue = FoundationKeys.nsDoubleValue
  static let nsBoolValue = FoundationKeys.nsBoolValue
  static let inlinedValue = "NSInlinedValue"
  /// `NS.object.0`, `NS.object.1`, … (old-style collections, `NSOrderedSet`).
  static let nsObjectPrefix = FoundationKeys.nsObjectPrefix
  /// `NS.key.0`, … (old-style dictionaries).
  static let nsKeyPrefix = FoundationKeys.nsKeyPrefix

  // MARK: UIKit root keys

  static let uiTopLevelObjects = "UINibTopLevelObjectsKey"
  static let uiObjects = "UINibObjectsKey"
  static let uiConnections = "UINibConnectionsKey"
  static let uiVisibleWindows = "UINibVisibleWindowsKey"
  static let uiAccessibilityConfigurations = "UINibAccessibilityConfigurationsKey"
  static let uiKeyValuePairs = "UINibKeyValuePairsKey"
  static let uiTraitStorageLists = "UINibTraitStorageListsKey"

  // MARK: AppKit root and NSIBObjectData keys

  static let objectData = "IB.objectdata"
  static let nsRoot = "NSRoot"
  static let nsObjectsKeys = "NSObjectsKeys"
  static let nsObjectsValues = "NSObjectsValues"
  static let nsConnections = "NSConnections"
  static let nsVisibleWindows = "NSVisibleWindows"
  static let nsAccessibilityConnectors = "NSAccessibilityConnectors"

  // MARK: Placeholders and class wrappers

  static let proxyObjectClass = "UIProxyObject"
  static let proxiedObjectIdentifier = "UIProxiedObjectIdentifier"
  static let filesOwnerIdentifier = "IBFilesOwner"
  static let firstResponderIdentifier = "IBFirstResponder"
  static let storyboardPlaceholderIdentifier = "UIStoryboardPlaceholder"
  static let upstreamPlaceholderPrefix = "UpstreamPlaceholder"
  /// The proxy identifiers `keyed compile` gives a storyboard scene's exit and its storyboard references (NIB-135).
  static let exitPlaceholderIdentifier = "exit"
  static let storyboardReferencePrefix = "storyboardReference:"
  static let uiClassSwapperClass = "UIClassSwapper"
  static let uiClassName = "UIClassName"
  static let uiOriginalClassName = "UIOriginalClassName"
  static let nsClassSwapperClass = "NSClassSwapper"
  static let nsCustomObjectClass = "NSCustomObject"
  static let nsClassName = "NSClassName"
  static let nsOriginalClassName = "NSOriginalClassName"
  static let ibClassReference = "IBClassReference"
  static let ibClassName = "IBClassName"
  static let firstResponderClassName = "FirstResponder"
  static let applicationClassName = "NSApplication"
  static let externalPlaceholderClass = "NSNibExternalObjectPlaceholder"
  static let externalPlaceholderIdentifier = "NSExternalObjectPlaceholderIdentifier"
  static let nsStoryboardPlaceholderIdentifier = "NSStoryboardPlaceholder"
  static let rootObjectBaseClass = "NSObject"

  // MARK: Connection classes and keys

  static let uiOutletConnection = "UIRuntimeOutletConnection"
  static let uiOutletCollectionConnection = "UIRuntimeOutletCollectionConnection"
  static let uiEventConnection = "UIRuntimeEventConnection"
  /// The class `keyed compile` writes a segue as.
  static let uiSegueTemplateClass = "UIStoryboardSegueTemplate"
  static let nsOutletConnector = "NSNibOutletConnector"
  static let nsControlConnector = "NSNibControlConnector"
  static let nsBindingConnector = "NSNibBindingConnector"
  static let nsHelpConnector = "NSIBHelpConnector"
  static let nsConnector = "NSNibConnector"
  static let nsRuntimeAttributesConnector = "NSIBUserDefinedRuntimeAttributesConnector"
  static let segueMarker = "Segue"
  static let uiSource = "UISource"
  static let uiDestination = "UIDestination"
  static let uiLabel = "UILabel"
  static let uiEventMask = "UIEventMask"
  /// The segue kind `keyed compile` writes on a `UIStoryboardSegueTemplate`, whose class name spells none.
  static let uiEventName = "UIEventName"
  /// The unwind action `keyed compile` writes on an unwind segue's template (NIB-135).
  static let uiUnwindAction = "UIUnwindAction"
  /// The storyboard identifier of a segue's destination scene (`UIStoryboardSegueTemplate`'s key) (NIB-136).
  static let uiDestinationViewControllerIdentifier = "UIDestinationViewControllerIdentifier"
  static let nsSource = "NSSource"
  static let nsDestination = "NSDestination"
  static let nsLabel = "NSLabel"
  static let uiIdentifier = "UIIdentifier"
  static let nsIdentifier = "NSIdentifier"
  static let segueClassPrefixes = ["UIStoryboard", "NSStoryboard"]

  // MARK: Storyboard scenes' view nibs

  /// The name of the nib an Apple-compiled scene's controller loads its view from (NIB-312).
  static let uiNibName = "UINibName"
  static let segueClassSuffixes = ["SegueTemplate", "Segue"]

  // MARK: Runtime attributes

  static let uiKeyValuePairClass = "UINibKeyValuePair"
  static let uiKeyValuePairObject = "UIObject"
  static let uiKeyValuePairKeyPath = "UIKeyPath"
  static let uiKeyValuePairValue = "UIValue"
  static let nsRuntimeAttributesObject = "NSObject"
  static let nsRuntimeAttributesKeyPaths = "NSKeyPaths"
  static let nsRuntimeAttributesValues = "NSValues"

  // MARK: Structured values written by `keyed compile`

  /// A structured value's class (a colour, a font, a button state), and the key holding its element name.
  static let recordClass = "NibRecord"
  static let recordName = "NibRecordName"

  // MARK: Geometry

  static let geometryFloat32Prefix: UInt8 = 0x06
  static let geometryFloat64Prefix: UInt8 = 0x07

  // MARK: Foundation value classes

  /// Classes whose instances become arrays (NIBA-041).
  static let arrayClasses: Set<String> = [
    "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSCountedSet", "NSOrderedSet", "NSMutableOrderedSet",
  ]
  /// Classes whose instances become dictionaries (NIBA-041).
  static let dictionaryClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]
  /// Classes whose instances become strings (NIBA-041).
  static let stringClasses: Set<String> = ["NSString", "NSMutableString", "NSLocalizableString"]
  /// Classes whose instances become data (NIBA-041).
  static let dataClasses: Set<String> = ["NSData", "NSMutableData"]
  /// Classes whose instances become numbers (NIBA-041).
  static let numberClasses: Set<String> = ["NSNumber"]
  /// Classes whose instances become nil (NIBA-041).
  static let nullClasses: Set<String> = ["NSNull"]
}
