/// The wire names of the keyed-archive format and of the Foundation classes' fields. Every literal the format
/// fixes lives here; other modules read an archive's layout through ``KeyedArchiveGraph`` and take the Foundation
/// classes' keys from here.
package enum ArchiveKeys {
  package static let archiver = "$archiver"
  package static let archiverName = "NSKeyedArchiver"
  package static let version = "$version"
  package static let versionNumber: Int64 = 100_000
  package static let top = "$top"
  package static let objects = "$objects"
  package static let null = "$null"
  package static let `class` = "$class"
  package static let className = "$classname"
  package static let classes = "$classes"
  package static let classHints = "$classhints"
  package static let root = "root"
  /// The stored key of the unkeyed value number `index` of an object (`$0`, `$1`, …).
  package static func unkeyedKey(_ index: Int) -> String { "$\(index)" }
  /// The four top-level keys as static strings: opening an archive compares them with the stored keys as bytes,
  /// without making a `String`.
  package static let archiverKey: StaticString = "$archiver"
  package static let versionKey: StaticString = "$version"
  package static let topKey: StaticString = "$top"
  package static let objectsKey: StaticString = "$objects"
  /// `$class` and `$null` as static strings: the archive index compares them with stored strings as bytes.
  package static let classKey: StaticString = "$class"
  package static let nullKey: StaticString = "$null"

  package static let nsObjects = "NS.objects"
  package static let nsKeys = "NS.keys"
  package static let nsString = "NS.string"
  package static let nsBytes = "NS.bytes"
  package static let nsData = "NS.data"
  package static let nsTime = "NS.time"
  package static let nsIntegerValue = "NS.intval"
  package static let nsDoubleValue = "NS.dblval"
  package static let nsBoolValue = "NS.boolval"
  package static let nsUUIDBytes = "NS.uuidbytes"
  package static let nsBase = "NS.base"
  package static let nsRelative = "NS.relative"
  package static let nsSpecial = "NS.special"
  package static let nsPointValue = "NS.pointval"
  package static let nsSizeValue = "NS.sizeval"
  package static let nsRectValue = "NS.rectval"
  package static let nsRangeLocation = "NS.rangeval.location"
  package static let nsRangeLength = "NS.rangeval.length"
  package static let nsEdgeTop = "NS.edgeval.top"
  package static let nsEdgeLeft = "NS.edgeval.left"
  package static let nsEdgeBottom = "NS.edgeval.bottom"
  package static let nsEdgeRight = "NS.edgeval.right"
  package static let nsDomain = "NSDomain"
  package static let nsCode = "NSCode"
  package static let nsUserInfo = "NSUserInfo"
  package static let nsStartDate = "NS.startDate"
  package static let nsEndDate = "NS.endDate"
  package static let nsName = "NS.name"
  package static let nsObject = "NS.object"
  package static let nsUserInfoLower = "NS.userinfo"
  package static let nsExponent = "NS.exponent"
  package static let nsLength = "NS.length"
  package static let nsNegative = "NS.negative"
  package static let nsCompact = "NS.compact"
  package static let nsMantissa = "NS.mantissa"
  package static let nsMantissaByteOrder = "NS.mantissa.bo"
  package static let attributedString = "NSString"
  package static let attributes = "NSAttributes"
  package static let attributeInfo = "NSAttributeInfo"

  /// `NS.object.0`, `NS.object.1`, … (NSOrderedSet and old-style collections).
  package static func nsObject(_ index: Int) -> String { nsObjectPrefix + String(index) }
  /// `NS.key.0`, … (old-style dictionaries).
  package static func nsKey(_ index: Int) -> String { nsKeyPrefix + String(index) }
  package static let nsObjectPrefix = "NS.object."
  package static let nsKeyPrefix = "NS.key."
}

/// Foundation class names the archive format gives meaning to.
package enum FoundationClass {
  package static let string = "NSString"
  package static let mutableString = "NSMutableString"
  package static let number = "NSNumber"
  package static let data = "NSData"
  package static let mutableData = "NSMutableData"
  package static let date = "NSDate"
  package static let uuid = "NSUUID"
  package static let url = "NSURL"
  package static let array = "NSArray"
  package static let mutableArray = "NSMutableArray"
  package static let dictionary = "NSDictionary"
  package static let mutableDictionary = "NSMutableDictionary"
  package static let set = "NSSet"
  package static let mutableSet = "NSMutableSet"
  package static let orderedSet = "NSOrderedSet"
  package static let mutableOrderedSet = "NSMutableOrderedSet"
  package static let null = "NSNull"
  package static let value = "NSValue"
  package static let error = "NSError"
  package static let dateInterval = "NSDateInterval"
  package static let decimalNumber = "NSDecimalNumber"
  /// The class name Interface Builder nibs write for decimal numbers.
  package static let decimalNumberPlaceholder = "NSDecimalNumberPlaceholder"
  package static let notification = "NSNotification"
  package static let attributedString = "NSAttributedString"
  package static let mutableAttributedString = "NSMutableAttributedString"
  package static let object = "NSObject"
}
