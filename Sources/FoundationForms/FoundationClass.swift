import Foundation

/// The names of the Foundation classes whose forms this module reads and writes, as archives store them.
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
