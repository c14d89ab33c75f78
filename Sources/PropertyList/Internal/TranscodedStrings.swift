import ArchiveCoding
import Foundation

/// The strings a ``PropertyListTranscoder`` has written, shared as ``BinaryPropertyListWriter/add(string:)`` shares
/// them (by their UTF-8 code units, ARC-006) without keeping a copy of each (CLI-170): a slot holds a string's hash,
/// the input object it was read from and its object number in the output, and a slot whose hash matches is
/// confirmed against that object's bytes in the input, which stays mapped while the transcoder runs.
///
/// Open addressing with linear probing, at most three quarters full; twelve bytes a slot.
struct TranscodedStrings {
  private struct Slot {
    var hash: UInt32
    /// The input object plus one; 0 marks an empty slot.
    var object: UInt32
    var ref: UInt32
  }

  /// Where a string not found goes.
  struct Vacancy {
    fileprivate let hash: UInt32
    fileprivate let slot: Int
  }

  /// What ``find(_:in:)`` finds.
  enum Lookup {
    /// The output object of an equal string written before.
    case found(Int)
    /// No equal string was written: where to record this one.
    case absent(Vacancy)
  }

  private var slots: [Slot] = []
  private var count = 0

  private static let smallestCapacity = 1024

  /// The output object of a string with `string`'s code units written before, or where to record `string`.
  /// - Throws: what reading an earlier string back from `reader` throws (it was read once already).
  mutating func find(_ string: String, in reader: BinaryPropertyListReader) throws -> Lookup {
    if (count + 1) * 4 > slots.count * 3 { grow() }
    let hash = Self.hash(string)
    let mask = slots.count - 1
    var index = Int(hash) & mask
    while slots[index].object != 0 {
      let slot = slots[index]
      if slot.hash == hash, try Self.object(Int(slot.object) - 1, in: reader, isLiterally: string) {
        return .found(Int(slot.ref))
      }
      index = (index + 1) & mask
    }
    return .absent(Vacancy(hash: hash, slot: index))
  }

  /// Records that `string`, read from input object `object`, is output object `ref`, where ``find(_:in:)`` said.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`limitExceeded`) for an object number past 32 bits.
  mutating func record(_ vacancy: Vacancy, object: Int, ref: Int) throws {
    guard object < Int(UInt32.max), ref <= Int(UInt32.max) else {
      throw ArchiveError(.limitExceeded, "more strings than a re-encoding shares", at: .init(objectIndex: object))
    }
    slots[vacancy.slot] = Slot(hash: vacancy.hash, object: UInt32(object + 1), ref: UInt32(ref))
    count += 1
  }

  /// Doubles the table (or makes the first one), placing every slot again by its hash.
  private mutating func grow() {
    let capacity = Swift.max(slots.count * 2, Self.smallestCapacity)
    var larger = [Slot](repeating: Slot(hash: 0, object: 0, ref: 0), count: capacity)
    let mask = capacity - 1
    for slot in slots where slot.object != 0 {
      var index = Int(slot.hash) & mask
      while larger[index].object != 0 { index = (index + 1) & mask }
      larger[index] = slot
    }
    slots = larger
  }

  /// The hash of the string's UTF-8 code units, as ``LiteralString`` hashes them.
  private static func hash(_ string: String) -> UInt32 {
    var hasher = Hasher()
    string.withCodeUnits { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    return UInt32(truncatingIfNeeded: hasher.finalize())
  }

  /// `true` when input object `object`, a string, reads as `string`'s code units: an ASCII string's bytes are
  /// compared in place, a UTF-16 one is read as the writer was given it (unpaired surrogates as U+FFFD).
  private static func object(
    _ object: Int, in reader: BinaryPropertyListReader, isLiterally string: String
  ) throws
    -> Bool
  {
    let header = try reader.header(of: object)
    guard header.kind == .asciiString else {
      return try reader.string(header, object: object).hasSameCodeUnits(as: string)
    }
    return string.withCodeUnits { reader.isASCIIString(object, equalTo: $0) }
  }
}
