import ArchiveCoding
import Foundation
import FoundationForms
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
    let description = try KeyedArchiveClassDescription(
      reading: classUID, for: objectUID, reader: reader, objects: objectsHeader, options: options,
      cachedList: { state.classNameLists[$0] }, rememberList: { state.classNameLists[$0] = $1 })
    return ClassInfo(
      name: description.name, chain: description.classes ?? [], hints: description.hints,
      identity: .init(name: description.name, chainList: description.classesList, hintsList: description.hintsList))
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
      let names = allowed.filter { !$0.contains("#") }.sorted()
      throw ArchiveError(
        .classNotAllowed,
        "value is of class \(name), which is not among the allowed classes "
          + (names.isEmpty ? "(none: the type asked for has no archived class)" : names.joined(separator: ", ")),
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
