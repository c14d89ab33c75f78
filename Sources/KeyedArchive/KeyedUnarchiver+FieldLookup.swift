import ArchiveCoding
import Foundation
import PropertyList

// Finding the value of a key in the current object's dictionary, through the keys of its layout in the index.
extension KeyedUnarchiver {
  /// The property-list object stored under a key of the current object (`$top` outside any object), or `nil`.
  func fieldRef(_ key: String) -> Int? { inlinedFieldRef(key) }

  /// ``fieldRef(_:)`` inlined, for the typed fast paths (``decodeInt64(forKey:)`` and the like), whose lookups are
  /// most of a decode's.
  @inline(__always)
  func inlinedFieldRef(_ key: String) -> Int? {
    guard !store.state.frames.isEmpty else { return storedFieldRef(KeyedArchiver.escape(key)) }
    var position = store.state.frames.cursor.next
    if !index.hasKey(key, at: position, in: store.state.frames.cursor.layout) {
      guard let found = searchedFieldPosition(key) else { return nil }
      position = found
    }
    store.state.frames.cursor.next = position &+ 1
    if store.state.frames.cursor.notesReads { noteRead(position) }
    return reader.dictionaryValue(store.state.frames.cursor.header, position)
  }

  /// The position of `key` in the current object's dictionary when it is not the key after the last one found.
  @inline(never)
  private func searchedFieldPosition(_ key: String) -> Int? {
    let cursor = store.state.frames.cursor
    return index.position(of: key, in: cursor.layout, dictionary: cursor.header, from: cursor.next)
  }

  /// The property-list object stored under a key exactly as written in the archive (no `$` escaping).
  func storedFieldRef(_ stored: String) -> Int? {
    let header = currentHeader
    guard let position = reader.lookupPosition(string: stored, inDictionary: header) else { return nil }
    if !store.state.frames.isEmpty, store.state.frames.cursor.notesReads { noteRead(position) }
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
    guard let ref = inlinedFieldRef(key), let raw = reader.uidValue(ofObject: ref), raw > 0,
      raw < UInt64(objectsHeader.count)
    else { return nil }
    let uid = Int(raw)
    return store.state.cache[state: uid] == .inProgress ? nil : uid
  }

  /// Undoes the last keyed lookup of the current object, for a fast path that falls back to the general path
  /// (which looks the key up again), so that the general path's lookup starts where the fast path's did.
  func rewindFieldCursor() {
    guard !store.state.frames.isEmpty, store.state.frames.cursor.next > 0 else { return }
    store.state.frames.cursor.next -= 1
  }
}
