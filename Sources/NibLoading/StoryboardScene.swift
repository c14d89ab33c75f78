/// What a storyboard hands the controller of a scene it instantiated (``StoryboardSceneAdopting``): where the
/// controller came from, the options of the instantiation, and the scene's view, which the controller loads on
/// first access of its `view` (NIB-310, NIB-311).
public struct StoryboardScene {
  /// The storyboard.
  public let storyboard: Storyboard
  /// The scene's identifier (its storyboard identifier, or `<controller's UIKit class>-<controller id>`).
  public let identifier: String
  /// The options the scene was instantiated with: the controller loads its view and the scenes its segues lead to
  /// with them (so a trace sees the whole navigation).
  public let options: NibOptions
  /// The scene's view, or `nil` when the scene has none (a navigation or tab bar controller's).
  public let view: StoryboardSceneView?
}

/// A storyboard scene's view: the nib of the view and of what it reaches, whose File's Owner is the scene's
/// controller, as Apple's storyboard compiler writes it (`<controller id>-view-<view id>.nib`). The controller
/// instantiates it on first access of `view` (NIB-311).
public struct StoryboardSceneView {
  /// The view's nib.
  public let nib: Nib
  /// The objects of the controller's nib that the view's nib refers to, by the name of the placeholder that stands
  /// for each (`UpstreamPlaceholder-<id>`).
  public let externalObjects: [String: AnyObject]
  /// The nibs of the prototype cells of the view's table views, by the table view's document id.
  let prototypes: [(tableViewID: String, reuseIdentifier: String, nib: Nib)]

  init(
    nib: Nib, externalObjects: [String: AnyObject],
    prototypes: [(tableViewID: String, reuseIdentifier: String, nib: Nib)]
  ) {
    self.nib = nib
    self.externalObjects = externalObjects
    self.prototypes = prototypes
  }

  /// A scene's view from its nib and the objects of its controller's nib that the view's nib's upstream placeholders
  /// stand for, by the placeholders' names: what an Apple-compiled controller names (`UINibName`) and archives
  /// (`UIExternalObjectsTableForViewLoading`) (NIB-312).
  public init(nib: Nib, externalObjects: [String: AnyObject]) {
    self.init(nib: nib, externalObjects: externalObjects, prototypes: [])
  }

  /// Instantiates the view's nib with `owner` (the scene's controller) as File's Owner and the controller's objects
  /// as its upstream placeholders, and registers the prototype cells of its table views (NIB-102).
  /// - Returns: the instance; the `view` outlet of File's Owner is connected to the view.
  /// - Throws: what instantiating the nib throws.
  public func instantiate(owner: AnyObject, options: NibOptions) throws -> NibInstance {
    var options = options
    options.externalObjects.merge(externalObjects) { mine, _ in mine }
    let instance = try nib.instantiateGraph(owner: owner, options: options)
    if !prototypes.isEmpty {
      let objects = instance.objectsByID
      for prototype in prototypes {
        (objects[prototype.tableViewID] as? any PrototypeRegistering)?.register(
          prototype.nib, forCellReuseIdentifier: prototype.reuseIdentifier)
      }
    }
    return instance
  }
}
