import ArchiveCoding
import Foundation
import PropertyList

/// The validated top level of a keyed archive read in place (ARC-020): where its `$top` dictionary and its
/// `$objects` array are.
///
/// Every reader of the format opens an archive through this check, so the container's rules and their messages
/// have one owner.
package struct KeyedArchiveContainer {
  package typealias Header = BinaryPropertyListReader.Header

  /// The `$top` dictionary.
  package let top: Header
  /// The `$objects` array.
  package let objects: Header

  /// Validates the top level of the property list `reader` reads: a dictionary with `$archiver` =
  /// `"NSKeyedArchiver"`, `$version` = 100000, a `$top` dictionary and an `$objects` array of at most
  /// `maxObjectCount` entries.
  /// - Throws: ``ArchiveError``: `unsupportedFormat` naming `$archiver` or `$version` when either is missing or
  ///   different, or when the top level is not a dictionary; `corruptData` naming `$top` or `$objects` when either
  ///   is missing or of another type; `limitExceeded` for too many objects.
  package init(reader: BinaryPropertyListReader, maxObjectCount: Int) throws {
    let root = try reader.header(of: reader.topObject)
    guard root.kind == .dictionary else {
      throw ArchiveError(.unsupportedFormat, "expected a keyed archive's top-level dictionary, found a \(root.kind)")
    }
    let positions = Self.positions(in: root, of: reader)
    func entry(_ position: Int?) -> Int? { position.map { reader.dictionaryValue(root, $0) } }
    guard let archiverRef = entry(positions.archiver) else {
      throw ArchiveError(.unsupportedFormat, "not a keyed archive: no \(ArchiveKeys.archiver) key")
    }
    // Compared as bytes; the string is made only for the error.
    guard reader.isASCIIString(archiverRef, equalTo: ArchiveKeys.archiverName) else {
      let header = try reader.header(of: archiverRef)
      let found = header.kind == .asciiString ? try reader.string(header, object: archiverRef) : ""
      throw ArchiveError(
        .unsupportedFormat, "expected \(ArchiveKeys.archiver) \"\(ArchiveKeys.archiverName)\", found \"\(found)\"",
        at: .init(keyPath: ArchiveKeys.archiver))
    }
    guard let versionRef = entry(positions.version) else {
      throw ArchiveError(.unsupportedFormat, "not a keyed archive: no \(ArchiveKeys.version) key")
    }
    let versionHeader = try reader.header(of: versionRef)
    guard versionHeader.kind == .integer,
      try reader.integer(versionHeader, object: versionRef) == .integer(ArchiveKeys.versionNumber)
    else {
      throw ArchiveError(
        .unsupportedFormat,
        "expected \(ArchiveKeys.version) \(ArchiveKeys.versionNumber), found \(try reader.value(of: versionRef))",
        at: .init(keyPath: ArchiveKeys.version))
    }
    guard let topRef = entry(positions.top), case let top = try reader.header(of: topRef), top.kind == .dictionary
    else {
      throw ArchiveError(
        .corruptData, "expected a \(ArchiveKeys.top) dictionary", at: .init(keyPath: ArchiveKeys.top))
    }
    guard let objectsRef = entry(positions.objects), case let objects = try reader.header(of: objectsRef),
      objects.kind == .array
    else {
      throw ArchiveError(
        .corruptData, "expected an \(ArchiveKeys.objects) array", at: .init(keyPath: ArchiveKeys.objects))
    }
    let limit = min(maxObjectCount, Int(Int32.max) - 1)
    guard objects.count <= limit else {
      throw ArchiveError(
        .limitExceeded, "\(ArchiveKeys.objects) has \(objects.count) entries, more than the limit of \(limit)")
    }
    self.top = top
    self.objects = objects
  }

  /// Where the top-level dictionary holds each of its four keys.
  private typealias Positions = (archiver: Int?, version: Int?, top: Int?, objects: Int?)

  /// The positions of `$archiver`, `$version`, `$top` and `$objects` in the top-level dictionary, as
  /// ``BinaryPropertyListReader/lookupPosition(string:inDictionary:from:escaping:)`` finds them (each key's first
  /// occurrence stored as an ASCII string, else as UTF-16), in one pass over the keys that stops once all four are
  /// found: each key is read once, not once per name.
  private static func positions(in root: Header, of reader: BinaryPropertyListReader) -> Positions {
    var found: Positions = (nil, nil, nil, nil)
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
    func lookup(_ name: String) -> Int? { reader.lookupPosition(string: name, inDictionary: root) }
    if found.archiver == nil { found.archiver = lookup(ArchiveKeys.archiver) }
    if found.version == nil { found.version = lookup(ArchiveKeys.version) }
    if found.top == nil { found.top = lookup(ArchiveKeys.top) }
    if found.objects == nil { found.objects = lookup(ArchiveKeys.objects) }
    return found
  }

  /// `true` when `reader`'s top object is a dictionary with any of the archive's top-level keys, as
  /// ``looksLikeKeyedArchive(_:)`` tells from the value, read in place.
  package static func looksLikeKeyedArchive(reader: BinaryPropertyListReader) -> Bool {
    guard let root = try? reader.header(of: reader.topObject), root.kind == .dictionary else { return false }
    let found = positions(in: root, of: reader)
    return found.archiver != nil || found.objects != nil || found.top != nil || found.version != nil
  }

  /// `true` when `value` is a dictionary with any of the archive's top-level keys: a damaged archive (one key
  /// missing) is then still treated, and reported, as a keyed archive rather than passing as a plain property list.
  package static func looksLikeKeyedArchive(_ value: PropertyListValue) -> Bool {
    guard let top = value.dictionaryValue else { return false }
    return [ArchiveKeys.archiver, ArchiveKeys.objects, ArchiveKeys.top, ArchiveKeys.version].contains {
      top[.string($0)] != nil
    }
  }
}
