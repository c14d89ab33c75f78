import Foundation

/// The NSCoding twin of the `small` object (archived as class `SmallObject`).
final class SmallObject: NSObject, NSCoding {
  let record: SmallRecord

  init(_ record: SmallRecord) { self.record = record }

  func encode(with coder: NSCoder) {
    typealias Key = SmallRecord.Key
    coder.encode(record.identifier, forKey: Key.identifier)
    coder.encode(NSString(string: record.name), forKey: Key.name)
    coder.encode(record.score, forKey: Key.score)
    coder.encode(record.enabled, forKey: Key.enabled)
    coder.encode(NSData(data: record.payload), forKey: Key.payload)
    coder.encode(record.count, forKey: Key.count)
    coder.encode(record.ratio, forKey: Key.ratio)
    coder.encode(record.visible, forKey: Key.visible)
    coder.encode(NSString(string: record.title), forKey: Key.title)
    coder.encode(record.flags, forKey: Key.flags)
  }

  init?(coder: NSCoder) {
    typealias Key = SmallRecord.Key
    guard let name = coder.decodeObject(forKey: Key.name) as? String,
      let payload = coder.decodeObject(forKey: Key.payload) as? Data,
      let title = coder.decodeObject(forKey: Key.title) as? String
    else { return nil }
    record = SmallRecord(
      identifier: coder.decodeInteger(forKey: Key.identifier), name: name, score: coder.decodeDouble(forKey: Key.score),
      enabled: coder.decodeBool(forKey: Key.enabled), payload: payload, count: coder.decodeInteger(forKey: Key.count),
      ratio: coder.decodeDouble(forKey: Key.ratio), visible: coder.decodeBool(forKey: Key.visible), title: title,
      flags: coder.decodeInteger(forKey: Key.flags))
  }
}
