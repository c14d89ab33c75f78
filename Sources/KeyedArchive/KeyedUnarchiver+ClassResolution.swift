import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

// Classes: what each class slot of the index resolves to in this process, and the allowed-class checks.
extension KeyedUnarchiver {
  /// What class slot `slot` resolves to, worked out the first time an object of the class is decoded (for object
  /// `uid`): the registry, the delegate and the settings may change after the archive is opened, up to then.
  /// - Throws: ``ArchiveError``: the description's error when it cannot be read (naming object `uid`);
  ///   `classNotFound` when nothing resolves the class.
  @inline(__always)
  func resolvedClass(_ slot: Int, uid: Int) throws -> ResolvedClass.Kind {
    if let kind = store.state.classes[slot].kind() { return kind }
    let resolved = try resolve(slot: slot, uid: uid)
    store.state.classes[slot].resolved = resolved
    return resolved.kind
  }

  /// Resolves class slot `slot` for object `uid`.
  private func resolve(slot: Int, uid: Int) throws -> ResolvedClass {
    if let plain = ArchiveIndex.PlainClass(rawValue: slot) {
      return ResolvedClass(kind: .foundation(plain.chain[0]), chain: plain.chain)
    }
    guard let description = index.classes[slot].description else {
      throw descriptionError(slot: slot, uid: uid)
    }
    return try resolve(name: description.name, chain: description.classes ?? [], hints: description.hints, uid: uid)
  }

  /// The error of class slot `slot`'s description, which the index could not read, read again for object `uid`.
  private func descriptionError(slot: Int, uid: Int) -> any Error {
    do {
      _ = try KeyedArchiveClassDescription(
        reading: index.classes[slot].descriptionUID, for: uid, reader: reader, objects: objectsHeader,
        options: options, cachedList: { _ in nil }, rememberList: { _, _ in })
      return ArchiveError(.corruptData, "class description unreadable", at: .init(objectIndex: uid))
    } catch {
      return error
    }
  }

  /// What an archived class resolves to, as Apple's unarchiver resolves it (COD-200): the class's own name
  /// (``setClass(_:forClassName:)``, the registry, Foundation's classes), then its hints (the fallbacks its writer
  /// named), then ``classResolver`` and the delegate, given the archived chain; then, when asked for, its superclasses
  /// (but `NSObject`) and a generic object. A class found for another name is checked under secure coding as the
  /// archived class (COD-201).
  func resolve(name: String, chain: [String], hints: [String], uid: Int) throws -> ResolvedClass {
    func candidate(_ name: String) -> ResolvedClass? {
      if let type = store.state.settings.instanceClasses[name] {
        return ResolvedClass(kind: .coding(type), chain: registry.classChain(for: type))
      }
      let resolution = registry.resolution(forClassName: name)
      if let type = resolution.type {
        return ResolvedClass(kind: .coding(type), chain: resolution.chain, secureType: resolution.secureType)
      }
      if Self.foundationClassNames.contains(name) {
        return ResolvedClass(kind: .foundation(name), chain: resolution.chain)
      }
      return nil
    }
    /// `substitute`, found for the archived class, checked as the archived class.
    func standingIn(_ substitute: ResolvedClass) -> ResolvedClass {
      ResolvedClass(
        kind: substitute.kind, chain: registry.classChain(forClassName: name), secureType: substitute.secureType)
    }
    if let resolved = candidate(name) { return resolved }
    for hint in hints {
      if let resolved = candidate(hint) { return standingIn(resolved) }
    }
    if let resolver = classResolver, let type = resolver(name, chain) {
      return standingIn(ResolvedClass(kind: .coding(type), chain: []))
    }
    if decodesUnknownClassesAsSuperclasses {
      for superclass in chain.dropFirst() where superclass != FoundationClass.object {
        if let resolved = candidate(superclass) { return standingIn(resolved) }
      }
    }
    if decodesUnknownClassesGenerically, !requiresSecureCoding || allowsGenericObjectsUnderSecureCoding {
      return ResolvedClass(kind: .generic, chain: [name])
    }
    throw ArchiveError(
      .classNotFound,
      "cannot decode object of class \(name): no class is registered under that name, and the delegate gave none"
        + (chain.count > 1 ? " (its archived superclasses are \(chain.dropFirst().joined(separator: ", ")))" : ""),
      at: .init(objectIndex: uid, className: name))
  }

  func depthError(uid: Int, className: String) -> ArchiveError {
    ArchiveError(
      .limitExceeded,
      "objects nest deeper than the limit of \(options.maxDepth) or than this thread's stack allows; "
        + "decode long chains with decodeReference(forKey:into:)",
      at: .init(objectIndex: uid, className: className))
  }

  /// The allowed-class check of class slot `slot` (an object's class, or a plain entry's), skipped when the class
  /// passed it with the same set (its verdict in the class table).
  @inline(__always)
  func checkAllowed(slot: Int, allowed: Set<String>?, uid: Int) throws {
    guard requiresSecureCoding else { return }
    if let allowed, store.state.classes[slot].hasPassed(allowed) { return }
    try checkAllowedAgain(slot: slot, allowed: allowed, uid: uid)
  }

  /// The check of ``checkAllowed(slot:allowed:uid:)`` worked out, and its verdict kept.
  @inline(never)
  private func checkAllowedAgain(slot: Int, allowed: Set<String>?, uid: Int) throws {
    _ = try resolvedClass(slot, uid: uid)
    guard let resolved = store.state.classes[slot].resolved else { return }
    try checkAllowed(chain: resolved.chain, allowed: allowed, uid: uid, resolved: resolved)
    store.state.classes[slot].passed = allowed
  }

  func checkAllowed(chain: [String], allowed: Set<String>?, uid: Int, resolved: ResolvedClass? = nil) throws {
    guard requiresSecureCoding else { return }
    let name = chain.first ?? "?"
    // A generic object runs no class's code: it is decoded under secure coding only when the user allowed that.
    if let resolved, case .generic = resolved.kind { return }
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
    if let resolved, resolved.isCoding {
      guard let secure = resolved.secureType, secure.supportsSecureCoding else {
        throw ArchiveError(
          .classNotAllowed, "class \(name) does not support secure coding", at: .init(objectIndex: uid, className: name)
        )
      }
    }
  }
}
