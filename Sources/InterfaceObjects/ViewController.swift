import ArchiveCoding
import Foundation
import NibLoading

/// A controller that owns a root view, in the role of `UIViewController` / `NSViewController`.
///
/// Its view is made on first access of ``view``, as UIKit makes it: ``loadView()`` loads the view (from the
/// storyboard scene's view nib, or from the nib named ``nibName``, with the controller as File's Owner, its outlets
/// connected; else an empty view), the embed segues of the view's container views are performed, then
/// ``viewDidLoad()`` runs, once. A storyboard's segue prepares its destination (``prepare(for:sender:)``) before the
/// destination's view loads. ``viewWillAppear(_:)``, ``viewDidAppear(_:)``, ``viewWillDisappear(_:)`` and
/// ``viewDidDisappear(_:)`` follow what the controller's containers and presenters do with it (NIB-310 to NIB-316).
open class ViewController: Responder, SegueSource, StoryboardSceneAdopting {
  private var loadedView: View?
  /// The nib the view is loaded from.
  public var nibName: String?
  /// Where ``nibName`` is looked up: when `nil`, the resources of the controller's module, else its binary's bundle
  /// (`NibBundle(for:)`).
  public var nibBundle: NibBundle?
  /// The title.
  public var title: String? {
    willSet { propertyWillChange("title") }
    didSet { propertyDidChange("title") }
  }
  /// The storyboard identifier.
  public var storyboardIdentifier: String?
  /// Segues recorded from this controller.
  public var segues: [(identifier: String?, kind: String, destination: AnyObject?)] {
    recordedSegues.map { ($0.template.identifier, $0.template.kind, $0.destination) }
  }
  /// The segues recorded from this controller as the storyboard declares them (NIB-130).
  public var segueTemplates: [SegueTemplate] { recordedSegues.map(\.template) }
  private var recordedSegues: [(template: SegueTemplate, destination: AnyObject?)] = []
  /// The storyboard the controller came from (a ``/NibLoading/Storyboard``, or the object a compiled storyboard's
  /// outlet sets).
  public var storyboard: AnyObject? {
    willSet { propertyWillChange("storyboard") }
    didSet { propertyDidChange("storyboard") }
  }
  /// The identifier of the storyboard scene the controller came from.
  public private(set) var sceneIdentifier: String?
  /// The scene's view, until the view loads from it (NIB-311).
  private var sceneView: StoryboardSceneView?
  /// Whether a storyboard instantiated the controller: its view comes from the scene (or is made empty), never from
  /// a nib found by name.
  private var isSceneController = false
  /// What an Apple-compiled controller hands its view's nib for its upstream placeholders
  /// (`UIExternalObjectsTableForViewLoading`), the controller itself left out (it is named in ``upstreamSelf``, so
  /// that the controller does not hold itself).
  private var upstreamObjects: [String: AnyObject] = [:]
  /// The upstream placeholders of the view's nib that stand for the controller itself.
  private var upstreamSelf: [String] = []
  /// The controller this one presents (through a segue or ``present(_:)``).
  public internal(set) var presentedViewController: ViewController?
  /// The controller that presents this one.
  public internal(set) weak var presentingViewController: ViewController?
  /// The child controllers (embed and relationship segues, ``addChild(_:)``).
  public private(set) var children: [ViewController] = []
  /// The controller this one is a child of.
  public private(set) weak var parent: ViewController?
  /// The navigation item (an outlet).
  public var navigationItem: AnyObject? {
    willSet { propertyWillChange("navigationItem") }
    didSet { propertyDidChange("navigationItem") }
  }
  /// The tab bar item (an outlet).
  public var tabBarItem: AnyObject? {
    willSet { propertyWillChange("tabBarItem") }
    didSet { propertyDidChange("tabBarItem") }
  }
  /// How many times `viewDidLoad()` was called.
  public private(set) var viewDidLoadCount = 0
  /// Whether the view came with the controller (a nib that archives it inline) and `viewDidLoad()` is still to run
  /// on its first access (NIB-310).
  private var viewDidLoadPending = false
  /// Where the controller is in its appearance (NIB-314).
  var appearance = Appearance.disappeared

