import Foundation

/// The NSCoding twin of a `flat-N` object, for the toolchain's NSKeyedArchiver (archived as class `FlatItem`).
final class FlatItemObject: NSObject, NSCoding {
  let int: Int
  let double: Double
  let bool: Bool
  let string: String
  let data: Data

  init(_ record: FlatRecord) {
    int = record.int
    double = record.double
    bool = record.bool
    string = record.string
    data = record.data
  }

  var record: FlatRecord { FlatRecord(int: int, double: double, bool: bool, string: string, data: data) }

  func encode(with coder: NSCoder) {
    coder.encode(int, forKey: FlatRecord.Key.int)
    coder.encode(double, forKey: FlatRecord.Key.double)
    coder.encode(bool, forKey: FlatRecord.Key.bool)
    coder.encode(NSString(string: string), forKey: FlatRecord.Key.string)
    coder.encode(NSData(data: data), forKey: FlatRecord.Key.data)
  }

  init?(coder: NSCoder) {
    guard let string = coder.decodeObject(forKey: FlatRecord.Key.string) as? String,
      let data = coder.decodeObject(forKey: FlatRecord.Key.data) as? Data
    else { return nil }
    int = coder.decodeInteger(forKey: FlatRecord.Key.int)
    double = coder.decodeDouble(forKey: FlatRecord.Key.double)
    bool = coder.decodeBool(forKey: FlatRecord.Key.bool)
    self.string = string
    self.data = data
  }
}
