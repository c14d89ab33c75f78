/// Where a view controller is in its appearance (NIB-314).
enum Appearance {
  case disappeared, appearing, appeared, disappearing
}

extension ViewController {
  /// `true` while the controller's view is going on screen or is on it.
  public var isOnScreen: Bool { appearance == .appearing || appearance == .appeared }

  /// Starts the controller's view going on (`true`) or off screen, as UIKit's
  /// `beginAppearanceTransition(_:animated:)`: loads the view first, calls ``viewWillAppear(_:)`` or
  /// ``viewWillDisappear(_:)`` (once: a controller already going that way is left alone), then does the same to the
  /// children that go with it (NIB-314).
  public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
    if isAppearing {
      guard appearance == .disappeared || appearance == .disappearing else { return }
      _ = view
      appearance = .appearing
      trace("viewWillAppear")
      viewWillAppear(animated)
    } else {
      guard appearance == .appeared || appearance == .appearing else { return }
      appearance = .disappearing
      trace("viewWillDisappear")
      viewWillDisappear(animated)
    }
    for child in appearingChildren { child.beginAppearanceTransition(isAppearing, animated: animated) }
  }

  /// Ends the transition ``beginAppearanceTransition(_:animated:)`` started: ``viewDidAppear(_:)`` or
  /// ``viewDidDisappear(_:)``, then the same for the children that go with the controller (NIB-314).
  public func endAppearanceTransition() {
    switch appearance {
    case .appearing:
      appearance = .appeared
      trace("viewDidAppear")
      viewDidAppear(false)
    case .disappearing:
      appearance = .disappeared
      trace("viewDidDisappear")
      viewDidDisappear(false)
    case .appeared, .disappeared:
      return
    }
    for child in appearingChildren { child.endAppearanceTransition() }
  }

  /// Goes on screen at once.
  func appear() {
    beginAppearanceTransition(true, animated: false)
    endAppearanceTransition()
  }

  /// Goes off screen at once.
  func disappear() {
    beginAppearanceTransition(false, animated: false)
    endAppearanceTransition()
  }

  /// One controller's view replaces another's on screen, as UIKit orders the calls: the new one's view loads, then
  /// the old one's `viewWillDisappear`, the new one's `viewWillAppear`, the old one's `viewDidDisappear`, the new
  /// one's `viewDidAppear` (NIB-314).
  static func transition(from old: ViewController?, to new: ViewController?) {
    guard old !== new else { return }
    _ = new?.view
    old?.beginAppearanceTransition(false, animated: false)
    new?.beginAppearanceTransition(true, animated: false)
    old?.endAppearanceTransition()
    new?.endAppearanceTransition()
  }

  /// The root of the containment tree the controller is in: what a full-screen presentation covers.
  var containmentRoot: ViewController {
    var root = self
    while let parent = root.parent { root = parent }
    return root
  }

  /// Presents another controller full screen (what a `presentation` or `modal` segue does): when this controller is
  /// on screen, the containment tree it is in goes off screen and the presented controller on (NIB-314).
  public func present(_ controller: ViewController) {
    if let previous = presentedViewController { dismissPresented(previous) }
    presentedViewController = controller
    controller.presentingViewController = self
    if isOnScreen { Self.transition(from: containmentRoot, to: controller) }
  }

  /// Dismisses the controller this one presents and every controller presented above it, as UIKit's
  /// `dismiss(animated:completion:)` does for a stack of presented controllers: the top one goes off screen and this
  /// controller's containment tree comes back (NIB-314).
  public func dismiss() {
    guard let presented = presentedViewController else { return }
    dismissPresented(presented)
  }

  private func dismissPresented(_ presented: ViewController) {
    var top = presented
    var chain: [ViewController] = [presented]
    var seen: Set<ObjectIdentifier> = [ObjectIdentifier(presented)]
    while let next = top.presentedViewController, seen.insert(ObjectIdentifier(next)).inserted {
      chain.append(next)
      top = next
    }
    let wasOnScreen = top.isOnScreen
    presentedViewController = nil
    for controller in chain {
      controller.presentingViewController = nil
      controller.presentedViewController = nil
    }
    // The controllers presented below the top one were already off screen.
    if wasOnScreen { Self.transition(from: top.containmentRoot, to: containmentRoot) }
  }
}
