import ArchiveCoding
import Foundation

/// `NSIndexSet` and `NSMutableIndexSet` (ARC-151): `NSRangeCount` ranges, one inline (`NSLocation`, `NSLength`) or
/// packed in `NSRangeData` (base-128 varints, location then length of each range).
package struct IndexSetForm: Hashable, Sendable {
  /// The ranges as stored.
  package var ranges: [FoundationValue.IndexRange]

  package init(ranges: [FoundationValue.IndexRange]) { self.ranges = ranges }

  /// Reads the keyed form. No `NSRangeCount` is the empty set.
  /// - Throws: ``FormMismatch`` for a field of another type, an inline range with a negative part or a missing
  ///   `NSRangeData`; ``/ArchiveCoding/ArchiveError`` (`corruptData`, naming `NSRangeData`) for a count that is negative or above
  ///   half the data's bytes, packed data that cannot be read, or a range that runs past the largest index
  ///   (`Int.max`).
  package init(keyed source: inout some KeyedFormSource) throws {
    let hasData = try source.contains(FoundationKeys.nsRangeData)
    guard let count = try source.integer(FoundationKeys.nsRangeCount) else {
      ranges = []
      return
    }
    if count == 1, !hasData {
      guard let location = try source.integer(FoundationKeys.nsIndexSetLocation),
        let length = try source.integer(FoundationKeys.nsIndexSetLength), location >= 0, length >= 0
      else {
        throw FormMismatch(
          .corruptData,
          "expected a range of indexes in \(FoundationKeys.nsIndexSetLocation) and "
            + "\(FoundationKeys.nsIndexSetLength)", key: FoundationKeys.nsIndexSetLocation)
      }
      ranges = [.init(location: UInt64(location), length: UInt64(length))]
    } else if count > 0 || hasData {
      let key = FoundationKeys.nsRangeData
      guard let bytes = try source.data(key) else {
        throw FormMismatch(.corruptData, "\(FoundationClass.indexSet) without \(key)", key: key)
      }
      guard count >= 0, count <= bytes.count / 2 else {
        throw ArchiveError(
          .corruptData, "\(FoundationKeys.nsRangeCount) is \(count) but the data holds \(bytes.count) bytes",
          at: .init(keyPath: key))
      }
      let values: [UInt64]
      do { values = try PackedIntegers.decode(bytes, count: Int(count) * 2) } catch {
        throw ArchiveError(.corruptData, "the packed ranges are corrupt (\(error))", at: .init(keyPath: key))
      }
      ranges = stride(from: 0, to: values.count, by: 2).map { .init(location: values[$0], length: values[$0 + 1]) }
    } else {
      ranges = []
    }
    for range in ranges {
      let (end, overflow) = range.location.addingReportingOverflow(range.length)
      guard !overflow, end <= UInt64(Int.max) else {
        throw ArchiveError(
          .corruptData, "the range at \(range.location) of length \(range.length) runs past the largest index",
          at: .init(keyPath: FoundationKeys.nsRangeData))
      }
    }
  }

  /// What it means.
  package var value: FoundationValue { .indexSet(ranges) }
}

extension IndexSetForm {
  /// The index set (empty ranges add nothing).
  package var indexSet: IndexSet {
    var set = IndexSet()
    for range in ranges where range.length > 0 {
      set.insert(integersIn: Int(range.location)..<Int(range.location + range.length))
    }
    return set
  }

  /// The form of `set`: its ranges.
  package init(_ set: IndexSet) {
    ranges = set.rangeView.map { .init(location: UInt64($0.lowerBound), length: UInt64($0.count)) }
  }
}

extension IndexSetForm {
  /// Writes the keyed form: the count, then one range inline or every range packed.
  package func write(to sink: inout some KeyedFormSink) {
    sink.inline(.integer(Int64(ranges.count)), forKey: FoundationKeys.nsRangeCount)
    if ranges.count == 1, let range = ranges.first {
      sink.inline(.integer(Int64(range.location)), forKey: FoundationKeys.nsIndexSetLocation)
      sink.inline(.integer(Int64(range.length)), forKey: FoundationKeys.nsIndexSetLength)
      return
    }
    let packed = PackedIntegers.encode(ranges.lazy.flatMap { [$0.location, $0.length] })
    sink.plain(.bytes(Data(packed)), forKey: FoundationKeys.nsRangeData)
  }
}