  /// The options of the view's nib instantiation: its warnings go to standard error unless `nibOptions.warning`
  /// collects or silences them (NIB-103); a load error goes to `nibOptions.failureReport` (NIB-330); its `trace`
  /// sees the controller's life-cycle calls (NIB-316). A storyboard gives its scenes' controllers the options they
  /// were instantiated with.
  public var nibOptions = NibOptions()
  /// Why loading the view failed, or `nil` (NIB-098, NIB-330).
  public private(set) var viewLoadError: (any Error)?

  /// Creates a controller whose view is loaded on first access from the nib named `nibName` (or, when `nil`, from a
  /// nib named after the controller's class, when there is one), in `nibBundle` (or, when `nil`, the resources of the
  /// controller's module).
  public init(nibName: String? = nil, nibBundle: NibBundle? = nil) {
    self.nibName = nibName
    self.nibBundle = nibBundle
    super.init()
  }

  /// Creates a controller whose view is loaded on first access from the nib named `nibName` in a Foundation
  /// bundle, as `UIViewController(nibName:bundle:)` does (NIB-098).
  /// - Parameters:
  ///   - nibName: the nib's name; `nil` looks for a nib named after the controller's class, and makes an empty
  ///     view (or the one ``loadView()`` builds) when the bundle has none.
  ///   - bundle: the bundle; `nil` is the resources of the controller's module (`Bundle.module` of the module that
  ///     defines the class), else its binary's bundle.
  public init(nibName: String?, bundle: Bundle?) {
    self.nibName = nibName
    self.nibBundle = bundle.map { NibBundle(bundle: $0) }
    super.init()
  }

