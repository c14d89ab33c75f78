import Foundation

/// The bytes a ``BinaryPropertyListReader`` reads: a copy it owns, or memory borrowed from the caller for the
/// duration of a scope (no copy of a large input). Every read is bounds-checked against `count`.
///
/// A borrowing store must be given its own copy with `ownCopy()` before the borrowed memory goes away if it may
/// still be used afterwards; that switch is its only mutation, made by the owner while nothing else reads it.
///
/// Package access only, and `@usableFromInline` so that the reader's inlinable reads reach it (Decision 0033): a
/// store holds an unsafe pointer, which no type users can see may hold (PERF-007).
@usableFromInline
package final class ByteStore: @unchecked Sendable {
  /// The number of bytes.
  @usableFromInline package let count: Int
  /// Where the bytes start, for the inlinable reads, which are inlined into the decoders of other modules.
  /// Unchecked exclusivity: every read of the decoders loads it, and it changes only in ``ownCopy()``, which the
  /// owner calls while nothing else reads the store; with the dynamic checks, decoding takes far longer.
  @usableFromInline @exclusivity(unchecked) var base: UnsafePointer<UInt8>
  private var owned: UnsafeMutablePointer<UInt8>?

  /// A store that owns a copy of `data`.
  package init(copying data: Data) {
    let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(data.count, 1))
    data.copyBytes(to: memory, count: data.count)
    count = data.count
    base = UnsafePointer(memory)
    owned = memory
  }

  /// A store that owns a copy of `bytes`.
  package init(copying bytes: [UInt8]) {
    let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(bytes.count, 1))
    bytes.withUnsafeBufferPointer { buffer in
      if let source = buffer.baseAddress { memory.initialize(from: source, count: buffer.count) }
    }
    count = bytes.count
    base = UnsafePointer(memory)
    owned = memory
  }

  /// A store that reads `buffer` in place.
  /// - Important: `buffer` must stay valid as long as the store is used, or until ``ownCopy()``.
  package init(borrowing buffer: UnsafeRawBufferPointer) {
    if let address = buffer.baseAddress, buffer.count > 0 {
      count = buffer.count
      base = address.assumingMemoryBound(to: UInt8.self)
      owned = nil
    } else {
      let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
      count = 0
      base = UnsafePointer(memory)
      owned = memory
    }
  }

  deinit { owned?.deallocate() }

  /// Copies borrowed bytes into memory the store owns (nothing to do when it owns them already).
  package func ownCopy() {
    guard owned == nil else { return }
    let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(count, 1))
    memory.initialize(from: base, count: count)
    base = UnsafePointer(memory)
    owned = memory
  }

  /// The byte at `index`.
  @inline(__always)
  @inlinable
  package subscript(index: Int) -> UInt8 {
    precondition(index >= 0 && index < count, "byte \(index) is outside the input")
    return base[index]
  }

  /// The bytes of `range`, valid until the store is released or switched to its own copy.
  @inline(__always)
  @inlinable
  package subscript(range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "bytes \(range) are outside the input")
    return UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
  }

  /// The big-endian unsigned integer of `width` bytes (at most 8 are significant) at `position`.
  @inline(__always)
  @inlinable
  package func readUInt(at position: Int, width: Int) -> UInt64 {
    // One bounds check for the whole read (as strict as checking every byte), then unchecked loads.
    precondition(position >= 0 && width >= 0 && width <= count && position <= count - width)
    let raw = UnsafeRawPointer(base)
    switch width {
    case 1: return UInt64(base[position])
    case 2: return UInt64(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt16.self)))
    case 4: return UInt64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
    case 8: return UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    default:
      var value: UInt64 = 0
      for i in 0..<width { value = value << 8 | UInt64(base[position &+ i]) }
      return value
    }
  }
}
