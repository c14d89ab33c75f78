/// The keys Foundation's classes store their fields under in a keyed archive (`NSKeyedArchiver`), and in the nib
/// formats that reuse them. Every such literal of the package is spelled here and nowhere else
/// (`Tests/Scripts/structure_check.py`): the archive layout's own keys (`$archiver`, `$objects`, …) are
/// `KeyedArchive`'s; these are the Foundation classes'.
package enum FoundationKeys {
  // Collections: NSArray, NSSet, NSDictionary (NS.keys with NS.objects), and the old-style numbered forms.
  package static let nsObjects = "NS.objects"
  package static let nsKeys = "NS.keys"
  package static let nsObjectPrefix = "NS.object."
  package static let nsKeyPrefix = "NS.key."
  /// `NS.object.0`, `NS.object.1`, … (NSOrderedSet and old-style collections).
  package static func nsObject(_ index: Int) -> String { nsObjectPrefix + String(index) }
  /// `NS.key.0`, … (old-style dictionaries).
  package static func nsKey(_ index: Int) -> String { nsKeyPrefix + String(index) }

  // Strings, data, dates, numbers.
  package static let nsString = "NS.string"
  package static let nsBytes = "NS.bytes"
  package static let nsData = "NS.data"
  package static let nsTime = "NS.time"
  package static let nsIntegerValue = "NS.intval"
  package static let nsDoubleValue = "NS.dblval"
  package static let nsBoolValue = "NS.boolval"

  // NSUUID, NSURL.
  package static let nsUUIDBytes = "NS.uuidbytes"
  package static let nsBase = "NS.base"
  package static let nsRelative = "NS.relative"

  // NSValue: the kind in NS.special, then the kind's fields.
  package static let nsSpecial = "NS.special"
  package static let nsPointValue = "NS.pointval"
  package static let nsSizeValue = "NS.sizeval"
  package static let nsRectValue = "NS.rectval"
  package static let nsRangeLocation = "NS.rangeval.location"
  package static let nsRangeLength = "NS.rangeval.length"
  /// The six inline reals of an affine transform (`NS.special` 10), `a b c d tx ty` in order.
  package static let nsTransformValues = [
    "NS.atval.a", "NS.atval.b", "NS.atval.c", "NS.atval.d", "NS.atval.tx", "NS.atval.ty",
  ]
  package static let nsEdgeTop = "NS.edgeval.top"
  package static let nsEdgeLeft = "NS.edgeval.left"
  package static let nsEdgeBottom = "NS.edgeval.bottom"
  package static let nsEdgeRight = "NS.edgeval.right"

  // NSError, NSDateInterval, NSNotification.
  package static let nsDomain = "NSDomain"
  package static let nsCode = "NSCode"
  package static let nsUserInfo = "NSUserInfo"
  package static let nsStartDate = "NS.startDate"
  package static let nsEndDate = "NS.endDate"
  package static let nsName = "NS.name"
  package static let nsObject = "NS.object"
  package static let nsUserInfoLower = "NS.userinfo"

  // NSDecimalNumber (Darwin's layout).
  package static let nsExponent = "NS.exponent"
  package static let nsLength = "NS.length"
  package static let nsNegative = "NS.negative"
  package static let nsCompact = "NS.compact"
  package static let nsMantissa = "NS.mantissa"
  package static let nsMantissaByteOrder = "NS.mantissa.bo"

  // NSAttributedString: the text, then one attribute dictionary or an array of them with the packed runs.
  package static let attributedString = "NSString"
  package static let attributes = "NSAttributes"
  package static let attributeInfo = "NSAttributeInfo"

  // NSIndexSet / NSMutableIndexSet: one range inline, or `NSRangeCount` packed ranges in `NSRangeData`.
  package static let nsRangeCount = "NSRangeCount"
  package static let nsRangeData = "NSRangeData"
  package static let nsIndexSetLocation = "NSLocation"
  package static let nsIndexSetLength = "NSLength"
  // NSIndexPath: one index inline, or `NSIndexPathLength` packed indexes in `NSIndexPathData`.
  package static let nsIndexPathLength = "NSIndexPathLength"
  package static let nsIndexPathValue = "NSIndexPathValue"
  package static let nsIndexPathData = "NSIndexPathData"
  // NSTimeZone (`NS.name`, `NS.data`), NSLocale and NSCalendar.
  package static let nsIdentifier = "NS.identifier"
  package static let nsTimeZone = "NS.timezone"
  package static let nsLocale = "NS.locale"
  package static let nsFirstWeekday = "NS.firstwkdy"
  package static let nsMinimumDays = "NS.mindays"
  package static let nsGregorianStartDate = "NS.gstartdate"
  // NSDateComponents: each field an integer, `Int.max` when unset.
  package static let nsCalendar = "NS.calendar"
  package static let nsIsLeapMonth = "NS.isLeapMonth"
  /// The integer fields of `NSDateComponents`, as `(wire key, DateComponents name)`.
  package static let dateComponentFields: [(key: String, name: String)] = [
    ("NS.era", "era"), ("NS.year", "year"), ("NS.month", "month"), ("NS.day", "day"), ("NS.hour", "hour"),
    ("NS.minute", "minute"), ("NS.second", "second"), ("NS.nanosec", "nanosecond"), ("NS.weekday", "weekday"),
    ("NS.weekdayOrdinal", "weekdayOrdinal"), ("NS.quarter", "quarter"), ("NS.weekOfMonth", "weekOfMonth"),
    ("NS.weekOfYear", "weekOfYear"), ("NS.yearForWOY", "yearForWeekOfYear"),
  ]
  /// What `NSDateComponents` writes for a field that is not set (`NSDateComponentUndefined`, `NSIntegerMax`).
  package static let dateComponentUndefined = Int64.max
  // NSPersonNameComponents: each part a string or `$null`.
  package static let personNameParts: [(key: String, name: String)] = [
    ("NS.namePrefix", "namePrefix"), ("NS.givenName", "givenName"), ("NS.middleName", "middleName"),
    ("NS.familyName", "familyName"), ("NS.nameSuffix", "nameSuffix"), ("NS.nickname", "nickname"),
  ]
  package static let nsPhoneticRepresentation = "NS.phoneticRepresentation"
  // NSMeasurement (`NS.value`, `NS.unit`), NSUnit (`NS.symbol`), NSDimension (`NS.converter`) and
  // NSUnitConverterLinear.
  package static let nsValue = "NS.value"
  package static let nsUnit = "NS.unit"
  package static let nsSymbol = "NS.symbol"
  package static let nsConverter = "NS.converter"
  package static let nsCoefficient = "NS.coefficient"
  package static let nsConstant = "NS.constant"
  // NSCharacterSet: one of a string, a builtin set's number or a bitmap, and whether it is inverted.
  package static let nsCharacterSetString = "NSString"
  package static let nsBuiltinID = "NSBuiltinID"
  package static let nsBitmap = "NSBitmap"
  package static let nsIsInverted = "NSIsInverted"
  // NSAffineTransform: Darwin's `NSTransformStruct` (big-endian 32-bit reals), or the toolchain's unkeyed array of
  // six reals under `$0` (`_NSKeyedCoderOldStyleArray`: `NS.count`, `NS.type`, `NS.size`, `$0`…`$5`).
  package static let nsTransformStruct = "NSTransformStruct"
  package static let oldStyleArrayCount = "NS.count"
  package static let oldStyleArrayType = "NS.type"
  package static let oldStyleArraySize = "NS.size"
  // NSSortDescriptor: the key path, the direction and the comparison selector.
  package static let nsSortKey = "NSKey"
  package static let nsAscending = "NSAscending"
  package static let nsSelector = "NSSelector"
}
