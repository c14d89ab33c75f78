import ArchiveCoding
import Foundation
import PropertyList

// The archive's top-level dictionary and the keys of `$top`.
extension KeyedUnarchiver {
  /// Where the top-level dictionary holds each of its four keys.
  typealias TopLevelPositions = (archiver: Int?, version: Int?, top: Int?, objects: Int?)

  /// The positions of `$archiver`, `$version`, `$top` and `$objects` in the archive's top-level dictionary, as four
  /// ``BinaryPropertyListReader/lookupPosition(string:inDictionary:from:escaping:)`` calls find them (each key's first
  /// occurrence stored as an ASCII string, else as UTF-16), in one pass over the keys that stops once all four are
  /// found: each key is read once, not once per name (opening a one-object archive needs all four).
  static func topLevelPositions(
    in root: BinaryPropertyListReader.Header, of reader: BinaryPropertyListReader
  )
    -> TopLevelPositions
  {
    var found: TopLevelPositions = (nil, nil, nil, nil)
    var missing = 4
    func matches(_ key: Int, _ name: StaticString) -> Bool {
      name.withUTF8Buffer { reader.isASCIIString(key, equalTo: $0) }
    }
    var position = 0
    while missing > 0, position < root.count {
      let key = reader.element(root, position)
      // In the order ``KeyedArchiver`` writes them: each key is then compared with the name it is first.
      if found.archiver == nil, matches(key, ArchiveKeys.archiverKey) {
        found.archiver = position
        missing -= 1
      } else if found.objects == nil, matches(key, ArchiveKeys.objectsKey) {
        found.objects = position
        missing -= 1
      } else if found.top == nil, matches(key, ArchiveKeys.topKey) {
        found.top = position
        missing -= 1
      } else if found.version == nil, matches(key, ArchiveKeys.versionKey) {
        found.version = position
        missing -= 1
      }
      position += 1
    }
    guard missing > 0 else { return found }
    // A key not stored as an ASCII string: the full lookup reads the UTF-16 ones.
    if found.archiver == nil {
      found.archiver = reader.lookupPosition(string: ArchiveKeys.archiver, inDictionary: root)
    }
    if found.version == nil { found.version = reader.lookupPosition(string: ArchiveKeys.version, inDictionary: root) }
    if found.top == nil { found.top = reader.lookupPosition(string: ArchiveKeys.top, inDictionary: root) }
    if found.objects == nil { found.objects = reader.lookupPosition(string: ArchiveKeys.objects, inDictionary: root) }
    return found
  }

  /// The keys of `$top`.
  public var topLevelKeys: [String] {
    (0..<topHeader.count).compactMap(topLevelKey(at:))
  }

  /// The key of `$top`'s entry at `position`, or `nil` when it is not a string.
  func topLevelKey(at position: Int) -> String? {
    let ref = reader.element(topHeader, position)
    guard let header = try? reader.header(of: ref), header.kind == .asciiString || header.kind == .utf16String
    else { return nil }
    return try? reader.string(header, object: ref)
  }

  /// Decodes the object of every `$top` entry whose key is a string, in stored order (duplicates included), each
  /// read at its position: looking every key up again would scan `$top` once per key, quadratic in its size.
  /// Called from outside any object's `init(coder:)`.
  /// - Throws: ``ArchiveError`` as ``decodeObject(forStoredKey:allowedClasses:)``, located at the entry's key.
  package func decodeEveryTopLevelObject(allowedClasses: Set<String>?) throws {
    for position in 0..<topHeader.count {
      guard let key = topLevelKey(at: position) else { continue }
      let ref = reader.dictionaryValue(topHeader, position)
      _ = try located(key) { try object(atFieldRef: ref, key: key, allowed: allowedClasses) }
    }
  }
}
