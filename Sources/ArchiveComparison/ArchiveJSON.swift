import ArchiveCoding
import Foundation
import FoundationForms
import KeyedArchive
import PropertyList

/// A keyed archive's object graph as canonical JSON (CLI-011), read through the canonical walk
/// (``KeyedArchiveWalk``): Foundation classes as JSON values, other classes as `{"$class": …}` objects with
/// `$id`/`$ref` for objects reached more than once, `{"$cycle": N}` where a cycle of Foundation collections closes.
/// No class needs to be registered.
package enum ArchiveJSON {
  /// The member that names a class object's class in the output.
  package static let classMember = CanonicalMember.className
  /// The member that holds the top-level keys in the output when there are others than `root`: the archive's own
  /// name for them.
  package static let topMember = ArchiveKeys.top
  /// The most JSON values a graph may expand to: CLI-011's bound (``KeyedArchiveWalk/defaultValueLimit``).
  package static let defaultValueLimit = KeyedArchiveWalk.defaultValueLimit
  /// The most bytes of strings and data the JSON may hold, a shared string counting at every appearance.
  package static let defaultTextLimit = KeyedArchiveWalk.defaultTextLimit

  /// The graph of `archive` as canonical JSON, or `limitExceeded` when it would expand past `valueLimit` values
  /// (by default ``defaultValueLimit``, less for a small archive) or `textLimit` bytes of strings and data.
  package static func render(
    _ archive: KeyedArchiveGraph, pretty: Bool, valueLimit: Int? = nil, textLimit: Int = defaultTextLimit
  ) throws -> String {
    var walk = KeyedArchiveWalk(archive, valueLimit: valueLimit, textLimit: textLimit)
    var writer = CanonicalJSONWriter(pretty: pretty)
    try walk.visit(&writer)
    return writer.text
  }

  /// The graph of the archive `value` holds (written as a binary property list and read back) as canonical JSON.
  package static func render(
    _ value: PropertyListValue, pretty: Bool, valueLimit: Int? = nil, textLimit: Int = defaultTextLimit
  ) throws -> String {
    try render(archive(value), pretty: pretty, valueLimit: valueLimit, textLimit: textLimit)
  }

  /// The graph view of the archive `value` holds.
  package static func archive(_ value: PropertyListValue) throws -> KeyedArchiveGraph {
    try KeyedArchiveGraph(data: BinaryPropertyListWriter.write(value))
  }

  /// The graph of `archive` as canonical JSON nodes (what `keyed dump` without `--json` prints as a tree, and what
  /// the comparison walks).
  package static func graph(
    _ archive: KeyedArchiveGraph, valueLimit: Int? = nil, textLimit: Int = defaultTextLimit
  ) throws -> CanonicalJSON.Node {
    var walk = KeyedArchiveWalk(archive, valueLimit: valueLimit, textLimit: textLimit)
    var builder = CanonicalJSON.NodeBuilder()
    try walk.visit(&builder)
    return builder.root
  }

  /// The graph of the archive `value` holds as canonical JSON nodes.
  package static func graph(
    _ value: PropertyListValue, valueLimit: Int? = nil, textLimit: Int = defaultTextLimit
  ) throws -> CanonicalJSON.Node {
    try graph(archive(value), valueLimit: valueLimit, textLimit: textLimit)
  }
}
