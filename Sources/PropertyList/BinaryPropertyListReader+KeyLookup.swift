import ArchiveCoding
import Foundation

/// Key lookup: finding a key in a dictionary object by comparing the stored keys' bytes, without making strings.
extension BinaryPropertyListReader {
  /// `true` when the object is an ASCII string equal to `key` (compared as bytes, no `String` is made); `false`
  /// for anything unreadable.
  package func isASCIIString(_ object: Int, equalTo key: String) -> Bool {
    var key = key
    return key.withUTF8 { isASCIIString(object, equalTo: $0) }
  }

  /// `true` when the object is an ASCII string whose bytes equal `key`; `false` for anything unreadable.
  ///
  /// A key shorter than 15 bytes is compared with the one marker that can hold its length (`0x5n`) before
  /// anything else is read: a key lookup compares mostly keys of other lengths or other bytes, and parsing each
  /// one's header cost more than the comparison. The long form of a short length (`0x5F` then an integer) takes
  /// the general path.
  @inline(__always)
  package func isASCIIString(_ object: Int, equalTo key: UnsafeBufferPointer<UInt8>) -> Bool {
    if key.count < 0x0F, let words = ShortKey(key) {
      guard let offset = checkedOffset(of: object) else { return false }
      let marker = bytes[offset]
      if marker == 0x50 | UInt8(truncatingIfNeeded: key.count) {
        // The key's bytes lie inside the object area: the offset is below the offset table.
        guard offset + 1 + key.count <= offsetTableOffset else { return false }
        return words.matches(UnsafeRawPointer(bytes.base) + offset + 1)
      }
      guard marker == 0x5F else { return false }
    }
    guard let header = try? header(of: object), header.kind == .asciiString, header.count == key.count else {
      return false
    }
    let stored = bytes[header.start..<(header.start + header.count)]
    for i in 0..<key.count where stored[i] != key[i] { return false }
    return true
  }

  /// `true` when the key at `position` of dictionary `header` is `key`, an ASCII key stored as an ASCII string:
  /// then ``lookupPosition(string:inDictionary:from:escaping:)`` from `position` finds it there, with its first
  /// comparison. A caller that reads keys in the order they were written probes the next one this way before the
  /// full lookup (which costs more even when its first comparison matches). `false` for anything
  /// else, also for a key that starts with `escape` (it is stored escaped) or is not ASCII, and for a string whose
  /// bytes are not contiguous: the full lookup decides those.
  /// Short keys (below 15 bytes) only; the stored key's marker must be the one that holds its length.
  package func hasASCIIKey(_ key: String, at position: Int, in header: Header, escaping escape: UInt8) -> Bool {
    guard position >= 0, position < header.count, let offset = checkedOffset(of: element(header, position)) else {
      return false
    }
    let base = UnsafeRawPointer(bytes.base)
    let limit = offsetTableOffset
    return key.utf8.withContiguousStorageIfAvailable { key in
      let count = key.count
      // The offset is inside the object area (checked), so its marker byte is inside the input.
      guard count > 0, count < 0x0F, key[0] != escape, let words = ShortKey(key), words.isASCII,
        base.load(fromByteOffset: offset, as: UInt8.self) == 0x50 | UInt8(truncatingIfNeeded: count),
        offset + 1 + count <= limit
      else { return false }
      return words.matches(base + offset + 1)
    } ?? false
  }

  /// `true` when the object's marker is a UTF-16 string's (its payload is not checked); `false` for anything else
  /// or an unreadable reference. A key lookup that compared ASCII keys byte by byte checks only these again.
  @inline(__always)
  package func isUTF16String(_ object: Int) -> Bool {
    guard let offset = checkedOffset(of: object) else { return false }
    return bytes[offset] & 0xF0 == 0x60
  }

  /// Finds the value of a string key in a dictionary object (see ``lookupPosition(string:inDictionary:from:escaping:)``).
  package func lookup(string key: String, inDictionary header: Header) -> Int? {
    lookupPosition(string: key, inDictionary: header).map { dictionaryValue(header, $0) }
  }

