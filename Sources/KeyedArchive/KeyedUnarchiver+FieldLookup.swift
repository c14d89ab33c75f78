import ArchiveCoding
import Foundation
import PropertyList

// Finding the value of a key in the current object's dictionary, through the keys of its layout in the index.
extension KeyedUnarchiver {
  /// The property-list object stored under a key of the current object (`$top` outside any object), or `nil`.
  func fieldRef(_ key: String) -> Int? {
    guard let last = store.state.frames.indices.last else { return storedFieldRef(KeyedArchiver.escape(key)) }
    // The frame's fields are read first and written once at the end: each write to the array checks its
    // uniqueness.
    let layout = store.state.frames[last].layout
    let next = store.state.frames[last].next
    let header = store.state.frames[last].header
    let notesReads = store.state.frames[last].notesReads
    guard let position = index.position(of: key, in: layout, dictionary: header, from: next) else { return nil }
    store.state.frames[last].next = position &+ 1
    if notesReads { noteRead(position) }
    return reader.dictionaryValue(header, position)
  }

  /// The property-list object stored under a key exactly as written in the archive (no `$` escaping).
  func storedFieldRef(_ stored: String) -> Int? {
    let header = currentHeader
    guard let position = reader.lookupPosition(string: stored, inDictionary: header) else { return nil }
    if let last = store.state.frames.indices.last, store.state.frames[last].notesReads { noteRead(position) }
    return reader.dictionaryValue(header, position)
  }

  /// Notes that the initialiser of the current object, whose class keeps its unread fields, read the field at
  /// `position` of its dictionary (COD-210).
  @inline(never)
  private func noteRead(_ position: Int) {
    store.state.open.reads[store.state.open.reads.count - 1][position] = true
  }

  /// The UID a field refers to when it is a valid reference to an entry not yet decoded or already decoded as a
  /// plain value (fast paths only).
  @inline(__always)
  func plainTarget(forKey key: String) -> Int? {
    // The UID read from its marker: anything else (or a malformed UID) is `nil`, as its header would make it.
    guard let ref = fieldRef(key), let raw = reader.uidValue(ofObject: ref), raw > 0, raw < UInt64(objectsHeader.count)
    else { return nil }
    let uid = Int(raw)
    return store.state.cache[state: uid] == .inProgress ? nil : uid
  }

  /// Undoes the last keyed lookup of the current object, for a fast path that falls back to the general path
  /// (which looks the key up again), so that the general path's lookup starts where the fast path's did.
  func rewindFieldCursor() {
    guard let last = store.state.frames.indices.last, store.state.frames[last].next > 0 else { return }
    store.state.frames[last].next -= 1
  }
}
