import ArchiveCoding
import Foundation

// The link phase (deferred references, resolved once every object exists) and the awake phase.
extension KeyedUnarchiver {
  /// Defers decoding the object under a key to the link phase.
  public func decodeDeferred(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, Any?) throws -> Void
  ) throws {
    guard let frame = store.state.frames.last else {
      throw ArchiveError(.other, "decodeReference(forKey:into:) can only be used inside init(coder:)")
    }
    guard let ref = fieldRef(key) else {
      return
    }
    store.state.links.append(
      ObjectStore.Link(
        owner: nil, ownerUID: frame.uid, ownerClass: index.className(ofSlot: frame.classSlot), targetRef: ref, key: key,
        allowed: allowedClasses, assign: assign))
  }

  /// Makes `object` the value of `$objects[uid]` before its contents are decoded, so references back to it (a
  /// collection that contains itself) resolve to it instead of being a cycle error; it is done when its decode
  /// ends.
  func publishEarly(_ object: AnyObject, uid: Int) {
    store.state.cache.setInstance(object, uid: uid)
    store.state.cache[state: uid] = .published
    store.state.open.published[uid] = store.state.frames.count - 1
  }

  /// Decodes deferred references, then awakes the decoded ``Coding`` instances that asked for them (the others were
  /// awoken when their `init(coder:)` returned, Decision 0025).
  func runLinkAndAwakePhases() throws {
    store.state.linking = true
    defer { store.state.linking = false }
    var index = 0
    while index < store.state.links.count {
      let link = store.state.links[index]
      index += 1
      guard let owner = link.owner else { continue }
      let location = ArchiveError.Location(objectIndex: link.ownerUID, className: link.ownerClass, keyPath: link.key)
      do {
        let value = try object(atFieldRef: link.targetRef, key: link.key, allowed: link.allowed)
        try link.assign(owner, value)
      } catch let error as ArchiveError {
        throw error.located(in: location)
      }
    }
    store.state.links.removeAll()
    var pending: [(uid: Int, object: any Coding)] = []
    swap(&pending, &store.state.awakeList)
    for (uid, object) in pending {
      let awoken = try awaken(object, uid: uid, classSlot: nil)
      if awoken !== object { store.state.cache[uid] = awoken }
    }
  }

  /// Sends `awakeAfter(using:)` to a decoded instance and, with a delegate, makes the delegate's calls in Apple's order
  /// (COD-104): `willReplace` when `awakeAfter(using:)` replaced it, `didDecode`, `willReplace` when the delegate
  /// replaced it.
  /// - Returns: the object to hand out for the entry: the instance, its replacement, or `nil`.
  /// - Throws: ``/ArchiveCoding/ArchiveError``: what `awakeAfter(using:)` throws (another error as its underlying error), located at
  ///   object `uid` (of the class in `classSlot`, when given) unless it names an object already.
  func awaken(_ object: any Coding, uid: Int, classSlot: Int?) throws -> AnyObject? {
    let awoken: AnyObject
    do {
      awoken = try object.awakeAfter(using: self)
    } catch {
      // The class name is read only here: reading it for every object would retain and release it.
      let location = ArchiveError.Location(objectIndex: uid, className: classSlot.map(index.className(ofSlot:)))
      let archiveError = error as? ArchiveError ?? ArchiveError(.other, "awakeAfter(using:) failed", underlying: error)
      throw archiveError.located(in: location)
    }
    guard hasDelegate, let delegate else { return awoken }
    if awoken !== object { delegate.unarchiver(self, willReplace: object, with: awoken) }
    let chosen = delegate.unarchiver(self, didDecode: awoken)
    if chosen !== awoken { delegate.unarchiver(self, willReplace: awoken, with: chosen) }
    return chosen
  }
}
