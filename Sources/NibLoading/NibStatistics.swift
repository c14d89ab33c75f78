/// What one instantiation did, as `keyed instantiate --stats --json` prints it (CLI-031).
public struct NibStatistics: Sendable, Hashable, Codable {
  /// Objects created from the file (placeholders excluded).
  public var objects = 0
  /// Placeholders: File's Owner, First Responder, Application, external objects, exits, controller placeholders.
  public var placeholders = 0
  /// Top-level objects returned (placeholders excluded).
  public var topLevel = 0
  /// Outlets set.
  public var outlets = 0
  /// Outlet-collection members added.
  public var outletCollections = 0
  /// Actions connected.
  public var actions = 0
  /// Segues recorded.
  public var segues = 0
  /// Objects sent `awakeFromNib()`.
  public var awakened = 0

  /// Creates zeroed statistics.
  public init() {}
}
