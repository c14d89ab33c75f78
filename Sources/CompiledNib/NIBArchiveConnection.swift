/// A connection record of a nib: an outlet, an outlet collection, an action, a binding or another connector
/// (rules NIBA-025, NIBA-026).
public struct NIBArchiveConnection: Hashable, Sendable {
  /// What a connection does, decided by its class name (rule NIBA-025).
  ///
  /// An open set of named kinds, so that new kinds can be added without breaking `switch` statements.
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    /// The kind's name, such as `"outlet"`.
    public let name: String
    /// Creates a kind with the given name.
    public init(_ name: String) { self.name = name }
    /// The kind's name.
    public var description: String { name }

    /// Sets property `label` of `source` to `destination`: `UIRuntimeOutletConnection`, `NSNibOutletConnector`.
    public static let outlet = Kind("outlet")
    /// Sets property `label` of `source` to the array `destination`: `UIRuntimeOutletCollectionConnection`.
    public static let outletCollection = Kind("outletCollection")
    /// Sends action `label` from control `source` to target `destination` (nil: first responder):
    /// `UIRuntimeEventConnection` (with an event mask), `NSNibControlConnector`.
    public static let action = Kind("action")
    /// A Cocoa binding: `NSNibBindingConnector`.
    public static let binding = Kind("binding")
    /// Any other connection class (`NSNibConnector`, `NSIBHelpConnector`, runtime-attribute connectors, …).
    public static let other = Kind("other")
  }

  /// The kind, from the class name or, when that is not a known connection class, its first known fallback.
  public var kind: Kind
  /// The index of the connection object itself.
  public var objectIndex: Int
  /// The connection object's class name.
  public var className: String
  /// The source object (`UISource` / `NSSource`), `nil` when absent or nil.
  public var source: Int?
  /// The destination object (`UIDestination` / `NSDestination`), `nil` when absent or nil; for an outlet
  /// collection, the array of collected objects.
  public var destination: Int?
  /// The outlet or action name (`UILabel` / `NSLabel`), `nil` when absent or nil.
  public var label: String?
  /// The control events of a `UIRuntimeEventConnection` (`UIEventMask`, e.g. 64 for touch-up-inside).
  public var eventMask: Int64?

  /// Creates a connection record.
  /// - Parameters:
  ///   - kind: what the connection does.
  ///   - objectIndex: the connection object's index.
  ///   - className: the connection object's class name.
  ///   - source: the source object's index.
  ///   - destination: the destination object's index.
  ///   - label: the outlet or action name.
  ///   - eventMask: the control events of an event connection.
  public init(
    kind: Kind, objectIndex: Int, className: String, source: Int?, destination: Int?, label: String?,
    eventMask: Int64?
  ) {
    self.kind = kind
    self.objectIndex = objectIndex
    self.className = className
    self.source = source
    self.destination = destination
    self.label = label
    self.eventMask = eventMask
  }
}
