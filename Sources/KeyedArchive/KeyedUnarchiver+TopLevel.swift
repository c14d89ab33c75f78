import ArchiveCoding
import Foundation
import PropertyList

// The archive's top-level dictionary and the keys of `$top`.
extension KeyedUnarchiver {
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
  /// - Throws: ``/ArchiveCoding/ArchiveError`` as ``decodeObject(forStoredKey:allowedClasses:)``, located at the entry's key.
  package func decodeEveryTopLevelObject(allowedClasses: Set<String>?) throws {
    for position in 0..<topHeader.count {
      guard let key = topLevelKey(at: position) else { continue }
      let ref = reader.dictionaryValue(topHeader, position)
      _ = try located(key) { try object(atFieldRef: ref, key: key, allowed: allowedClasses) }
    }
  }
}