  /// The position of a string key in a dictionary object: its first occurrence at or after `start` among the keys
  /// stored as ASCII strings, compared byte by byte (no `String` is made), else its first occurrence before it; else
  /// its first occurrence among the keys stored as UTF-16 strings (a writer may store any key so; no ASCII string
  /// object equals a key that is not ASCII). A caller that reads keys in the order they were written passes the
  /// position after the last key it found, and the key is then usually the first one compared.
  ///
  /// With `escape`, a key that starts with that byte is looked up with one more in front: keyed archives store a
  /// key that starts with `$` (reserved by the format) as `$` and the key. The first byte is read from the key's
  /// bytes, which are read anyway, rather than through `utf8.first`.
  package func lookupPosition(
    string key: String, inDictionary header: Header, from start: Int = 0, escaping escape: UInt8? = nil
  ) -> Int? {
    let start = min(max(start, 0), header.count)
    // A native string's bytes are read in place (a mutable copy for `withUTF8` costs more than the comparison).
    // `String.withCodeUnits` is written out, and so are its two closures: through a generic helper or one local
    // function passed to both, every lookup of a decode costs more. -1: the key needs its escape.
    let found =
      key.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
        if let escape, bytes.first == escape { return -1 }
        return asciiPosition(of: bytes, in: header, from: start)
      }
      ?? {
        var key = key
        return key.withUTF8 { bytes -> Int? in
          if let escape, bytes.first == escape { return -1 }
          return asciiPosition(of: bytes, in: header, from: start)
        }
      }()
    if let found {
      guard found < 0, let escape else { return found }
      return lookupPosition(string: String(decoding: [escape], as: UTF8.self) + key, inDictionary: header, from: start)
    }
    // Only the markers are read unless a key is stored as UTF-16 (a missing key costs one byte per key more), and
    // those are compared unit by unit, stopping at the first difference: no string is made per key.
    var units: [UInt16]?
    for i in 0..<header.count where isUTF16String(element(header, i)) {
      if units == nil { units = Array(key.utf16) }
      if let units, isUTF16String(element(header, i), equalTo: units) { return i }
    }
    return nil
  }

  /// The position of the ASCII key `key` among the keys of `header` stored as ASCII strings (see
  /// ``lookupPosition(string:inDictionary:from:escaping:)``), or `nil`, also when the key is not ASCII.
  @inline(__always)
  private func asciiPosition(of key: UnsafeBufferPointer<UInt8>, in header: Header, from start: Int) -> Int? {
    // A short key with the common widths: the scan with unchecked loads (see `shortKeyPosition`).
    if key.count < 0x0F, let words = ShortKey(key), header.start >= 0,
      header.start + header.count * objectRefSize <= offsetTableOffset
    {
      guard words.isASCII else { return nil }
      switch (objectRefSize, offsetIntSize) {
      case (1, 1): return shortKeyPosition(of: key, words, in: header, from: start, ref: UInt8.self, entry: UInt8.self)
      case (1, 2): return shortKeyPosition(of: key, words, in: header, from: start, ref: UInt8.self, entry: UInt16.self)
      case (2, 2):
        return shortKeyPosition(of: key, words, in: header, from: start, ref: UInt16.self, entry: UInt16.self)
      case (2, 4):
        return shortKeyPosition(of: key, words, in: header, from: start, ref: UInt16.self, entry: UInt32.self)
      case (4, 4):
        return shortKeyPosition(of: key, words, in: header, from: start, ref: UInt32.self, entry: UInt32.self)
      default: break
      }
    }
    for byte in key where byte >= 0x80 { return nil }
    for i in start..<header.count where isASCIIString(element(header, i), equalTo: key) { return i }
    for i in 0..<start where isASCIIString(element(header, i), equalTo: key) { return i }
    return nil
  }

  /// The bytes of a key shorter than 15 bytes as two words, compared with a stored key in two loads rather than a
  /// loop over the bytes: for 8 bytes or more, the first eight and the last eight; for 4
  /// to 7, the first four and the last four; below 4, the bytes one by one in `head`. The words overlap, and
  /// together cover every byte. ``isASCII(_:)`` reads a string shorter than 8 bytes with ``words(_:count:)``.
  struct ShortKey {
    let head: UInt64
    let tail: UInt64
    let count: Int

    /// `nil` for an empty buffer without storage.
    @inline(__always)
    init?(_ key: UnsafeBufferPointer<UInt8>) {
      count = key.count
      guard let start = key.baseAddress else {
        guard count == 0 else { return nil }
        head = 0
        tail = 0
        return
      }
      (head, tail) = Self.words(UnsafeRawPointer(start), count: count)
    }

    /// The words of the `count` bytes at `bytes` (`count` below 15).
    @inline(__always)
    static func words(_ bytes: UnsafeRawPointer, count: Int) -> (UInt64, UInt64) {
      if count >= 8 {
        return (
          bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        )
      }
      if count >= 4 {
        return (
          UInt64(bytes.loadUnaligned(as: UInt32.self)),
          UInt64(bytes.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
        )
      }
      var head: UInt64 = 0
      for i in 0..<count { head |= UInt64(bytes.load(fromByteOffset: i, as: UInt8.self)) << (8 &* UInt64(i)) }
      return (head, 0)
    }

    /// `true` when every byte is ASCII.
    @inline(__always)
    var isASCII: Bool { (head | tail) & 0x8080_8080_8080_8080 == 0 }

    /// `true` when the `count` bytes at `bytes` are the key's.
    @inline(__always)
    func matches(_ bytes: UnsafeRawPointer) -> Bool {
      let (storedHead, storedTail) = Self.words(bytes, count: count)
      return storedHead == head && storedTail == tail
    }
  }

  /// ``asciiPosition(of:in:from:)`` for a key shorter than 15 bytes (`words`), with references of `Ref`'s width
  /// and offsets of `Entry`'s: the same comparisons as ``isASCIIString(_:equalTo:)`` (the marker `0x5n` first,
  /// then the bytes), with unchecked loads where the bounds are known. The key references lie inside the object
  /// area (the caller checked it; a header from ``header(of:)`` always passes) and the offset table was checked
  /// at init, so only a reference's range and an offset's need checking: through the checked reads, bounds checks
  /// and width switches cost more than the comparison of each key.
  private func shortKeyPosition<Ref: FixedWidthInteger & UnsignedInteger, Entry: FixedWidthInteger & UnsignedInteger>(
    of key: UnsafeBufferPointer<UInt8>, _ words: ShortKey, in header: Header, from start: Int, ref _: Ref.Type,
    entry _: Entry.Type
  ) -> Int? {
    let base = UnsafeRawPointer(bytes.base)
    let keys = base + header.start
    let table = base + offsetTableOffset
    let marker = 0x50 | UInt8(truncatingIfNeeded: key.count)
    let end = offsetTableOffset - 1 - key.count
    func matches(_ position: Int) -> Bool {
      let object = Int(
        Ref(bigEndian: keys.loadUnaligned(fromByteOffset: position * MemoryLayout<Ref>.size, as: Ref.self)))
      guard object < objectCount else { return false }
      let raw = Entry(bigEndian: table.loadUnaligned(fromByteOffset: object * MemoryLayout<Entry>.size, as: Entry.self))
      // The string's last byte lies before the offset table.
      guard raw >= BinaryPropertyListMarker.headerSize, Int(raw) <= end else { return false }
      let offset = Int(raw)
      let found = base.load(fromByteOffset: offset, as: UInt8.self)
      // The long form of a short length (`0x5F` then an integer) takes the general comparison.
      guard found == marker else { return found == 0x5F && isASCIIString(object, equalTo: key) }
      return words.matches(base + offset + 1)
    }
    for position in start..<header.count where matches(position) { return position }
    for position in 0..<start where matches(position) { return position }
    return nil
  }

  /// `true` when the object is a UTF-16 string whose code units equal `units`; `false` for anything unreadable.
  /// The length is read from the marker (or the integer after `0x6F`) first: only a key of the right length is
  /// parsed, so a dictionary of many broken or long keys costs a byte or two per key, not an error each.
  private func isUTF16String(_ object: Int, equalTo units: [UInt16]) -> Bool {
    guard let offset = checkedOffset(of: object) else { return false }
    let low = Int(bytes[offset] & 0x0F)
    if low != 0x0F {
      guard low == units.count else { return false }
    } else {
      guard offset + 1 < offsetTableOffset else { return false }
      let lengthMarker = bytes[offset + 1]
      guard lengthMarker & 0xF0 == BinaryPropertyListMarker.integer, lengthMarker & 0x0F <= 3 else { return false }
      let width = 1 << Int(lengthMarker & 0x0F)
      guard offset + 2 + width <= offsetTableOffset,
        Self.readUInt(bytes, at: offset + 2, width: width) == UInt64(units.count)
      else { return false }
    }
    guard let header = try? header(of: object), header.kind == .utf16String, header.count == units.count else {
      return false
    }
    let stored = bytes[header.start..<(header.start + 2 * header.count)]
    for (i, unit) in units.enumerated() where UInt16(stored[2 * i]) << 8 | UInt16(stored[2 * i + 1]) != unit {
      return false
    }
    return true
  }
}
