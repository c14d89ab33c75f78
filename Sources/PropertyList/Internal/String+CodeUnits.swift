import Foundation

extension String {
  /// `true` when both strings are the same UTF-8 code units. `==` on `String` is canonical equivalence: "café"
  /// precomposed equals "café" decomposed, and the Kelvin sign equals "K". Keys and shared strings of an archive
  /// compare code unit by code unit, as Foundation's do (ARC-026, ARC-006).
  @inlinable
  package func hasSameCodeUnits(as other: String) -> Bool {
    guard utf8.count == other.utf8.count else { return false }
    return withCodeUnits { a in
      other.withCodeUnits { b -> Bool in
        guard let left = a.baseAddress, let right = b.baseAddress else { return a.count == b.count }
        return memcmp(left, right, a.count) == 0
      }
    }
  }

  /// Calls `body` with the string's UTF-8 code units: in place for a native string, else (a bridged one) from a
  /// native copy. Every reader of a string's bytes goes through here, so that one string gives the same bytes, and
  /// the same hash, whichever storage it has.
  @inlinable
  package func withCodeUnits<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = self
    return try copy.withUTF8(body)
  }

  /// ``hasSameCodeUnits(as:)`` for a string compared many times (a cached key), whose ASCII-ness the caller worked
  /// out once: an ASCII string that `==` finds equal to one of the same UTF-8 length is the same code units, since
  /// every non-ASCII scalar takes more UTF-8 bytes than the ASCII it is canonically equivalent to.
  @inlinable @inline(__always)
  package func isLiterally(_ other: String, selfIsASCII: Bool) -> Bool {
    utf8.count == other.utf8.count && self == other && (selfIsASCII || hasSameCodeUnits(as: other))
  }

  /// `true` when every code unit is ASCII.
  @inlinable
  package var isASCII: Bool {
    withCodeUnits { bytes in
      var high: UInt8 = 0
      for byte in bytes { high |= byte }
      return high < 0x80
    }
  }
}

/// A `String` that hashes and compares by its UTF-8 code units, for the tables that share one object among equal
/// strings: keyed by `String`, they would merge two spellings of one text into the first one written.
package struct LiteralString: Hashable {
  @usableFromInline let string: String

  @inlinable
  package init(_ string: String) { self.string = string }

  @inlinable
  package static func == (a: Self, b: Self) -> Bool { a.string.hasSameCodeUnits(as: b.string) }

  @inlinable
  package func hash(into hasher: inout Hasher) {
    // Always the bytes in one call: a byte-by-byte fallback for bridged storage would hash the same code units
    // differently.
    string.withCodeUnits { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
