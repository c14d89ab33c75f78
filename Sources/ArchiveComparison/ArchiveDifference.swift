import FoundationForms

/// One difference between two archives, property lists, XIBs or nibs (ARC-300, ARC-310): where it is, what kind of
/// difference it is, and what each side has there as a ``Value``.
public struct ArchiveDifference: Sendable, Hashable, CustomStringConvertible {
  /// The object and key the difference is at: `root.books[1].title` in an archive or property list (the path from
  /// the root; an element of an array by its index in the first input, or in the second for one only it has),
  /// `titleLabel(bcv-lb-001).frame` in a XIB or nib (the object by its name and document id).
  public var path: String
  /// What kind of difference it is.
  public var change: Change
  /// What the first input has at ``path``; `nil` when it has nothing there (ARC-302: absent is not `null`).
  public var old: Value?
  /// What the second input has at ``path`` (or at ``movedTo``); `nil` when it has nothing there.
  public var new: Value?
  /// For an element that moved (``Change/moved``): its path in the second input.
  public var movedTo: String?

  /// The kinds of difference.
  public enum Change: String, Sendable, Hashable {
    /// Both sides have a value at the path, and the values differ.
    case changed
    /// Only the second input has a value at the path.
    case added
    /// Only the first input has a value at the path.
    case removed
    /// An element of an array is at another index in the second input (``movedTo``), equal there or with its own
    /// differences listed after this one.
    case moved
    /// The two inputs share objects differently: one side meets again an object the other meets for the first time
    /// (a side met before is `{"$ref": "<path of the first meeting>"}`, a side met first `{"$class": "<class>"}`).
    case sharing
  }

  /// What one side has at a path.
  public struct Value: Sendable, Hashable, CustomStringConvertible {
    /// What kind of value it is.
    public var kind: Kind
    /// The class the value was archived as, when it says one: a class object's `$classname`, the Foundation
    /// class of a Foundation value (`NSTimeZone`, `NSUUID`, …), `NSAttributedString`; `nil` for plain values and
    /// collections.
    public var className: String?
    /// The value in the canonical JSON (`keyed dump --json`'s form).
    public var json: String

    /// The kinds of value.
    public enum Kind: String, Sendable, Hashable {
      /// `null`: nil, `$null`.
      case null
      /// A Boolean.
      case boolean
      /// A number.
      case number
      /// A string.
      case string
      /// Bytes.
      case data
      /// A date.
      case date
      /// A Foundation value compared by meaning (a time zone, a locale, a measurement, geometry, …).
      case foundationValue
      /// An array, a set or an ordered set.
      case collection
      /// A dictionary.
      case dictionary
      /// An object of a class (``Value/className``).
      case object
      /// An object met before, by the path where it was first met.
      case reference
      /// Another value, known by its canonical JSON only.
      case other
    }

    /// Creates a value.
    /// - Parameters:
    ///   - kind: what kind of value it is.
    ///   - className: the class it was archived as, when it says one.
    ///   - json: the value in the canonical JSON.
    public init(kind: Kind, className: String? = nil, json: String) {
      self.kind = kind
      self.className = className
      self.json = json
    }

    /// The canonical JSON.
    public var description: String { json }
  }

  /// Creates a difference.
  /// - Parameters:
  ///   - path: where it is.
  ///   - change: what kind of difference it is.
  ///   - old: what the first input has there, or `nil`.
  ///   - new: what the second input has there, or `nil`.
  ///   - movedTo: for a moved element, its path in the second input.
  public init(path: String, change: Change, old: Value?, new: Value?, movedTo: String? = nil) {
    self.path = path
    self.change = change
    self.old = old
    self.new = new
    self.movedTo = movedTo
  }

  /// What the first input has at ``path``, as canonical JSON text; `nil` when it has nothing there.
  public var a: String? { old?.json }
  /// What the second input has at ``path``, as canonical JSON text; `nil` when it has nothing there.
  public var b: String? { new?.json }

  /// The text standing for a side that has nothing at the path.
  public static let absent = "(absent)"

  /// `<path>: <what A has> -> <what B has>`, a missing side written as ``absent``; a moved element as
  /// `<path>: <value> -> (moved to <path in B>)`.
  public var description: String {
    if let movedTo { return "\(path): \(a ?? Self.absent) -> (moved to \(movedTo))" }
    return "\(path): \(a ?? Self.absent) -> \(b ?? Self.absent)"
  }

  /// `{"path": …, "a": …, "b": …}` in the canonical JSON, a missing side as `null`; a moved element adds
  /// `"movedTo"`.
  package var json: CanonicalJSON.Node {
    var members: [(String, CanonicalJSON.Node)] = [
      ("a", .raw(a ?? "null")), ("b", .raw(b ?? "null")),
    ]
    if let movedTo { members.append(("movedTo", .raw(CanonicalJSON.string(movedTo)))) }
    members.append(("path", .raw(CanonicalJSON.string(path))))
    return .object(members)
  }
}
