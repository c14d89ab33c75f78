import FoundationForms

/// One difference between two archives, property lists, XIBs or nibs (ARC-170): where it is and what each side
/// has there, as canonical JSON.
public struct ArchiveDifference: Sendable, Hashable, CustomStringConvertible {
  /// The object and key the difference is at: `root.books[1].title` in an archive or property list (the path from
  /// the root), `titleLabel(bcv-lb-001).frame` in a XIB or nib (the object by its name and document id).
  public var path: String
  /// What the first input has at ``path``, as canonical JSON text; `nil` when it has nothing there.
  public var a: String?
  /// What the second input has at ``path``, as canonical JSON text; `nil` when it has nothing there.
  public var b: String?

  /// Creates a difference.
  /// - Parameters:
  ///   - path: where it is.
  ///   - a: what the first input has there (canonical JSON), or `nil`.
  ///   - b: what the second input has there (canonical JSON), or `nil`.
  public init(path: String, a: String?, b: String?) {
    self.path = path
    self.a = a
    self.b = b
  }

  /// The text standing for a side that has nothing at the path.
  public static let absent = "(absent)"

  /// `<path>: <what A has> -> <what B has>`, a missing side written as ``absent``.
  public var description: String { "\(path): \(a ?? Self.absent) -> \(b ?? Self.absent)" }

  /// `{"path": …, "a": …, "b": …}` in the canonical JSON, a missing side as `null`.
  package var json: CanonicalJSON.Node {
    .object([
      ("a", .raw(a ?? "null")), ("b", .raw(b ?? "null")), ("path", .raw(CanonicalJSON.string(path))),
    ])
  }
}