  /// Reads `view` (`UIView`), `title`, `storyboardIdentifier`, `nibName`, `navigationItem` (`UINavigationItem`),
  /// `tabBarItem` (`UITabBarItem`), and the child controllers a compiled storyboard archives in a container
  /// (`UIChildViewControllers`: a navigation controller's stack).
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    title = try coder.string(["title", "UITitle"])
    storyboardIdentifier = try coder.string(["storyboardIdentifier", "UIStoryboardIdentifier"])
    nibName = try coder.string(["nibName", "UINibName"])
    if let key = coder.firstKey(["view", "UIView", "NSView"]), let view = try coder.decodeObject(forKey: key) as? View {
      setView(view)
      viewDidLoadPending = true
    }
    if let key = coder.firstKey(["navigationItem", "UINavigationItem"]) {
      navigationItem = try coder.decodeObject(forKey: key) as AnyObject?
    }
    if let key = coder.firstKey(["tabBarItem", "UITabBarItem"]) {
      tabBarItem = try coder.decodeObject(forKey: key) as AnyObject?
    }
    for child in try coder.objects(["UIChildViewControllers"], of: ViewController.self) { addChild(child) }
    // The table names the controller itself: it is read once the controller exists (NIB-312).
    if coder.containsValue(forKey: "UIExternalObjectsTableForViewLoading") {
      try coder.decodeDeferred(forKey: "UIExternalObjectsTableForViewLoading", allowedClasses: nil) { owner, value in
        (owner as? ViewController)?.keepUpstreamObjects(value as? [String: Any] ?? [:])
      }
    }
  }

  private func keepUpstreamObjects(_ table: [String: Any]) {
    for (name, value) in table {
      guard Swift.type(of: value) is AnyClass else { continue }
      let object = value as AnyObject
      if object === self { upstreamSelf.append(name) } else { upstreamObjects[name] = object }
    }
  }

  /// The root view, made on first access: ``loadView()``, then the embed segues of its container views, then
  /// ``viewDidLoad()`` (NIB-310); a view a nib archived with the controller gets its embed segues and
  /// ``viewDidLoad()`` on first access too. A load failure leaves an empty view, kept in ``viewLoadError`` and
  /// reported once (NIB-330).
  public var view: View {
    get {
      guard let loadedView else { return makeView() }
      if viewDidLoadPending { finishLoading(loadedView) }
      return loadedView
    }
    set { setView(newValue) }
  }

  /// `true` once the view exists.
  public var isViewLoaded: Bool { loadedView != nil }

  private func setView(_ view: View?) {
    loadedView?.owningViewController = nil
    loadedView = view
    view?.owningViewController = self
  }

  /// Makes the view: ``loadView()``, an empty view when it made none, the embed segues, ``viewDidLoad()``.
  private func makeView() -> View {
    trace("loadView")
    loadView()
    let view = loadedView ?? View(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    if loadedView == nil { setView(view) }
    finishLoading(view)
    return view
  }

  /// Ends loading the view: the embed segues, then ``viewDidLoad()``.
  private func finishLoading(_ view: View) {
    viewDidLoadPending = false
    performEmbedSegues(in: view)
    trace("viewDidLoad")
    viewDidLoadCount += 1
    viewDidLoad()
  }

  /// Reports a life-cycle call to the trace (NIB-316).
  func trace(_ call: String) { nibOptions.trace?(.lifecycle(controller: traceName, call: call)) }

  /// The controller as a trace names it: its storyboard identifier, else its scene's, else its class.
  var traceName: String { storyboardIdentifier ?? sceneIdentifier ?? "\(type(of: self))" }

  /// Loads the view if it is not loaded yet, reporting a failure (UIKit's `loadViewIfNeeded()`).
  /// - Throws: what loading the nib threw (``viewLoadError``), or ``/ArchiveCoding/ArchiveError`` (`connectionFailed`)
  ///   when the nib did not connect the `view` outlet (NIB-098).
  public func loadViewIfNeeded() throws {
    _ = view
    if let viewLoadError { throw viewLoadError }
  }

  /// Loads the view: a storyboard scene's view nib, else the nib named ``nibName`` (or after the class), with the
  /// controller as File's Owner; override to build the view in code (set ``view``). A failure is kept in
  /// ``viewLoadError`` (the view is then empty) and reported by ``loadViewIfNeeded()``.
  open func loadView() {
    if let sceneView {
      // The upstream objects are released once the view is loaded.
      self.sceneView = nil
      load("the view of the storyboard scene \"\(sceneIdentifier ?? "?")\"") {
        _ = try sceneView.instantiate(owner: self, options: nibOptions)
      }
      return
    }
    // An Apple-compiled controller's view is in a nib of its storyboard's folder (NIB-312).
    if let storyboard = storyboard as? Storyboard, let nibName {
      var objects = upstreamObjects
      for name in upstreamSelf { objects[name] = self }
      load("the view nib \"\(nibName)\" of its storyboard") {
        _ = try StoryboardSceneView(nib: try storyboard.viewNib(named: nibName), externalObjects: objects)
          .instantiate(owner: self, options: nibOptions)
      }
      return
    }
    guard !isSceneController else { return }
    let bundle = nibBundle ?? NibBundle(for: type(of: self))
    let className = String(describing: type(of: self))
    let name: String
    if let nibName {
      name = nibName
    } else {
      guard (try? bundle.url(forNibNamed: className)) != nil else { return }
      name = className
    }
    load("the nib \"\(name)\"") {
      _ = try bundle.loadNibNamed(name, owner: self, options: nibOptions)
    }
  }

  /// Runs `body`, which loads the view from `what`, keeping what goes wrong in ``viewLoadError`` and reporting it
  /// once (NIB-330).
  private func load(_ what: String, _ body: () throws -> Void) {
    do {
      try body()
      if loadedView == nil {
        viewLoadError = ArchiveError(
          .connectionFailed, "\(type(of: self)) loaded \(what) but its \"view\" outlet was not connected")
      }
    } catch {
      viewLoadError = error
      loadedView = nil
    }
    if let viewLoadError {
      nibOptions.reportLoadFailure("\(type(of: self)) could not load its view from \(what): \(viewLoadError)")
    }
  }

  /// Called once after the view is loaded: `nibName`'s outlets are connected, the embed segues performed, and a
  /// segue that led here has prepared the controller.
  open func viewDidLoad() {}

  /// Called before the view goes on screen: pushed, presented, selected in a tab bar, made a window's root, or
  /// uncovered by a pop or a dismissal (NIB-314).
  open func viewWillAppear(_ animated: Bool) {}

  /// Called once the view is on screen (NIB-314).
  open func viewDidAppear(_ animated: Bool) {}

  /// Called before the view leaves the screen: covered by a push or a presentation, popped, dismissed, or another tab
  /// selected (NIB-314).
  open func viewWillDisappear(_ animated: Bool) {}

  /// Called once the view has left the screen (NIB-314).
  open func viewDidDisappear(_ animated: Bool) {}

  /// The children that go on and off screen with this controller: all of them (embedded children). A navigation
  /// controller shows its top controller, a tab bar controller its selected one (NIB-314).
  var appearingChildren: [ViewController] { children }

  /// Records a segue.
  public func addSegue(identifier: String?, kind: String, destination: AnyObject?) {
    addSegue(SegueTemplate(identifier: identifier, kind: kind), destination: destination)
  }

  /// Records a segue with its unwind action and document id (NIB-130).
  public func addSegue(_ template: SegueTemplate, destination: AnyObject?) {
    recordedSegues.append((template, destination))
  }

  /// Keeps the storyboard, the scene and its view (loaded on first access of ``view``, NIB-311) and the options
  /// the scene was instantiated with, then performs the relationship segues that load with the scene, as UIKit does
  /// (a navigation controller's root, a tab bar controller's tabs, a split view controller's columns) (NIB-137).
  /// - Throws: what instantiating those segues' destinations throws.
  public func adoptStoryboardScene(_ scene: StoryboardScene) throws {
    storyboard = scene.storyboard
    sceneIdentifier = scene.identifier
    nibOptions = scene.options
    isSceneController = true
    if loadedView == nil { sceneView = scene.view }
    for (template, destination) in recordedSegues where template.kind == SegueTemplate.relationshipKind {
      try perform(template, destination: destination, sender: nil)
    }
  }

  /// Performs the embed segues that load with the view: the controller's own, then those of the view's container
  /// views (depth first), each adding its destination as a child whose view goes into the container (NIB-313). A
  /// failure is kept in ``viewLoadError``.
  private func performEmbedSegues(in view: View) {
    var embeds = recordedSegues.filter { $0.template.kind == SegueTemplate.embedKind }.map {
      (container: view, template: $0.template, destination: $0.destination)
    }
    embeds += view.embedSegues()
    for embed in embeds {
      do {
        try perform(embed.template, destination: embed.destination, sender: nil, container: embed.container)
      } catch {
        if viewLoadError == nil { viewLoadError = error }
        let name = embed.template.identifier ?? embed.template.id ?? "?"
        nibOptions.reportLoadFailure(
          "\(type(of: self)) could not perform the embed segue \"\(name)\" of its view: \(error)")
      }
    }
  }

  /// Whether a segue triggered by the user (``triggerSegue(withIdentifier:sender:)``) may go ahead: `true` unless
  /// overridden.
  open func shouldPerformSegue(withIdentifier identifier: String, sender: Any?) -> Bool { true }

  /// Called before a segue from this controller is performed, with the new destination, before the destination's
  /// view loads: pass it what it needs, and apply it in the destination's `viewDidLoad()`.
  open func prepare(for segue: StoryboardSegue, sender: Any?) {}

  /// Performs a segue of this controller's storyboard scene, as UIKit's `performSegue(withIdentifier:sender:)`:
  /// instantiates the destination (a scene of the storyboard, or of a storyboard a reference names), calls
  /// ``prepare(for:sender:)``, then performs the segue (NIB-100).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`valueNotFound`) when the controller has no segue of that identifier to
  ///   a view controller, or what loading the destination threw.
  ///
  /// An unwind segue walks back up from this controller to the first controller that declares its unwind action
  /// (NIB-132).
  public func performSegue(withIdentifier identifier: String, sender: Any?) throws {
    let recorded = recordedSegues.first { $0.template.identifier == identifier }
    try perform(
      recorded?.template ?? SegueTemplate(identifier: identifier, kind: "show"), destination: recorded?.destination,
      sender: sender)
  }

  /// Performs a segue as the storyboard declares it: an unwind segue unwinds (NIB-132); any other goes to
  /// `recorded` when the scene holds its destination, else to the destination the storyboard instantiates for its
  /// identifier or document id. An embed segue puts the destination's view in `container`.
  package func perform(
    _ template: SegueTemplate, destination recorded: AnyObject?, sender: Any?, container: View? = nil
  ) throws {
    if template.isUnwind { return try unwind(template, sender: sender) }
    let name = template.identifier ?? template.id ?? ""
    // A segue to the controller's own scene leads to a fresh instance of it, as in UIKit.
    var destination = recorded as? ViewController
    if destination === self { destination = nil }
    if destination == nil, let storyboard = storyboard as? Storyboard, let sceneIdentifier {
      destination =
        try storyboard.instantiateDestination(of: template, fromScene: sceneIdentifier, options: nibOptions)
        as? ViewController
    }
    guard let destination else {
      let known = segues.compactMap(\.identifier)
      throw ArchiveError(
        .valueNotFound,
        "\(type(of: self)) has no segue \"\(name)\" to a view controller (its segues: \(known.isEmpty ? "none" : known.joined(separator: ", ")))",
        at: .init(className: "\(type(of: self))", keyPath: name))
    }
    let segue = StoryboardSegue(
      identifier: template.identifier, kind: template.kind, source: self, destination: destination,
      container: container)
    // UIKit prepares every segue but a relationship.
    if template.kind != SegueTemplate.relationshipKind {
      trace("prepare(for: \(template.identifier.map { "\"\($0)\"" } ?? template.kind)) → \(destination.traceName)")
      prepare(for: segue, sender: sender)
    }
    segue.perform(sender: sender)
  }

  /// Performs a segue the user triggered (a control's tap, in UIKit): asks
  /// ``shouldPerformSegue(withIdentifier:sender:)`` first (NIB-100).
  /// - Returns: `true` when the segue was performed.
  /// - Throws: what ``performSegue(withIdentifier:sender:)`` throws.
  @discardableResult
  public func triggerSegue(withIdentifier identifier: String, sender: Any?) throws -> Bool {
    guard shouldPerformSegue(withIdentifier: identifier, sender: sender) else { return false }
    try performSegue(withIdentifier: identifier, sender: sender)
    return true
  }

  /// The nearest navigation controller among the controllers this one is a child of, or `nil`.
  public var navigationController: NavigationController? { ancestor(of: NavigationController.self) }

  /// The nearest tab bar controller among the controllers this one is a child of, or `nil`.
  public var tabBarController: TabBarController? { ancestor(of: TabBarController.self) }

  /// The nearest split view controller among the controllers this one is a child of, or `nil`.
  public var splitViewController: SplitViewController? { ancestor(of: SplitViewController.self) }

  private func ancestor<T: ViewController>(of type: T.Type) -> T? {
    var current = parent
    while let controller = current {
      if let found = controller as? T { return found }
      current = controller.parent
    }
    return nil
  }

  /// Shows another controller as UIKit's `show(_:sender:)` does (what a `show` segue does): pushes it onto the
  /// navigation stack this controller is in (or that it is), else presents it (NIB-137).
  open func show(_ controller: ViewController, sender: Any?) {
    if let navigation = self as? NavigationController ?? navigationController {
      navigation.pushViewController(controller)
    } else {
      present(controller)
    }
  }

  /// Adds a child controller (what an `embed` segue does); a child added to a controller on screen appears
  /// (NIB-314).
  public func addChild(_ controller: ViewController) {
    controller.removeFromParent()
    children.append(controller)
    controller.parent = self
    if isOnScreen, appearingChildren.contains(where: { $0 === controller }) { controller.appear() }
  }

  /// Leaves the controller this one is a child of; a child on screen disappears (NIB-314).
  public func removeFromParent() {
    guard let parent else { return }
    if isOnScreen { disappear() }
    parent.children.removeAll { $0 === self }
    self.parent = nil
  }

  /// Puts `controller` at `index` of the children (a container's own order: a navigation stack, a tab bar's tabs),
  /// without appearance calls.
  func placeChild(_ controller: ViewController, at index: Int) {
    if controller.parent !== self {
      controller.removeFromParent()
      controller.parent = self
    } else {
      children.removeAll { $0 === controller }
    }
    children.insert(controller, at: min(index, children.count))
  }

  /// Takes `controller` out of the children without appearance calls.
  func dropChild(_ controller: ViewController) {
    guard controller.parent === self else { return }
    children.removeAll { $0 === controller }
    controller.parent = nil
  }

  /// `view`, `title`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "view": .custom(
          ViewController.self, get: { $0.loadedView },
          set: { controller, value in controller.setView(value as? View) }),
        "title": .observedProperty(\ViewController.title), "storyboard": .observedProperty(\ViewController.storyboard),
        "navigationItem": .observedProperty(\ViewController.navigationItem),
        "tabBarItem": .observedProperty(\ViewController.tabBarItem),
      ], uniquingKeysWith: { $1 })
  }
}

