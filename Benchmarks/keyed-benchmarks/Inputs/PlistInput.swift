import Foundation

/// `plist-N`: Foundation values only, a dictionary of N entries, each a dictionary of 10 mixed values.
struct PlistInput: BenchmarkInput {
  var entries: [PlistEntryRecord]

  static func generate(count: Int) -> PlistInput {
    var random = SplitMix64(seed: 0x504C_4953)
    let titles = (0..<20).map { _ in "Title \(random.word(length: 7))" }
    var entries: [PlistEntryRecord] = []
    entries.reserveCapacity(count)
    for index in 0..<count {
      entries.append(
        PlistEntryRecord(
          key: "entry-\(index)",
          name: random.word(length: 8),
          count: random.mixedWidthInt(),
          ratio: random.unitDouble(),
          enabled: random.bool(),
          blob: random.data(count: 8),
          created: Date(timeIntervalSinceReferenceDate: Double(random.int(below: 800_000_000))),
          title: titles[random.int(below: titles.count)],
          index: index,
          tags: [random.int(below: 100), random.int(below: 100), random.int(below: 100)],
          note: random.word(length: 12)))
    }
    return PlistInput(entries: entries)
  }

  var objectCount: Int { entries.count }

  /// The whole input as one Foundation dictionary (built before the clock starts).
  func foundationValue() -> NSDictionary {
    let dictionary = NSMutableDictionary(capacity: entries.count)
    for entry in entries { dictionary[entry.key] = entry.foundationDictionary() }
    return dictionary
  }

  /// Checks a decoded dictionary: the count, and a sample of entries found by key and compared field by field.
  /// - Parameters:
  ///   - count: the number of entries decoded.
  ///   - entry: the decoded entry for a key, converted back to a record, or nil when missing or mistyped.
  /// - Returns: a description of the first difference, or nil when they match.
  func verify(count: Int, entry: (String) -> PlistEntryRecord?) -> String? {
    guard count == entries.count else { return "expected \(entries.count) entries, decoded \(count)" }
    for index in FlatInput.sampleIndices(count: entries.count) {
      let expected = entries[index]
      guard let found = entry(expected.key) else { return "entry \(expected.key) is missing or mistyped" }
      if found != expected { return "entry \(expected.key) differs: \(found) != \(expected)" }
    }
    return nil
  }

  /// Reads a Foundation entry dictionary back into a record (used to check the Foundation peers).
  static func record(key: String, foundation value: Any?) -> PlistEntryRecord? {
    typealias Key = PlistEntryRecord.Key
    guard let dictionary = value as? NSDictionary,
      let name = dictionary[Key.name] as? String, let count = (dictionary[Key.count] as? NSNumber)?.intValue,
      let ratio = (dictionary[Key.ratio] as? NSNumber)?.doubleValue,
      let enabled = (dictionary[Key.enabled] as? NSNumber)?.boolValue, let blob = dictionary[Key.blob] as? Data,
      let created = dictionary[Key.created] as? Date, let title = dictionary[Key.title] as? String,
      let index = (dictionary[Key.index] as? NSNumber)?.intValue, let tags = dictionary[Key.tags] as? [NSNumber],
      let note = dictionary[Key.note] as? String
    else { return nil }
    return PlistEntryRecord(
      key: key, name: name, count: count, ratio: ratio, enabled: enabled, blob: blob, created: created, title: title,
      index: index, tags: tags.map(\.intValue), note: note)
  }
}
