/// The keys of dictionaries that share one `NS.keys` list (records of one shape, the common case of an archived
/// table), hashed once: each such dictionary starts as a copy of ``dictionary`` and sets its values by index, so
/// decoding it hashes no key. Inserting ten keys cost about a fifth of decoding a dictionary of ten plist values.
struct DictionaryTemplate {
  /// The `NS.keys` references it was made for, in order.
  let keyUIDs: [Int]
  /// The payload of the `NS.keys` array it was made from: its elements, the object numbers of its UID objects, at
  /// the file's reference width. A dictionary whose array has the same bytes lists the same UID objects, hence the
  /// same UIDs, which is found by one comparison of the bytes, without reading them (writers share one object per
  /// UID). Only for the file it was made from: the unarchiver keeps its template, and the same bytes in another
  /// file would name other objects.
  let keyElementBytes: [UInt8]
  /// The keys, each with a placeholder value.
  let dictionary: [String: Any]
  /// For each position of ``keyUIDs``, the index of its key's entry in ``dictionary``: a key listed twice (or two
  /// keys equal as Swift strings) shares one entry, and the later value wins, as inserting them in order does.
  let indexes: [Dictionary<String, Any>.Index]

  /// A template of `keys` (the strings of `keyUIDs`, in order, read from the UID objects the array payload
  /// `keyElementBytes` lists), or `nil` when there are fewer than two.
  init?(keyUIDs: [Int], keyElementBytes: [UInt8], keys: [String]) {
    guard keys.count >= 2, keys.count == keyUIDs.count else { return nil }
    var dictionary = [String: Any](minimumCapacity: keys.count)
    for key in keys { dictionary[key] = () }
    let indexes = keys.compactMap { dictionary.index(forKey: $0) }
    guard indexes.count == keys.count else { return nil }
    self.keyUIDs = keyUIDs
    self.keyElementBytes = keyElementBytes
    self.dictionary = dictionary
    self.indexes = indexes
  }

  /// A cheap digest of a key list, to notice two dictionaries in a row with the same keys before making a
  /// template (which then compares the UIDs themselves).
  static func digest(_ uid: Int, into digest: inout Int) {
    digest = (digest &* 31) &+ uid
  }
}
