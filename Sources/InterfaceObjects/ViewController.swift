import ArchiveCoding
import Foundation
import NibLoading

/// A controller that owns a root view, in the role of `UIViewController` / `NSViewController`.
///
/// Its view is created on first access: from the nib named ``nibName`` (with the controller as File's Owner,
/// the nib connecting its `view` outlet) when one is set, else an empty view; then `viewDidLoad()` runs.
open class ViewController: Responder, SegueSource, StoryboardSceneAdopting {
  private var loadedView: View?
  /// The nib the view is loaded from.
  public var nibName: String?
  /// Where ``nibName`` is looked up.
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
  /// The controller this one presents (through a segue or ``present(_:)``).
  public private(set) var presentedViewController: ViewController?
  /// The controller that presents this one.
  public private(set) weak var presentingViewController: ViewController?
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
  /// How many times `viewDidLoad()` ran.
  public private(set) var viewDidLoadCount = 0

  /// The options of the view's nib instantiation: its warnings go to standard error unless `nibOptions.warning`
  /// collects or silences them (NIB-103).
  public var nibOptions = NibOptions()
  /// Why loading the view from ``nibName`` failed, or `nil` (NIB-098).
  public private(set) var viewLoadError: (any Error)?

  /// Creates a controller whose view is loaded from a nib in a resource directory (or made empty when `nibName` is
  /// nil).
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
  ///   - bundle: the bundle; `nil` is the main bundle.
  public init(nibName: String?, bundle: Bundle?) {
    self.nibName = nibName
    self.nibBundle = NibBundle(bundle: bundle)
    super.init()
  }

