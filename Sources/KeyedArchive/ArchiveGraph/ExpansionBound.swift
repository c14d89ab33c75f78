import ArchiveCoding
import ArchiveSupport
import PropertyList

/// What a property list read from a file may expand to before `dump` and `convert` write it out (CLI-032).
///
/// A binary property list refers to its objects by number, so one string or container can appear any number of
/// times: the reader keeps one copy (objects own their bytes, and a shared one is materialised once), but writing
/// the list out repeats it at every appearance. 20,000 references to one 1 MB string are a 1 MB file and 20 GB of
/// XML. The walk below counts what the writers would write, and stops at the first bound it passes.
package enum ExpansionBound {
  /// The most values written: about what the canonical JSON's nodes hold in a few gigabytes.
  package static let maxValues = 20_000_000
  /// The most bytes of strings and data written, a shared one counting at every appearance.
  package static let maxTextBytes = 512 << 20
  /// The deepest nesting of objects a rendering follows (CLI-011, CLI-013): each level is a nested JSON object or
  /// an indented line, and a file can chain objects far deeper (a 2 MB nib chains 200,000).
  package static let maxDepth = 2000

  /// Throws `limitExceeded`, naming the object, when a rendering reaches `depth` past ``maxDepth`` or when the
  /// thread's stack runs low (`stack` was made where the rendering started).
  package static func checkDepth(_ depth: Int, stack: StackGuard, objectIndex: Int, className: String?) throws {
    guard depth <= maxDepth, stack.hasRoom() else {
      throw ArchiveError(
        .limitExceeded, "objects nest deeper than \(maxDepth) or than this thread's stack allows",
        at: .init(objectIndex: objectIndex, className: className))
    }
  }

  /// Throws `limitExceeded` when `value` expands past `maxValues` values or `maxTextBytes` bytes of text and data.
  package static func check(
    _ value: PropertyListValue, maxValues: Int = maxValues, maxTextBytes: Int = maxTextBytes
  ) throws {
    _ = try measure(value, maxValues: maxValues, maxTextBytes: maxTextBytes)
  }

  /// Throws `limitExceeded` as ``check(_:maxValues:maxTextBytes:)`` does, for what a property list read in place
  /// writes (``PropertyListTranscoder/measure()``).
  package static func check(
    _ expansion: PropertyListTranscoder.Expansion, maxValues: Int = maxValues, maxTextBytes: Int = maxTextBytes
  ) throws {
    if expansion.values > maxValues { throw valuesExceeded(maxValues) }
    if expansion.bytes > maxTextBytes { throw bytesExceeded(maxTextBytes) }
  }

  private static func valuesExceeded(_ maxValues: Int) -> ArchiveError {
    ArchiveError(
      .limitExceeded,
      "the property list expands to more than \(maxValues) values when written out (a shared container is "
        + "written in full wherever it appears)")
  }

  private static func bytesExceeded(_ maxTextBytes: Int) -> ArchiveError {
    ArchiveError(
      .limitExceeded,
      "the property list expands to more than \(maxTextBytes) bytes of strings and data when written out (a "
        + "shared string is written in full wherever it appears)")
  }

  /// The values and the bytes of strings and data (dictionary keys included) that writing `value` writes, each
  /// shared part counted at every appearance; `limitExceeded` as soon as either passes its bound.
  package static func measure(
    _ value: PropertyListValue, maxValues: Int = maxValues, maxTextBytes: Int = maxTextBytes
  ) throws -> (values: Int, bytes: Int) {
    var pending = [value]
    var values = 0
    var bytes = 0
    while let next = pending.popLast() {
      values += 1
      switch next {
      case .string(let text): bytes += text.utf8.count
      case .data(let data): bytes += data.count
      case .array(let elements), .set(let elements): pending += elements
      case .dictionary(let dictionary):
        for entry in dictionary.entries { pending += [entry.key, entry.value] }
      default: break
      }
      guard values <= maxValues else { throw valuesExceeded(maxValues) }
      guard bytes <= maxTextBytes else { throw bytesExceeded(maxTextBytes) }
    }
    return (values, bytes)
  }
}
