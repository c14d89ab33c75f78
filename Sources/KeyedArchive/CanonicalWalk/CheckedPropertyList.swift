import ArchiveCoding
import ArchiveSupport
import PropertyList

/// A binary property list checked as reading it whole checks it and, when it is a keyed archive, the first pass of
/// its canonical walk done (``KeyedArchiveWalk/check()``): how `keyed dump --json`, `keyed validate` and the
/// comparison open an input (Decision 0071).
///
/// Two checks read the same bytes, and neither needs the other's result: the reader's (every object, reference
/// and dictionary key, the nesting of the containers, then what materialising the list would refuse,
/// ``BinaryPropertyListReader/checkValue(of:)``), and the walk's, through a reader that checks what it reads. On an
/// input of ``sideBySideByteCount`` bytes or more they run side by side (``SideBySide``): the reader's on a thread of
/// its own, the walk's on the caller's thread, whose stack the walk's guard measures. Either way the error is the
/// one they find one after the other: the reader's first, then the walk's (a list that passes the reader's checks
/// reads the same through both readers).
package struct CheckedPropertyList {
  /// The list's reader, every object checked (``BinaryPropertyListReader/Validation/full``).
  package let reader: BinaryPropertyListReader
  /// The keyed archive's walk, its first pass done; `nil` when the list is no keyed archive, or when it was not
  /// asked for.
  package var walk: KeyedArchiveWalk?

  /// The size from which the two checks run side by side: below it, a thread costs more than it saves.
  package static let sideBySideByteCount = 1 << 20

  /// Checks the list in `store` and, when `walking` and it is a keyed archive, walks it.
  /// - Parameters:
  ///   - store: the bytes, which must stay valid while the checks run.
  ///   - options: the property list's limits.
  ///   - walking: whether to check a keyed archive's walk, and read what materialising it would refuse.
  ///   - sideBySideFrom: the size from which the checks run side by side.
  /// - Throws: ``/ArchiveCoding/ArchiveError``: the reader's, then the archive's container's and the walk's.
  package init(
    store: ByteStore, options: PropertyListDecodingOptions = .default, walking: Bool = true,
    sideBySideFrom threshold: Int = sideBySideByteCount
  ) throws {
    guard walking, store.count >= threshold else {
      reader = try BinaryPropertyListReader(store: store, options: options, validation: .full)
      walk = walking ? try Self.walk(reader) : nil
      return
    }
    let (checked, walked) = SideBySide.run(
      background: { try Self.readerChecks(store, options) }, foreground: { try Self.onAccessWalk(store, options) })
    let (reader, isArchive) = try checked.get()
    self.reader = reader
    guard isArchive else {
      walk = nil
      return
    }
    // Both readers see a keyed archive once the list passed the reader's checks.
    walk = try walked.get() ?? Self.walk(reader)
  }

  /// Checks the list in `store` as ``init(store:options:walking:sideBySideFrom:)`` does and, when it is a keyed
  /// archive, runs `body` with its walk once the walk's first pass is done, while the reader's checks may still be
  /// running: for a consumer that writes nothing before it ends (the comparison builds a tree). Whatever `body`
  /// makes is returned only when the reader's checks pass; their error comes first, then the walk's, then `body`'s.
  /// - Returns: what `body` returns; `nil` when the list is no keyed archive.
  /// - Throws: ``/ArchiveCoding/ArchiveError``: the reader's, then the archive's container's and the walk's; or what
  ///   `body` throws.
  package static func walking<Made>(
    store: ByteStore, options: PropertyListDecodingOptions = .default,
    sideBySideFrom threshold: Int = sideBySideByteCount, _ body: (inout KeyedArchiveWalk) throws -> Made
  ) throws -> Made? {
    guard store.count >= threshold else {
      guard var walk = try CheckedPropertyList(store: store, options: options, sideBySideFrom: .max).walk else {
        return nil
      }
      return try body(&walk)
    }
    let (checked, walked) = SideBySide.run(
      background: { () throws -> (BinaryPropertyListReader, Bool) in try readerChecks(store, options) },
      foreground: { () throws -> Made? in
        guard var walk = try onAccessWalk(store, options) else { return nil }
        return try body(&walk)
      })
    let (reader, isArchive) = try checked.get()
    guard isArchive else { return nil }
    if let made = try walked.get() { return made }
    // Both readers see a keyed archive once the list passed the reader's checks.
    guard var walk = try Self.walk(reader) else { return nil }
    return try body(&walk)
  }

  /// The reader's checks: the whole list read, and what materialising it would refuse when it is a keyed archive
  /// (whether it is one is the second result).
  private static func readerChecks(
    _ store: ByteStore, _ options: PropertyListDecodingOptions
  ) throws -> (BinaryPropertyListReader, Bool) {
    let reader = try BinaryPropertyListReader(store: store, options: options, validation: .full)
    let isArchive = KeyedArchiveContainer.looksLikeKeyedArchive(reader: reader)
    if isArchive { try reader.checkValue(of: reader.topObject) }
    return (reader, isArchive)
  }

  /// The walk's checking pass through a reader that checks what it reads; `nil` when the list is no keyed archive.
  private static func onAccessWalk(
    _ store: ByteStore, _ options: PropertyListDecodingOptions
  ) throws -> KeyedArchiveWalk? {
    let reader = try BinaryPropertyListReader(store: store, options: options, validation: .onAccess)
    guard KeyedArchiveContainer.looksLikeKeyedArchive(reader: reader) else { return nil }
    return try checkedWalk(reader)
  }

  /// The walk of the keyed archive `reader` reads, its first pass done.
  private static func checkedWalk(_ reader: BinaryPropertyListReader) throws -> KeyedArchiveWalk {
    var walk = KeyedArchiveWalk(try KeyedArchiveGraph(reader: reader))
    try walk.check()
    return walk
  }

  /// The walk of the list `reader` read, its first pass done, after what materialising the list would refuse;
  /// `nil` when the list is no keyed archive.
  private static func walk(_ reader: BinaryPropertyListReader) throws -> KeyedArchiveWalk? {
    guard KeyedArchiveContainer.looksLikeKeyedArchive(reader: reader) else { return nil }
    try reader.checkValue(of: reader.topObject)
    return try checkedWalk(reader)
  }
}