  /// Reads `view` (`UIView`), `title`, `storyboardIdentifier`, `nibName`, and the child controllers a compiled
  /// storyboard archives in a container (`UIChildViewControllers`: a navigation controller's stack).
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    title = try coder.string(["title", "UITitle"])
    storyboardIdentifier = try coder.string(["storyboardIdentifier", "UIStoryboardIdentifier"])
    nibName = try coder.string(["nibName", "UINibName"])
    if let view = try coder.decodeObject(forKey: coder.firstKey(["view", "UIView", "NSView"]) ?? "view") as? View {
      setView(view)
    }
    for child in try coder.objects(["UIChildViewControllers"], of: ViewController.self) { addChild(child) }
  }

  /// The root view, loaded on first access.
  public var view: View {
    get {
      if let loadedView { return loadedView }
      loadView()
      let view = loadedView ?? View(frame: Rect(x: 0, y: 0, width: 320, height: 480))
      setView(view)
      viewDidLoad()
      return view
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

  /// Loads the view if it is not loaded yet, reporting a failure (UIKit's `loadViewIfNeeded()`).
  /// - Throws: what loading the nib threw (``viewLoadError``), or ``/ArchiveCoding/ArchiveError`` (`connectionFailed`)
  ///   when the nib did not connect the `view` outlet (NIB-098).
  public func loadViewIfNeeded() throws {
    _ = view
    if let viewLoadError { throw viewLoadError }
  }

  /// Loads the view: from ``nibName`` with the controller as owner; override to build it in code. A failure is
  /// kept in ``viewLoadError`` (the view is then empty) and reported by ``loadViewIfNeeded()``.
  open func loadView() {
    guard let nibBundle else { return }
    let className = String(describing: type(of: self))
    guard let nibName = nibName ?? ((try? nibBundle.url(forNibNamed: className)) != nil ? className : nil) else {
      return
    }
    do {
      _ = try nibBundle.loadNibNamed(nibName, owner: self, options: nibOptions)
      if loadedView == nil {
        viewLoadError = ArchiveError(
          .connectionFailed,
          "\(type(of: self)) loaded the nib \"\(nibName)\" but its \"view\" outlet was not connected")
      }
    } catch {
      viewLoadError = error
      loadedView = nil
    }
  }

  /// Called once after the view is loaded.
  open func viewDidLoad() { viewDidLoadCount += 1 }

  /// Records a segue.
  public func addSegue(identifier: String?, kind: String, destination: AnyObject?) {
    addSegue(SegueTemplate(identifier: identifier, kind: kind), destination: destination)
  }

  /// Records a segue with its unwind action and document id (NIB-130).
  public func addSegue(_ template: SegueTemplate, destination: AnyObject?) {
    recordedSegues.append((template, destination))
  }

  /// Remembers the storyboard and scene the controller came from (NIB-100), then performs the segues that load
  /// with the scene, as UIKit does: each relationship segue (a navigation controller's root, a tab bar
  /// controller's tabs) and each embed segue of its loaded view's container views (the container's child, after
  /// ``prepare(for:sender:)``) (NIB-137).
  /// - Throws: what instantiating those segues' destinations throws.
  public func adoptStoryboard(_ storyboard: Storyboard, sceneIdentifier: String) throws {
    self.storyboard = storyboard
    self.sceneIdentifier = sceneIdentifier
    for (template, destination) in recordedSegues where template.loadsWithScene {
      try perform(template, destination: destination, sender: nil)
    }
    for (template, destination) in loadedView?.segueLoadingWithScene() ?? [] {
      try perform(template, destination: destination, sender: nil)
    }
  }

  /// Whether a segue triggered by the user (``triggerSegue(withIdentifier:sender:)``) may go ahead: `true` unless
  /// overridden.
  open func shouldPerformSegue(withIdentifier identifier: String, sender: Any?) -> Bool { true }

  /// Called before a segue from this controller is performed, with the new destination: pass it what it needs.
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
  /// identifier or document id.
  package func perform(_ template: SegueTemplate, destination recorded: AnyObject?, sender: Any?) throws {
    if template.isUnwind { return try unwind(template, sender: sender) }
    let name = template.identifier ?? template.id ?? ""
    // A segue to the controller's own scene leads to a fresh instance of it, as in UIKit.
    var destination = recorded as? ViewController
    if destination === self { destination = nil }
    if destination == nil, let storyboard = storyboard as? Storyboard, let sceneIdentifier {
      destination = try storyboard.instantiateDestination(of: template, fromScene: sceneIdentifier) as? ViewController
    }
    guard let destination else {
      let known = segues.compactMap(\.identifier)
      throw ArchiveError(
        .valueNotFound,
        "\(type(of: self)) has no segue \"\(name)\" to a view controller (its segues: \(known.isEmpty ? "none" : known.joined(separator: ", ")))",
        at: .init(className: "\(type(of: self))", keyPath: name))
    }
    let segue = StoryboardSegue(
      identifier: template.identifier, kind: template.kind, source: self, destination: destination)
    // UIKit prepares every segue but a relationship.
    if template.kind != SegueTemplate.relationshipKind { prepare(for: segue, sender: sender) }
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
  public var navigationController: NavigationController? {
    var current = parent
    while let controller = current {
      if let navigation = controller as? NavigationController { return navigation }
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

  /// Presents another controller (what a `presentation` segue does).
  public func present(_ controller: ViewController) {
    presentedViewController?.presentingViewController = nil
    presentedViewController = controller
    controller.presentingViewController = self
  }

  /// Dismisses the controller this one presents and every controller presented above it, as UIKit's
  /// `dismiss(animated:completion:)` does for a stack of presented controllers.
  public func dismiss() {
    guard let presented = presentedViewController else { return }
    presentedViewController = nil
    presented.presentingViewController = nil
    presented.dismiss()
  }

  /// Adds a child controller (what an `embed` segue does).
  public func addChild(_ controller: ViewController) {
    controller.removeFromParent()
    children.append(controller)
    controller.parent = self
  }

  /// Leaves the controller this one is a child of.
  public func removeFromParent() {
    guard let parent else { return }
    parent.children.removeAll { $0 === self }
    self.parent = nil
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
  /// The root view controller (an outlet).
  public var rootViewController: ViewController? {
    willSet { propertyWillChange("rootViewController") }
    didSet {
      propertyDidChange("rootViewController")
      if let view = rootViewController?.view { addSubview(view) }
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

  /// Shows the window and makes it key.
  public func makeKeyAndVisible() {
    isHidden = false
    isKeyWindow = true
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
