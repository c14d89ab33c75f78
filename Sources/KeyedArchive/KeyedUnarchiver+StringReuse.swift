import ArchiveCoding
import Foundation
import FoundationForms
import PropertyList

// Plain string and data entries: read again or cached, and dictionary keys met twice remembered.
extension KeyedUnarchiver {
  /// Records a plain string or data entry just read (`header` is its header), as the general path does: cached,
  /// unless this is the first read of a small one (``isFirstReadOfSmallPayload(_:uid:)``).
  func rememberPlain(_ value: consuming Any, uid: Int, chain: Int32, header: BinaryPropertyListReader.Header) {
    if isFirstReadOfSmallPayload(header, uid: uid) { return }
    storePlain(value, uid: uid, chain: chain)
  }

  /// Caches plain entry `uid`, whose chain is `plainChains[chain]`, as decoded.
  func storePlain(_ value: consuming Any, uid: Int, chain: Int32) {
    state.cache[state: uid] = .done
    state.cache.store(value, uid: uid)
    state.cache[chain: uid] = chain
  }

  /// The longest payload (the bytes of a string or data entry) that is read again on its second use instead of
  /// being cached at its first: most entries are read once, and caching one costs more than reading it. A longer
  /// payload is cached at its first read, so that every reference shares one storage (ARC-007).
  static let rereadPayloadLength = 64

  /// `true` for the first read of a string or data entry of at most ``rereadPayloadLength`` bytes, which is then
  /// marked as read once and not cached; `false` for its second read (which caches it) or a larger one.
  @inline(__always)
  func isFirstReadOfSmallPayload(_ header: BinaryPropertyListReader.Header, uid: Int) -> Bool {
    let bytes = header.kind == .utf16String ? header.count &* 2 : header.count
    guard bytes <= Self.rereadPayloadLength, state.cache[state: uid] != .seenOnce else { return false }
    state.cache[state: uid] = .seenOnce
    return true
  }

  /// The dictionary key at `uid` when it is a plain string already read twice, checked against `allowed`
  /// as ``decode(uid:key:index:allowed:)`` would check it; `nil` otherwise (the caller decodes it).
  func repeatedStringKey(_ uid: Int, allowed: Set<String>?) throws -> String? {
    guard let string = state.plainStrings[uid] else { return nil }
    try checkStringKeyAllowed(uid: uid, allowed: allowed)
    return string
  }

  /// The allowed-class check of plain string entry `uid` (a dictionary key).
  func checkStringKeyAllowed(uid: Int, allowed: Set<String>?) throws {
    try checkAllowed(chainIndex: 0, allowed: allowed, uid: uid)
  }

  /// Decodes dictionary key `uid` (at `index` of `NS.keys`), and remembers it for ``repeatedStringKey(_:allowed:)``
  /// when it is a plain string met before: keys used once (an outer dictionary's) are not kept.
  func decodeKey(_ uid: Int, index: Int, allowed: Set<String>?) throws -> Any? {
    // Read before (`.seenOnce`), or cached: a plain string is cached from its second read on.
    let metBefore =
      uid > 0 && uid < state.cache.count && (state.cache[state: uid] == .seenOnce || state.cache[state: uid] == .done)
    let key = try decode(uid: uid, key: FoundationKeys.nsKeys, index: index, allowed: allowed)
    if metBefore, state.cache[chain: uid] == 0, let key, type(of: key) == String.self, let string = key as? String {
      state.plainStrings.insert(string, for: uid)
    }
    return key
  }
}
