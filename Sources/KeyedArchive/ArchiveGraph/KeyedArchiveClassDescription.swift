import ArchiveCoding
import Foundation
import PropertyList

/// A class description of a keyed archive (ARC-024): the `$objects` dictionary an object's `$class` refers to,
/// with `$classname` and the optional `$classes` and `$classhints` lists of class names.
package struct KeyedArchiveClassDescription: Sendable {
  /// The `$objects` index of the description.
  package var index: Int
  /// `$classname`.
  package var name: String
  /// `$classes` as stored (the class, its superclasses), `nil` when absent.
  package var classes: [String]?
  /// `$classhints`, empty when absent.
  package var hints: [String]
  /// The property-list object numbers of the `$classes` and `$classhints` lists, -1 when absent: descriptions with
  /// the same name and lists are the same class (ARC-043).
  package var classesList: Int
  package var hintsList: Int

  /// The class name followed by its superclasses: `$classes` when it starts with the name, else the name and
  /// `$classes`.
  package var chain: [String] {
    guard let classes else { return [name] }
    return classes.first == name ? classes : [name] + classes
  }

  /// Reads class description `$objects[classIndex]`, which object `objectIndex` names as its class.
  /// - Parameters:
  ///   - cachedList: a list of names already read, by property-list object number: many descriptions may share one,
  ///     and each is read once (ARC-043).
  ///   - rememberList: keeps a list just read.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` naming the object and `$class`: `corruptData` when the entry is not a dictionary
  ///   with a string `$classname`, or a list is not an array of strings; `limitExceeded` for a list longer than
  ///   `options.maxClassChainLength` or a name longer than `options.maxClassNameLength`.
  package init(
    reading classIndex: Int, for objectIndex: Int, reader: BinaryPropertyListReader,
    objects: BinaryPropertyListReader.Header, options: KeyedUnarchiverOptions, cachedList: (Int) -> [String]?,
    rememberList: (Int, [String]) -> Void
  ) throws {
    let header = try reader.header(of: reader.element(objects, classIndex))
    // Made only when thrown, as the messages.
    var location: ArchiveError.Location { .init(objectIndex: objectIndex, keyPath: ArchiveKeys.class) }
    guard header.kind == .dictionary else {
      throw ArchiveError(
        .corruptData, "\(ArchiveKeys.class) refers to object #\(classIndex), a \(header.kind), not a class description",
        at: location)
    }
    guard let nameRef = reader.lookup(string: ArchiveKeys.className, inDictionary: header),
      case let nameHeader = try reader.header(of: nameRef),
      nameHeader.kind == .asciiString || nameHeader.kind == .utf16String
    else {
      throw ArchiveError(
        .corruptData, "class description #\(classIndex) has no string \(ArchiveKeys.className)", at: location)
    }
    // A name is hashed and compared while its class is resolved: a long one would make each lookup cost its length.
    func checkLength(_ header: BinaryPropertyListReader.Header, _ key: String, position: Int = -1) throws {
      guard header.count <= options.maxClassNameLength else {
        let what = position < 0 ? key : "\(key)[\(position)]"
        throw ArchiveError(
          .limitExceeded,
          "class description #\(classIndex): \(what) is \(header.count) characters long, more than the limit of "
            + "\(options.maxClassNameLength)", at: location)
      }
    }
    try checkLength(nameHeader, ArchiveKeys.className)
    let name = try reader.string(nameHeader, object: nameRef)
    // `$classes` and `$classhints` are optional, but when present they are arrays of class names.
    func strings(_ key: String, at position: Int?) throws -> (names: [String], list: Int)? {
      guard let position else { return nil }
      let ref = reader.dictionaryValue(header, position)
      if let known = cachedList(ref) { return (known, ref) }
      let list = try reader.header(of: ref)
      // Made only when thrown: the message's interpolation would cost more than reading a short list.
      func corrupt() -> ArchiveError {
        ArchiveError(
          .corruptData, "class description #\(classIndex): \(key) is not an array of class names", at: location)
      }
      guard list.kind == .array else { throw corrupt() }
      guard list.count <= options.maxClassChainLength else {
        throw ArchiveError(
          .limitExceeded,
          "class description #\(classIndex): \(key) lists \(list.count) class names, more than the limit of "
            + "\(options.maxClassChainLength)", at: location)
      }
      let names = try (0..<list.count).map { i in
        let element = reader.element(list, i)
        let elementHeader = try reader.header(of: element)
        guard elementHeader.kind == .asciiString || elementHeader.kind == .utf16String else { throw corrupt() }
        try checkLength(elementHeader, key, position: i)
        return try reader.string(elementHeader, object: element)
      }
      rememberList(ref, names)
      return (names, ref)
    }
    let classesPosition = reader.lookupPosition(string: ArchiveKeys.classes, inDictionary: header)
    let classes = try strings(ArchiveKeys.classes, at: classesPosition)
    // A description of two keys, `$classname` and `$classes` (what archivers write), has no `$classhints`: a key
    // that is not there costs a scan of every key, twice (as ASCII, then as UTF-16).
    let hintsPosition =
      header.count == 2 && classesPosition != nil
      ? nil : reader.lookupPosition(string: ArchiveKeys.classHints, inDictionary: header)
    let hints = try strings(ArchiveKeys.classHints, at: hintsPosition)
    self.index = classIndex
    self.name = name
    self.classes = classes?.names
    self.hints = hints?.names ?? []
    self.classesList = classes?.list ?? -1
    self.hintsList = hints?.list ?? -1
  }
}
