import ArchiveCoding
import KeyedArchive

/// The bound on what a view of a stream expands to (TS-066): a shared string, class or Foundation value is
/// written in full wherever it appears, so a small stream can stand for a large view.
package struct TypedstreamViewBudget {
  private let maxValues: Int
  private let maxBytes: Int
  private var values: Int
  private var bytes: Int

  /// A budget of `maxValues` JSON values and `maxBytes` bytes of text and data.
  package init(maxValues: Int = ExpansionBound.maxValues, maxBytes: Int = ExpansionBound.maxTextBytes) {
    self.maxValues = maxValues
    self.maxBytes = maxBytes
    values = maxValues
    bytes = maxBytes
  }

  /// Counts one value and `text` bytes of strings or data; `limitExceeded` past either bound.
  package mutating func spend(_ text: Int = 0) throws {
    values -= 1
    bytes -= text
    guard values >= 0, bytes >= 0 else {
      throw ArchiveError(
        .limitExceeded,
        "the stream's JSON view passes \(maxValues) values or \(maxBytes) bytes of text (a shared value is written "
          + "in full wherever it appears)")
    }
  }
}
