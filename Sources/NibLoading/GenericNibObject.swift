import ArchiveCoding

/// The stand-in for an object whose class (and base class) is not registered: it keeps its class name and
/// accepts every key and action, so a nib always loads (NIB-020). Also the default owner of `keyed instantiate`.
public final class GenericNibObject: Coding, KeyValueCoding, ActionResponding, NibAwaking, ActionSending, SegueSource {
  /// The class the document asked for.
  public let className: String
  /// Values set through key-value coding (outlets, runtime attributes).
  public private(set) var values: [String: Any] = [:]
  /// Actions connected to this object as a control.
  public private(set) var targets: [(target: AnyObject?, action: String, events: UInt64?)] = []
  /// Segues recorded from this object.
  public private(set) var segues: [(identifier: String?, kind: String)] = []
  /// How many times `awakeFromNib()` was sent.
  package private(set) var awakeCount = 0

  /// Creates a stand-in for a class name.
  public init(className: String) { self.className = className }

  /// Decodes nothing: the fields stay in the document.
  public required init(coder: any DecodingCoder) throws {
    className = (coder as? NibObjectCoder)?.className ?? "NSObject"
  }

  /// Encodes nothing.
  public func encode(with coder: any EncodingCoder) {}

  /// No declared keys: every key goes through `setValue(_:forUndefinedKey:)`.
  public static var keyValueAccessors: [String: KeyValueAccessor] { [:] }

  /// Stores the value.
  public func setValue(_ value: Any?, forUndefinedKey key: String) throws { values[key] = value }

  /// Returns the stored value.
  public func value(forUndefinedKey key: String) throws -> Any? { values[key] }

  /// Accepts every action.
  public func responds(toAction action: String) -> Bool { true }

  /// Counts the call.
  public func awakeFromNib() { awakeCount += 1 }

  /// Records the target.
  public func addTarget(_ target: AnyObject?, action: String, for events: UInt64?) {
    targets.append((target, action, events))
  }

  /// Records the segue.
  public func addSegue(identifier: String?, kind: String, destination: AnyObject?) {
    segues.append((identifier, kind))
  }
}