/// A window, in the role of `UIWindow` / `NSWindow`.
open class Window: View {
  /// The root view controller (an outlet). Its view goes into the window; on a key window, the old root goes off
  /// screen and the new one on (NIB-315).
  public var rootViewController: ViewController? {
    willSet { propertyWillChange("rootViewController") }
    didSet {
      propertyDidChange("rootViewController")
      guard oldValue !== rootViewController else { return }
      if let view = rootViewController?.view { addSubview(view) }
      if isKeyWindow { ViewController.transition(from: oldValue, to: rootViewController) }
    }
  }
  /// The window's delegate (an outlet).
  public weak var delegate: AnyObject? {
    willSet { propertyWillChange("delegate") }
    didSet { propertyDidChange("delegate") }
  }
  /// The view that gets focus first (an outlet).
  public weak var initialFirstResponder: View? {
    willSet { propertyWillChange("initialFirstResponder") }
    didSet { propertyDidChange("initialFirstResponder") }
  }
  /// Whether the window was made key and visible.
  public private(set) var isKeyWindow = false

  /// Creates a window in code.
  public override init(frame: Rect) { super.init(frame: frame) }
  /// Reads the view's keys (and AppKit's `NSWindowRect`).
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    if frame == .zero, let rect = try coder.geometry(["NSWindowRect", "contentRect"]), rect.count == 4 {
      frame = Rect(x: rect[0], y: rect[1], width: rect[2], height: rect[3])
    }
  }

  /// Shows the window and makes it key: the root view controller goes on screen (NIB-315).
  public func makeKeyAndVisible() {
    isHidden = false
    isKeyWindow = true
    rootViewController?.appear()
  }

  /// `rootViewController`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "rootViewController": .observedProperty(\Window.rootViewController),
        "delegate": .observedProperty(\Window.delegate),
        "initialFirstResponder": .observedProperty(\Window.initialFirstResponder),
      ], uniquingKeysWith: { $1 })
  }
}

