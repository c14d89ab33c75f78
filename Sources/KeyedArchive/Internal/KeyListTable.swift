import ArchiveCoding
import Foundation
import PropertyList

/// The `NS.keys` lists of the dictionaries an unarchiver decoded, interned by their bytes (the UIDs' object numbers
/// as stored): records of one shape, the common case of an archived table, share one list. Once a second dictionary
/// holds a list whose keys are all plain strings, the list gets a ``KeyList/Template`` of its keys, hashed once: each
/// such dictionary is then decoded as a copy of it, its values set by index, without hashing a key (Decision 0032).
///
/// A list is found by its exact bytes (a hash, then a comparison), never guessed: the table grows by one entry per
/// distinct list, so a hostile archive costs memory linear in its size.
struct KeyListTable {
  /// Lists by the hash of their bytes; lists whose hash another list has are in `colliding`.
  private var byHash = IdentityTable()
  private var colliding: [[UInt8]: Int] = [:]
  private var lists: [KeyList] = []

  /// One key list: where its bytes are (in the first dictionary that holds it), how many dictionaries held it, and
  /// its template once a second one does.
  private struct KeyList {
    var bytes: Range<Int>
    var count = 1
    var template: Template?
  }

  /// A key list's keys, each with a placeholder value, and for each position of the list the index of its key's
  /// entry: a key listed twice (or two keys equal as Swift strings) share one entry, and the later value wins, as
  /// inserting them in order does. Indexes of a value-type dictionary stay valid in its unmodified copies.
  struct Template {
    let dictionary: [String: Any]
    let indexes: [Dictionary<String, Any>.Index]
    /// The first key's UID, whose allowed-class check (a plain string's) stands for every key's.
    let firstKey: Int
  }

  /// The template of the key list `keys` (the `NS.keys` array of a dictionary being decoded), or `nil` when no
  /// dictionary held the list before or a key is not a plain string. Interns the list.
  mutating func template(of keys: BinaryPropertyListReader.Header, in index: ArchiveIndex) -> Template? {
    guard keys.count >= 2 else { return nil }
    let reader = index.reader
    let bytes = keys.start..<(keys.start + keys.count * reader.objectRefSize)
    let hash = ArchiveIndex.hash(UnsafeRawBufferPointer(reader.bytes[bytes]))
    let number: Int
    if let known = byHash[word: hash] {
      if ArchiveIndex.sameBytes(lists[known].bytes, bytes, in: reader) {
        number = known
      } else if let other = colliding[Array(reader.bytes[bytes])] {
        number = other
      } else {
        colliding[Array(reader.bytes[bytes])] = lists.count
        lists.append(KeyList(bytes: bytes))
        return nil
      }
    } else {
      byHash.set(word: hash, lists.count)
      lists.append(KeyList(bytes: bytes))
      return nil
    }
    if lists[number].count == 1 {
      lists[number].count = 2
      lists[number].template = Self.template(of: keys, in: index)
    }
    return lists[number].template
  }

  /// The template of key list `keys`, or `nil` when a key is not a plain string (or `$null`) or refers past
  /// `$objects`.
  private static func template(of keys: BinaryPropertyListReader.Header, in index: ArchiveIndex) -> Template? {
    let reader = index.reader
    var dictionary = [String: Any](minimumCapacity: keys.count)
    var strings: [String] = []
    strings.reserveCapacity(keys.count)
    for position in 0..<keys.count {
      guard let raw = reader.uidValue(ofObject: reader.element(keys, position)), raw < UInt64(index.count) else {
        return nil
      }
      let entry = index.entries[Int(raw)]
      guard !entry.isObject, entry.kind == .asciiString || entry.kind == .utf16String,
        let string = try? reader.string(index.header(of: entry), object: index.object(Int(raw)))
      else { return nil }
      dictionary[string] = ()
      strings.append(string)
    }
    let indexes = strings.compactMap { dictionary.index(forKey: $0) }
    guard indexes.count == strings.count, let first = reader.uidValue(ofObject: reader.element(keys, 0)) else {
      return nil
    }
    return Template(dictionary: dictionary, indexes: indexes, firstKey: Int(first))
  }
}
