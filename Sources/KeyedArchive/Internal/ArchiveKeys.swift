/// The wire names of the keyed-archive format and of the Foundation classes' fields. Every literal the format
/// fixes lives here.
enum ArchiveKeys {
  static let archiver = "$archiver"
  static let archiverName = "NSKeyedArchiver"
  static let version = "$version"
  static let versionNumber: Int64 = 100_000
  static let top = "$top"
  static let objects = "$objects"
  static let null = "$null"
  static let `class` = "$class"
  static let className = "$classname"
  static let classes = "$classes"
  static let classHints = "$classhints"
  static let root = "root"

  static let nsObjects = "NS.objects"
  static let nsKeys = "NS.keys"
  static let nsString = "NS.string"
  static let nsBytes = "NS.bytes"
  static let nsData = "NS.data"
  static let nsTime = "NS.time"
  static let nsUUIDBytes = "NS.uuidbytes"
  static let nsBase = "NS.base"
  static let nsRelative = "NS.relative"
  static let nsSpecial = "NS.special"
  static let nsPointValue = "NS.pointval"
  static let nsSizeValue = "NS.sizeval"
  static let nsRectValue = "NS.rectval"
  static let nsRangeLocation = "NS.rangeval.location"
  static let nsRangeLength = "NS.rangeval.length"
  static let nsEdgeTop = "NS.edgeval.top"
  static let nsEdgeLeft = "NS.edgeval.left"
  static let nsEdgeBottom = "NS.edgeval.bottom"
  static let nsEdgeRight = "NS.edgeval.right"
  static let nsDomain = "NSDomain"
  static let nsCode = "NSCode"
  static let nsUserInfo = "NSUserInfo"
  static let nsStartDate = "NS.startDate"
  static let nsEndDate = "NS.endDate"
  static let nsName = "NS.name"
  static let nsObject = "NS.object"
  static let nsUserInfoLower = "NS.userinfo"

  /// `NS.object.0`, `NS.object.1`, … (NSOrderedSet and old-style collections).
  static func nsObject(_ index: Int) -> String { "NS.object.\(index)" }
  /// `NS.key.0`, … (old-style dictionaries).
  static func nsKey(_ index: Int) -> String { "NS.key.\(index)" }
}

/// Foundation class names the archive format gives meaning to.
enum FoundationClass {
  static let string = "NSString"
  static let mutableString = "NSMutableString"
  static let number = "NSNumber"
  static let data = "NSData"
  static let mutableData = "NSMutableData"
  static let date = "NSDate"
  static let uuid = "NSUUID"
  static let url = "NSURL"
  static let array = "NSArray"
  static let mutableArray = "NSMutableArray"
  static let dictionary = "NSDictionary"
  static let mutableDictionary = "NSMutableDictionary"
  static let set = "NSSet"
  static let mutableSet = "NSMutableSet"
  static let orderedSet = "NSOrderedSet"
  static let mutableOrderedSet = "NSMutableOrderedSet"
  static let null = "NSNull"
  static let value = "NSValue"
  static let error = "NSError"
  static let object = "NSObject"
}
