/// One scene of a storyboard: a controller and the other objects that live beside it.
public struct XIBScene: Sendable, Hashable {
  /// The scene's `sceneID`.
  public var sceneID: String
  /// The ids of the objects listed directly in the scene's `<objects>`, placeholders included, in document order.
  public var objectIDs: [String]
  /// The id of the scene's controller (the object with `sceneMemberID="viewController"`), if any.
  public var controllerID: String?
  /// The controller's `storyboardIdentifier`, used to instantiate it by name.
  public var storyboardIdentifier: String?
  /// The 1-based line of the `<scene>` element.
  public var line: Int
  /// The 1-based column of the `<scene>` element.
  public var column: Int

  /// Creates a scene.
  public init(
    sceneID: String, objectIDs: [String], controllerID: String?, storyboardIdentifier: String?, line: Int = 0,
    column: Int = 0
  ) {
    self.sceneID = sceneID
    self.objectIDs = objectIDs
    self.controllerID = controllerID
    self.storyboardIdentifier = storyboardIdentifier
    self.line = line
    self.column = column
  }
}
