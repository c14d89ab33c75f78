/// Counts over a document's object graph, with the definitions of the `keyed instantiate --stats` contract
/// (`Specs/XIBFormat.md`, XIB-060 to XIB-066).
public struct XIBStatistics: Sendable, Hashable, Codable {
  /// Objects created from the file: every object that is not a placeholder (constraints and layout guides
  /// included).
  public var objects: Int
  /// Placeholders: File's Owner, First Responder, Application, external objects, exits, controller placeholders.
  public var placeholders: Int
  /// Non-placeholder objects at the top of the graph (directly in `<objects>`; archive: in the root objects).
  public var topLevel: Int
  /// Outlet connections.
  public var outlets: Int
  /// Outlet-collection member connections (one per `outletCollection` element).
  public var outletCollections: Int
  /// Action connections.
  public var actions: Int
  /// Segues.
  public var segues: Int

  /// Creates statistics.
  public init(
    objects: Int, placeholders: Int, topLevel: Int, outlets: Int, outletCollections: Int, actions: Int, segues: Int
  ) {
    self.objects = objects
    self.placeholders = placeholders
    self.topLevel = topLevel
    self.outlets = outlets
    self.outletCollections = outletCollections
    self.actions = actions
    self.segues = segues
  }
}
