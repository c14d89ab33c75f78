import ArchiveCoding
import Foundation

/// `NSIndexPath` (ARC-152): `NSIndexPathLength` indexes, one inline (`NSIndexPathValue`) or packed in
/// `NSIndexPathData`; none for length 0.
package struct IndexPathForm: Hashable, Sendable {
  package var indexes: [UInt64]

  package init(indexes: [UInt64]) { self.indexes = indexes }

  /// Reads the keyed form. No `NSIndexPathLength` is the empty path.
  /// - Throws: ``FormMismatch`` for a field of another type, a negative inline index or a missing
  ///   `NSIndexPathData`; ``/ArchiveCoding/ArchiveError`` (`corruptData`, naming `NSIndexPathData`) for a length that is negative
  ///   or above the data's bytes, packed data that cannot be read, or an index past the largest (`Int.max - 1`).
  package init(keyed source: inout some KeyedFormSource) throws {
    let hasData = try source.contains(FoundationKeys.nsIndexPathData)
    guard let length = try source.integer(FoundationKeys.nsIndexPathLength) else {
      indexes = []
      return
    }
    if length == 1, !hasData {
      guard let value = try source.integer(FoundationKeys.nsIndexPathValue), value >= 0 else {
        throw FormMismatch(
          .corruptData, "expected an index in \(FoundationKeys.nsIndexPathValue)", key: FoundationKeys.nsIndexPathValue)
      }
      indexes = [UInt64(value)]
    } else if length != 0 {
      let key = FoundationKeys.nsIndexPathData
      guard let bytes = try source.data(key) else {
        throw FormMismatch(.corruptData, "\(FoundationClass.indexPath) without \(key)", key: key)
      }
      guard length > 0, length <= bytes.count else {
        throw ArchiveError(
          .corruptData, "\(FoundationKeys.nsIndexPathLength) is \(length) but the data holds \(bytes.count) bytes",
          at: .init(keyPath: key))
      }
      do { indexes = try PackedIntegers.decode(bytes, count: Int(length)) } catch {
        throw ArchiveError(.corruptData, "the packed indexes are corrupt (\(error))", at: .init(keyPath: key))
      }
    } else {
      indexes = []
    }
    if let index = indexes.first(where: { $0 >= UInt64(Int.max) }) {
      throw ArchiveError(
        .corruptData, "\(index) is past the largest index",
        at: .init(keyPath: hasData ? FoundationKeys.nsIndexPathData : FoundationKeys.nsIndexPathValue))
    }
  }

  /// What it means.
  package var value: FoundationValue { .indexPath(indexes) }
}

extension IndexPathForm {
  /// The index path.
  package var indexPath: IndexPath { IndexPath(indexes: indexes.map { Int($0) }) }

  /// The form of `path`.
  package init(_ path: IndexPath) { indexes = path.map { UInt64(clamping: $0) } }
}

extension IndexPathForm {
  /// Writes the keyed form: the length, then one index inline or every index packed (none for length 0).
  package func write(to sink: inout some KeyedFormSink) {
    sink.inline(.integer(Int64(indexes.count)), forKey: FoundationKeys.nsIndexPathLength)
    if indexes.count == 1, let only = indexes.first {
      sink.inline(.integer(Int64(only)), forKey: FoundationKeys.nsIndexPathValue)
    } else if indexes.count > 1 {
      sink.plain(.bytes(Data(PackedIntegers.encode(indexes))), forKey: FoundationKeys.nsIndexPathData)
    }
  }
}