/// A menu, in the role of `NSMenu`.
open class Menu: Responder {
  /// The title.
  public var title = "" {
    willSet { propertyWillChange("title") }
    didSet { propertyDidChange("title") }
  }
  /// The items.
  public var items: [MenuItem] = []
  /// The menu's delegate (an outlet).
  public weak var delegate: AnyObject? {
    willSet { propertyWillChange("delegate") }
    didSet { propertyDidChange("delegate") }
  }
  /// Creates a menu in code.
  public init(title: String) {
    self.title = title
    super.init()
  }
  /// Reads `title` and `items` (`NSMenuItems`).
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    title = try coder.string(["title", "NSTitle"]) ?? ""
    items = try coder.objects(["items", "NSMenuItems"], of: MenuItem.self)
  }

  /// `title`, `delegate`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      ["title": .observedProperty(\Menu.title), "delegate": .observedProperty(\Menu.delegate)], uniquingKeysWith: { $1 }
    )
  }
}

/// A menu item with target and action, in the role of `NSMenuItem`.
open class MenuItem: Responder, ActionSending {
  /// The title.
  public var title = "" {
    willSet { propertyWillChange("title") }
    didSet { propertyDidChange("title") }
  }
  /// The key equivalent.
  public var keyEquivalent = ""
  /// The submenu.
  public var submenu: Menu? {
    willSet { propertyWillChange("submenu") }
    didSet { propertyDidChange("submenu") }
  }
  /// The target.
  public weak var target: AnyObject?
  /// The action.
  public var action: String?
  /// Creates an item in code.
  public init(title: String, action: String? = nil) {
    self.title = title
    self.action = action
    super.init()
  }
  /// Reads `title`, `keyEquivalent`, `submenu`.
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    title = try coder.string(["title", "NSTitle"]) ?? ""
    keyEquivalent = try coder.string(["keyEquivalent", "NSKeyEquiv"]) ?? ""
    submenu = try coder.decodeObject(forKey: coder.firstKey(["submenu", "NSSubmenu"]) ?? "submenu") as? Menu
  }
  /// Sets the target and action (AppKit's target/action).
  public func addTarget(_ target: AnyObject?, action: String, for events: UInt64?) {
    self.target = target
    self.action = action
  }
  /// `title`, `submenu`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      ["title": .observedProperty(\MenuItem.title), "submenu": .observedProperty(\MenuItem.submenu)],
      uniquingKeysWith: { $1 })
  }
}
