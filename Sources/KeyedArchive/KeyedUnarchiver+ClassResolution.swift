import ArchiveCoding
import Foundation
import PropertyList

// Class descriptions: read, resolved to a Swift type, and checked against the allowed classes.
extension KeyedUnarchiver {
  /// The value of `$class` in an object's dictionary: at the position where it was found last time when the same
  /// key object is there, else by scanning the keys from the first (the first `$class` of a dictionary that holds
  /// two, as Foundation and the Codable bridge read it, although ``KeyedArchiver`` writes it last).
  func classRef(in header: BinaryPropertyListReader.Header) -> Int? {
    for i in 0..<RecentPairs.count {
      let (keyRef, position) = state.classKeyHints.pair(i)
      if position >= 0, position < header.count, reader.element(header, position) == keyRef {
        return reader.dictionaryValue(header, position)
      }
    }
    guard let position = reader.lookupPosition(string: ArchiveKeys.class, inDictionary: header) else { return nil }
    state.classKeyHints.insert(position, for: reader.element(header, position))
    return reader.dictionaryValue(header, position)
  }

  /// The index in `classEntries` of the class description `classUID`, resolving it the first time (registry
  /// lookups take a lock). Also enforces the depth limit for the object about to be decoded.
  func classSlot(classUID: Int, objectUID uid: Int) throws -> Int {
    let known: Int?
    if let recent = state.recentClasses.value(for: classUID) {
      known = recent
    } else {
      known = state.classSlots[classUID].map { Int($0) }
      if let known { state.recentClasses.insert(known, for: classUID) }
    }
    if let known {
      guard state.frames.count < options.maxDepth, state.stackGuard.hasRoom() else {
        throw depthError(uid: uid, className: state.classEntries[known].info.name)
      }
      return known
    }
    let info = try classInfo(uid: classUID, of: uid)
    guard state.frames.count < options.maxDepth, state.stackGuard.hasRoom() else {
      throw depthError(uid: uid, className: info.name)
    }
    // Another description of the same class (same name, same lists) shares its entry: resolving and checking the
    // chain once per description would let many descriptions of one long chain cost millions of lookups.
    if let same = state.slotsByIdentity[info.identity] {
      state.classSlots[classUID] = same
      state.recentClasses.insert(Int(same), for: classUID)
      return Int(same)
    }
    let resolved = try resolve(info, uid: uid)
    let chainIndex = state.secureCoding.append(resolved.chain)
    let slot = Int32(state.classEntries.count)
    state.classEntries.append(ClassEntry(info: info, resolved: resolved, chainIndex: chainIndex))
    state.classSlots[classUID] = slot
    state.slotsByIdentity[info.identity] = slot
    state.recentClasses.insert(Int(slot), for: classUID)
    return Int(slot)
  }

  func depthError(uid: Int, className: String) -> ArchiveError {
    ArchiveError(
      .limitExceeded,
      "objects nest deeper than the limit of \(options.maxDepth) or than this thread's stack allows; "
        + "decode long chains with decodeReference(forKey:into:)",
      at: .init(objectIndex: uid, className: className))
  }

  func classInfo(uid classUID: Int, of objectUID: Int) throws -> ClassInfo {
    let ref = reader.element(objectsHeader, classUID)
    let header = try reader.header(of: ref)
    // Made only when thrown, as the messages.
    var location: ArchiveError.Location { ArchiveError.Location(objectIndex: objectUID, keyPath: ArchiveKeys.class) }
    guard header.kind == .dictionary else {
      throw ArchiveError(
        .corruptData, "$class refers to object #\(classUID), a \(header.kind), not a class description", at: location)
    }
    guard let nameRef = reader.lookup(string: ArchiveKeys.className, inDictionary: header),
      case let nameHeader = try reader.header(of: nameRef),
      nameHeader.kind == .asciiString || nameHeader.kind == .utf16String
    else {
      throw ArchiveError(
        .corruptData, "class description #\(classUID) has no string $classname", at: location)
    }
    // A name is hashed and compared while its class is resolved: a long one would make each lookup cost its length.
    func checkLength(_ header: BinaryPropertyListReader.Header, _ key: String, index: Int = -1) throws {
      guard header.count <= options.maxClassNameLength else {
        let what = index < 0 ? key : "\(key)[\(index)]"
        throw ArchiveError(
          .limitExceeded,
          "class description #\(classUID): \(what) is \(header.count) characters long, more than the limit of "
            + "\(options.maxClassNameLength)", at: location)
      }
    }
    try checkLength(nameHeader, ArchiveKeys.className)
    let name = try reader.string(nameHeader, object: nameRef)
    // `$classes` and `$classhints` are optional, but when present they are arrays of class names. A list shared by
    // many class descriptions is read once (ARC-043): read for each, a small archive could make millions of names.
    func strings(_ key: String, at position: Int?) throws -> (names: [String], list: Int) {
      guard let position else { return ([], -1) }
      let ref = reader.dictionaryValue(header, position)
      if let known = state.classNameLists[ref] { return (known, ref) }
      let list = try reader.header(of: ref)
      // Made only when thrown: the message's interpolation would cost more than reading a short list.
      func corrupt() -> ArchiveError {
        ArchiveError(
          .corruptData, "class description #\(classUID): \(key) is not an array of class names", at: location)
      }
      guard list.kind == .array else { throw corrupt() }
      guard list.count <= options.maxClassChainLength else {
        throw ArchiveError(
          .limitExceeded,
          "class description #\(classUID): \(key) lists \(list.count) class names, more than the limit of "
            + "\(options.maxClassChainLength)", at: location)
      }
      let names = try (0..<list.count).map { i in
        let element = reader.element(list, i)
        let h = try reader.header(of: element)
        guard h.kind == .asciiString || h.kind == .utf16String else { throw corrupt() }
        try checkLength(h, key, index: i)
        return try reader.string(h, object: element)
      }
      state.classNameLists[ref] = names
      return (names, ref)
    }
    let classesPosition = reader.lookupPosition(string: ArchiveKeys.classes, inDictionary: header)
    let chain = try strings(ArchiveKeys.classes, at: classesPosition)
    // A description of two keys, `$classname` and `$classes` (what archivers write), has no `$classhints`: a key
    // that is not there costs a scan of every key, twice (as ASCII, then as UTF-16).
    let hintsPosition =
      header.count == 2 && classesPosition != nil
      ? nil : reader.lookupPosition(string: ArchiveKeys.classHints, inDictionary: header)
    let hints = try strings(ArchiveKeys.classHints, at: hintsPosition)
    let info = ClassInfo(
      name: name, chain: chain.names, hints: hints.names,
      identity: .init(name: name, chainList: chain.list, hintsList: hints.list))
    return info
  }

