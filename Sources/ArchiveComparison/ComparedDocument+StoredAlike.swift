import ArchiveCoding
import ArchiveSupport
import Foundation
import KeyedArchive
import PropertyList

extension ComparedDocument {
  /// What checking two inputs that store one keyed archive alike found: each input's outcome, as reading it into
  /// a comparison would find it (its error located in the file as ``init(data:fileName:comparedWith:)`` locates it).
  package struct StoredAlike {
    /// The first input's checks: the reader's, what materialising it would refuse, and its walk's first pass.
    package var first: Result<Void, any Error>
    /// The second input's checks: the reader's; what else its reading would check, it finds in the first.
    package var second: Result<Void, any Error>

    /// Nothing, or the first error of the two, the first input's first: the outcome of comparing the two.
    package func get() throws {
      try first.get()
      try second.get()
    }
  }

  /// Two binary keyed archives that store the same value alike
  /// (``/PropertyList/BinaryPropertyListReader/storesAlike(_:)``, ARC-315), checked: their comparison has no
  /// difference, and its only possible outcome is an error of the checks.
  ///
  /// The first input is checked as reading it checks it (``/KeyedArchive/CheckedPropertyList``); the second by its
  /// reader's checks alone, which see what the value does not hold (objects nothing reaches, the offset table, the
  /// trailer): what its materialisation check and its walk would find, they found in the first, the same graph. On
  /// inputs of a megabyte or more the second's checks run beside the first's. Inputs with the same bytes are one
  /// input, checked once.
  /// - Parameters:
  ///   - a: the first input's bytes.
  ///   - b: the second input's bytes.
  ///   - fileNames: the names the inputs' errors are located in.
  ///   - isCompared: `false` for a first input that is compared otherwise (a keyed-archive nib, by its objects).
  /// - Returns: the two inputs' checks; `nil` when either is no binary keyed archive, or they are stored otherwise
  ///   (the comparison then reads each on its own).
  package static func storedAlike(
    _ a: Data, _ b: Data, fileNames: (String, String),
    isCompared: (BinaryPropertyListReader) -> Bool = { _ in true }
  ) -> StoredAlike? {
    guard PropertyListReader.format(of: a) == .binary, PropertyListReader.format(of: b) == .binary else { return nil }
    return a.withUnsafeBytes { first in
      b.withUnsafeBytes { second -> StoredAlike? in
        let (storeA, storeB) = (ByteStore(borrowing: first), ByteStore(borrowing: second))
        guard
          let readerA = try? BinaryPropertyListReader(store: storeA, options: .default, validation: .onAccess),
          KeyedArchiveContainer.looksLikeKeyedArchive(reader: readerA), isCompared(readerA)
        else { return nil }
        let checkFirst = { () throws -> Void in _ = try CheckedPropertyList(store: storeA) }
        if sameBytes(first, second) {
          // The same bytes: every check finds in the second what it finds in the first.
          let outcome = Result { try checkFirst() }
          return StoredAlike(
            first: outcome.mapError { located($0, in: fileNames.0) },
            second: outcome.mapError { located($0, in: fileNames.1) })
        }
        guard
          let readerB = try? BinaryPropertyListReader(store: storeB, options: .default, validation: .onAccess),
          readerA.storesAlike(readerB)
        else { return nil }
        let checkSecond = { @Sendable () throws -> Void in
          _ = try BinaryPropertyListReader(store: storeB, options: .default, validation: .full)
        }
        let outcomes: (Result<Void, any Error>, Result<Void, any Error>)
        if b.count >= CheckedPropertyList.sideBySideByteCount {
          let (second, first) = SideBySide.run(background: checkSecond, foreground: checkFirst)
          outcomes = (first, second)
        } else {
          outcomes = (Result { try checkFirst() }, Result { try checkSecond() })
        }
        return StoredAlike(
          first: outcomes.0.mapError { located($0, in: fileNames.0) },
          second: outcomes.1.mapError { located($0, in: fileNames.1) })
      }
    }
  }

  /// `true` when the two buffers hold the same bytes.
  private static func sameBytes(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
    guard x.count == y.count else { return false }
    guard let p = x.baseAddress, let q = y.baseAddress else { return true }
    return memcmp(p, q, x.count) == 0
  }

  /// `error` located in file `name`, when it is an ``/ArchiveCoding/ArchiveError``.
  static func located(_ error: any Error, in name: String) -> any Error {
    guard let error = error as? ArchiveError else { return error }
    return error.located(in: .init(file: name))
  }
}
