import PropertyList

/// The strings and data of more than 64 bytes that a ``KeyedArchiveGraph`` read, by their object in the property
/// list, and the inline containers it materialised: one that several entries or fields refer to is read once and
/// shared (ARC-007: a 1 MiB payload behind 2,000 references costs 1 MiB). A reference type, so that the graph's
/// reads, which do not change the graph, keep them; a graph is read on one thread.
package final class SharedPayloads {
  private var values: [Int: PropertyListValue] = [:]
  /// The inline containers materialised, with the strings and data inside them (ARC-007, ARC-043).
  let materialisation = MaterialisationMemo(keepingValues: true)

  /// Nothing kept yet.
  package init() {}

  /// The value of object `object`, a string or data of `count` units, read by `read` unless it was read before.
  package func value(_ object: Int, count: Int, read: () throws -> PropertyListValue) rethrows -> PropertyListValue {
    // A smaller payload costs less to read again than to keep: the unarchiver's rule (ARC-007).
    guard count > KeyedUnarchiver.rereadPayloadLength else { return try read() }
    if let kept = values[object] { return kept }
    let value = try read()
    values[object] = value
    return value
  }
}
