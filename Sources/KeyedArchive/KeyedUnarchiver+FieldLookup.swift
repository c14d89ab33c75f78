import ArchiveCoding
import Foundation
import PropertyList

// Finding the value of a key in the current object's dictionary, guided by the field hints of its class.
extension KeyedUnarchiver {
  /// Where the n-th keyed call of an `init(coder:)` found its key in the last object of the same class.
  struct FieldHint {
    var key: String
    var keyRef: Int
    var position: Int
    /// Whether `key` is ASCII, worked out when the hint is recorded (see `String.isLiterally(_:selfIsASCII:)`).
    var keyIsASCII: Bool

    /// `true` when `key` is this hint's key, code unit for code unit (ARC-026).
    @inline(__always)
    func isKey(_ key: String) -> Bool { self.key.isLiterally(key, selfIsASCII: keyIsASCII) }
  }

  /// The most keyed calls per object remembered in ``ClassEntry/hints``.
  static let maxHints = 32

  /// The property-list object stored under a key of the current object, or `nil`.
  func fieldRef(_ key: String) -> Int? {
    guard let last = state.frames.indices.last else { return storedFieldRef(KeyedArchiver.escape(key)) }
    // The frame's fields are read first and written once at the end (`advance`): each write to the array checks
    // its uniqueness.
    let header = state.frames[last].header
    let slot = Int(state.frames[last].classSlot)
    let call = state.frames[last].cursor
    let next = state.frames[last].nextPosition
    guard slot >= 0 else {
      state.frames[last].advance(cursor: call + 1, next: next)
      return storedFieldRef(KeyedArchiver.escape(key))
    }
    if call < state.classEntries[slot].hints.count {
      // Read in place: a copy of the hint would retain its key.
      let position = state.classEntries[slot].hints[call].position
      if position < header.count, reader.element(header, position) == state.classEntries[slot].hints[call].keyRef,
        state.classEntries[slot].hints[call].isKey(key)
      {
        state.frames[last].advance(cursor: call + 1, next: position + 1)
        return reader.dictionaryValue(header, position)
      }
    }
    // The key after the last one found, usually the one asked for, is probed first.
    guard
      let position = reader.hasASCIIKey(key, at: next, in: header, escaping: KeyedArchiver.escapeByte)
        ? next
        : reader.lookupPosition(string: key, inDictionary: header, from: next, escaping: KeyedArchiver.escapeByte)
    else {
      state.frames[last].advance(cursor: call + 1, next: next)
      return nil
    }
    state.frames[last].advance(cursor: call + 1, next: position + 1)
    if state.classEntries[slot].recordsHints, call <= state.classEntries[slot].hints.count, call < Self.maxHints {
      let hint = FieldHint(
        key: key, keyRef: reader.element(header, position), position: position,
        keyIsASCII: key.isASCII)
      if call == state.classEntries[slot].hints.count {
        // Room for a typical class's keys at once, instead of growing the array at 1, 2, 4, 8 and 16 hints.
        if call == 0 { state.classEntries[slot].hints.reserveCapacity(16) }
        state.classEntries[slot].hints.append(hint)
      } else {
        state.classEntries[slot].hints[call] = hint
      }
    }
    return reader.dictionaryValue(header, position)
  }

  /// The property-list object stored under a key exactly as written in the archive (no `$` escaping).
  func storedFieldRef(_ stored: String) -> Int? {
    let header = currentHeader
    return reader.lookupPosition(string: stored, inDictionary: header).map { reader.dictionaryValue(header, $0) }
  }

  /// The UID a field refers to when it is a valid reference to an entry not yet decoded or already decoded as a
  /// plain value (fast paths only).
  func plainTarget(forKey key: String) -> Int? {
    // The UID read from its marker: anything else (or a malformed UID) is `nil`, as its header would make it.
    guard let ref = fieldRef(key), let raw = reader.uidValue(ofObject: ref), raw > 0, raw < UInt64(objectsHeader.count)
    else { return nil }
    let uid = Int(raw)
    return state.cache[state: uid] == .inProgress ? nil : uid
  }

  /// Undoes the count of the last keyed lookup of the current object, for a fast path that falls back to the
  /// general path (which looks the key up again), so that field hints stay aligned with the calls.
  func rewindFieldCursor() {
    guard let last = state.frames.indices.last, state.frames[last].cursor > 0 else { return }
    state.frames[last].cursor -= 1
    // The lookup again starts at the key just found.
    state.frames[last].nextPosition = max(0, state.frames[last].nextPosition - 1)
  }
}
