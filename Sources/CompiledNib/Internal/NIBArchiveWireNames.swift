import FoundationForms

/// Every byte sequence, key and class name of the compiled-nib formats that this module reads, in one place.
enum NIBArchiveWireNames {
  // MARK: Container

  /// The 10 magic bytes at offset 0 of a NIBArchive file: ASCII `NIBArchive`, no terminator.
  static let magic: [UInt8] = Array("NIBArchive".utf8)
  /// The size of the fixed header: magic + ten little-endian u32 fields.
  static let headerSize = 50
  /// The highest format version this reader accepts (Apple's decoder rejects anything newer).
  static let highestFormatVersion: UInt32 = 1
  /// The most bytes a varint may take (enough for 32 bits).
  static let maximumVarintLength = 5

  /// The first bytes of a binary property list (a keyed-archive nib).
  static let binaryPropertyListMagic: [UInt8] = Array("bplist00".utf8)
  /// The first bytes of an XML document (XIB, designable.nib, XML property list).
  static let xmlDeclarationStart: [UInt8] = Array("<?xml".utf8)

  // MARK: Foundation objects

  /// The data value holding a string's UTF-8 bytes (NSString, NSMutableString, NSLocalizableString) or NSData's bytes.
  static let bytesKey = FoundationKeys.nsBytes
  /// The first entry of an inlined collection.
  static let inlinedValueKey = "NSInlinedValue"
  /// The key of each element entry of an inlined collection.
  static let emptyKey = "UINibEncoderEmptyKey"

  /// Element-type prefix of a geometry data value holding float32 elements.
  static let geometryFloat32Prefix: UInt8 = 0x06
  /// Element-type prefix of a geometry data value holding float64 elements.
  static let geometryFloat64Prefix: UInt8 = 0x07

  // MARK: UIKit nib root (object 0)

  static let topLevelObjectsKey = "UINibTopLevelObjectsKey"
  static let objectsKey = "UINibObjectsKey"
  static let connectionsKey = "UINibConnectionsKey"
  static let visibleWindowsKey = "UINibVisibleWindowsKey"
  static let accessibilityConfigurationsKey = "UINibAccessibilityConfigurationsKey"
  static let keyValuePairsKey = "UINibKeyValuePairsKey"
  static let traitStorageListsKey = "UINibTraitStorageListsKey"

  // MARK: UIKit wiring classes and keys

  static let proxyObjectClass = "UIProxyObject"
  static let proxiedObjectIdentifierKey = "UIProxiedObjectIdentifier"
  static let filesOwnerIdentifier = "IBFilesOwner"
  static let outletConnectionClass = "UIRuntimeOutletConnection"
  static let outletCollectionConnectionClass = "UIRuntimeOutletCollectionConnection"
  static let eventConnectionClass = "UIRuntimeEventConnection"
  static let uiSourceKey = "UISource"
  static let uiDestinationKey = "UIDestination"
  static let uiLabelKey = "UILabel"
  static let uiEventMaskKey = "UIEventMask"

  // MARK: AppKit nib root and NSIBObjectData

  static let objectDataKey = "IB.objectdata"
  static let rootKey = "NSRoot"
  static let nsConnectionsKey = "NSConnections"
  static let nsVisibleWindowsKey = "NSVisibleWindows"
  static let objectsKeysKey = "NSObjectsKeys"
  static let objectsValuesKey = "NSObjectsValues"

  // MARK: AppKit connectors

  static let outletConnectorClass = "NSNibOutletConnector"
  static let controlConnectorClass = "NSNibControlConnector"
  static let bindingConnectorClass = "NSNibBindingConnector"
  static let nsSourceKey = "NSSource"
  static let nsDestinationKey = "NSDestination"
  static let nsLabelKey = "NSLabel"

  // MARK: Directories and storyboards

  /// The member of an iOS `.nib` directory that any OS version can load.
  static let runtimeMember = "runtime.nib"
  /// An iOS `.nib` directory member without a version.
  static let iOSUnversionedMember = "objects.nib"
  /// Prefix and suffix of an iOS versioned member such as `objects-14.0+.nib`.
  static let iOSVersionedMemberPrefix = "objects-"
  static let iOSVersionedMemberSuffix = "+.nib"
  /// The keyed-archive member of a macOS `.nib` directory.
  static let macOSKeyedMember = "keyedobjects.nib"
  /// Prefix and suffix of a macOS versioned member such as `keyedobjects-101300.nib`.
  static let macOSVersionedMemberPrefix = "keyedobjects-"
  static let macOSVersionedMemberSuffix = ".nib"
  /// The file name extension of nibs.
  static let nibExtension = "nib"

  static let storyboardInfoPlist = "Info.plist"
  static let uiIdentifiersToNibNamesKey = "UIViewControllerIdentifiersToNibNames"
  static let uiEntryPointKey = "UIStoryboardDesignatedEntryPointIdentifier"
  static let uiStoryboardVersionKey = "UIStoryboardVersion"
  static let nsIdentifiersToNibNamesKey = "NSViewControllerIdentifiersToNibNames"
  static let nsIdentifiersToUUIDsKey = "NSViewControllerIdentifiersToUUIDs"
  static let nsEntryPointKey = "NSStoryboardDesignatedEntryPointIdentifier"
  static let nsMainMenuKey = "NSStoryboardMainMenu"
  static let nsStoryboardVersionKey = "NSStoryboardVersion"
}
