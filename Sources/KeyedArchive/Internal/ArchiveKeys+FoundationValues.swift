import Foundation

extension ArchiveKeys {
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

extension FoundationClass {
  package static let timeZone = "NSTimeZone"
  package static let locale = "NSLocale"
  package static let calendar = "NSCalendar"
  package static let indexSet = "NSIndexSet"
  package static let mutableIndexSet = "NSMutableIndexSet"
  package static let indexPath = "NSIndexPath"
  package static let dateComponents = "NSDateComponents"
  package static let personNameComponents = "NSPersonNameComponents"
  package static let measurement = "NSMeasurement"
  package static let characterSet = "NSCharacterSet"
  package static let mutableCharacterSet = "NSMutableCharacterSet"
  package static let unitConverterLinear = "NSUnitConverterLinear"
  package static let unitConverter = "NSUnitConverter"
  package static let dimension = "NSDimension"
  package static let unit = "NSUnit"
  package static let affineTransform = "NSAffineTransform"
  package static let oldStyleArray = "_NSKeyedCoderOldStyleArray"
  package static let sortDescriptor = "NSSortDescriptor"
  /// The `NSDimension` subclasses archives hold, with the Swift classes they decode as.
  package static let dimensionTypes: [String: Dimension.Type] = [
    "NSUnitAcceleration": UnitAcceleration.self, "NSUnitAngle": UnitAngle.self, "NSUnitArea": UnitArea.self,
    "NSUnitConcentrationMass": UnitConcentrationMass.self, "NSUnitDispersion": UnitDispersion.self,
    "NSUnitDuration": UnitDuration.self, "NSUnitElectricCharge": UnitElectricCharge.self,
    "NSUnitElectricCurrent": UnitElectricCurrent.self,
    "NSUnitElectricPotentialDifference": UnitElectricPotentialDifference.self,
    "NSUnitElectricResistance": UnitElectricResistance.self, "NSUnitEnergy": UnitEnergy.self,
    "NSUnitFrequency": UnitFrequency.self, "NSUnitFuelEfficiency": UnitFuelEfficiency.self,
    "NSUnitIlluminance": UnitIlluminance.self, "NSUnitLength": UnitLength.self, "NSUnitMass": UnitMass.self,
    "NSUnitPower": UnitPower.self, "NSUnitPressure": UnitPressure.self, "NSUnitSpeed": UnitSpeed.self,
    "NSUnitTemperature": UnitTemperature.self, "NSUnitVolume": UnitVolume.self, "NSDimension": Dimension.self,
  ]
  /// Every unit class name an `NSMeasurement`'s `NS.unit` may hold.
  package static let unitClassNames: Set<String> = Set(dimensionTypes.keys).union([unit])
}