  func resolve(_ info: ClassInfo, uid: Int) throws -> Resolved {
    // The class's own name, then its superclasses' (but `NSObject`), then the hints.
    func candidate(_ name: String) -> Resolved? {
      if let type = state.instanceClasses[name] {
        return Resolved(kind: .coding(type), chain: registry.classChain(for: type))
      }
      let resolution = registry.resolution(forClassName: name)
      if let type = resolution.type {
        return Resolved(kind: .coding(type), chain: resolution.chain, secureType: resolution.secureType)
      }
      if Self.foundationClassNames.contains(name) { return Resolved(kind: .foundation(name), chain: resolution.chain) }
      return nil
    }
    if let resolved = candidate(info.name) { return resolved }
    for name in info.chain.dropFirst() where name != FoundationClass.object {
      if let resolved = candidate(name) { return resolved }
    }
    for name in info.hints {
      if let resolved = candidate(name) { return resolved }
    }
    if let resolver = classResolver, let type = resolver(info.name, info.chain) {
      return Resolved(kind: .coding(type), chain: registry.classChain(for: type))
    }
    if decodesUnknownClassesGenerically, !requiresSecureCoding {
      return Resolved(kind: .generic, chain: [info.name])
    }
    throw ArchiveError(
      .classNotFound,
      "cannot decode object of class \(info.name): no class is registered under that name"
        + (info.chain.count > 1 ? " or its superclasses \(info.chain.dropFirst().joined(separator: ", "))" : ""),
      at: .init(objectIndex: uid, className: info.name))
  }

  func checkAllowed(chain: [String], allowed: Set<String>?, uid: Int, resolved: Resolved? = nil) throws {
    guard requiresSecureCoding else { return }
    let name = chain.first ?? "?"
    guard let allowed else {
      throw ArchiveError(
        .classNotAllowed,
        "secure decoding needs the allowed classes: use decodeObject(of:forKey:) to decode the \(name)",
        at: .init(objectIndex: uid, className: name))
    }
    guard registry.isAllowed(chain: chain, by: allowed) else {
      throw ArchiveError(
        .classNotAllowed,
        "value is of class \(name), which is not among the allowed classes "
          + allowed.filter { !$0.contains("#") }.sorted().joined(separator: ", "),
        at: .init(objectIndex: uid, className: name))
    }
    if let resolved, case .coding = resolved.kind {
      guard let secure = resolved.secureType, secure.supportsSecureCoding else {
        throw ArchiveError(
          .classNotAllowed, "class \(name) does not support secure coding", at: .init(objectIndex: uid, className: name)
        )
      }
    }
  }

  /// The allowed-class check of a decoded entry's chain, skipped when the chain passed it with the same set.
  func checkAllowed(chainIndex: Int, allowed: Set<String>?, uid: Int) throws {
    guard requiresSecureCoding else { return }
    if let allowed, state.secureCoding.hasPassed(chainIndex, allowed) { return }
    try checkAllowed(chain: state.secureCoding.chain(at: chainIndex), allowed: allowed, uid: uid)
    state.secureCoding.setPassed(chainIndex, allowed)
  }
}
