import ArchiveCoding
import Foundation
import PropertyList

/// The calls the `Codable` bridge (``KeyedArchiveDecoder``) reads through. It walks `NSDictionary` and `NSArray`
/// entries itself, reading their fields in place, and hands every other object (Foundation values, ``Coding``
/// instances) to the unarchiver; these few calls are the whole surface it uses.
extension KeyedUnarchiver {
  /// The validated property list the archive is read from.
  var codableReader: BinaryPropertyListReader { reader }

  /// The property-list object of `$objects[uid]`; `uid` must be below ``objectCount``.
  func codableRef(uid: Int) -> Int { reader.element(objectsHeader, uid) }

  /// The UID a reference object holds, checked against the size of `$objects`.
  func codableUID(ref: Int, key: String) throws -> Int {
    let header = try reader.header(of: ref)
    guard header.kind == .uid else {
      throw ArchiveError(
        .typeMismatch, "expected an object reference, found an inline \(header.kind)", at: .init(keyPath: key))
    }
    return try checkedUID(reader.uid(header), key: key)
  }

  /// The UID under `root` in `$top` (0, `nil`, when absent).
  func codableRootUID() throws -> Int {
    guard let ref = reader.lookup(string: ArchiveKeys.root, inDictionary: topHeader) else { return 0 }
    return try codableUID(ref: ref, key: ArchiveKeys.root)
  }

  /// The UID under a key of the object being decoded (0 when absent), located like the other decode calls.
  func codableFieldUID(forKey key: String) throws -> Int {
    do {
      guard let ref = fieldRef(key) else { return 0 }
      return try codableUID(ref: ref, key: key)
    } catch let error as ArchiveError {
      throw error.located(in: currentLocation(key))
    }
  }

  /// The data of entry `uid` (a checked UID) when it is a plain data entry, shared with the coder's own reads
  /// (``dataEntry(_:_:)``); `nil` for another entry.
  func codableData(uid: Int) -> Data? {
    let entry = index.entries[uid]
    guard !entry.isObject, entry.kind == .data else { return nil }
    return dataEntry(uid, entry)
  }

  /// Decodes `$objects[uid]` as the unarchiver does for `decodeObject(forKey:allowedClasses:)` (memoised).
  func codableObject(uid: Int, key: String, allowed: Set<String>?) throws -> Any? {
    try decode(uid: uid, key: key, allowed: allowed)
  }
}
