import ArchiveCoding
import NibLoading

extension ViewController {
  /// Performs a segue a control's event or a cell's selection triggered, as a user's tap does in UIKit: asks
  /// ``shouldPerformSegue(withIdentifier:sender:)`` first (with the segue's identifier, or `""` when it has none),
  /// then performs it as ``performSegue(withIdentifier:sender:)`` does (NIB-131).
  /// - Returns: `true` when the segue was performed.
  /// - Throws: what performing the segue throws.
  @discardableResult
  package func triggerSegue(_ template: SegueTemplate, destination: AnyObject?, sender: Any?) throws -> Bool {
    guard shouldPerformSegue(withIdentifier: template.identifier ?? "", sender: sender) else { return false }
    try perform(template, destination: destination, sender: sender)
    return true
  }

  /// Performs an unwind segue from this controller, as UIKit does: walks up from this controller (to its parent,
  /// or, at the root of a containment tree, to the controller presenting it) to the first controller that declares
  /// the segue's unwind action (``Responder/actions``), looking in a navigation controller's stack below the
  /// controller it came from, top first, before the navigation controller itself; calls ``prepare(for:sender:)``
  /// on this controller with a segue to that one, sends it the unwind action with the segue, then pops the stack
  /// down to it and dismisses the controllers presented between the two (NIB-132, NIB-137).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`valueNotFound`) when the segue has no unwind action or no controller up the
  ///   chain declares it; nothing is prepared or dismissed then.
  func unwind(_ template: SegueTemplate, sender: Any?) throws {
    let name = template.identifier ?? template.id ?? ""
    guard let actionName = template.unwindAction, !actionName.isEmpty else {
      throw ArchiveError(
        .valueNotFound, "the unwind segue \"\(name)\" of \(type(of: self)) has no unwind action",
        at: .init(className: "\(type(of: self))", keyPath: name))
    }
    guard let (destination, action, presenter, navigation) = unwindDestination(for: actionName) else {
      throw ArchiveError(
        .valueNotFound,
        "no controller above \(type(of: self)) declares the unwind action \"\(actionName)\" of the segue \"\(name)\" (searched: \(unwindChain().map { "\(type(of: $0))" }.joined(separator: ", ")))",
        at: .init(className: "\(type(of: self))", keyPath: name))
    }
    let segue = StoryboardSegue(
      identifier: template.identifier, kind: template.kind, source: self, destination: destination)
    prepare(for: segue, sender: sender)
    action.perform(destination, segue, nil)
    navigation?.popToViewController(destination)
    presenter?.dismiss()
  }

  /// The controller an unwind action leads to from this one, its action, the controller presenting the nearest of
  /// those in between (`nil` when none is presented, as when unwinding to a parent), and the navigation controller
  /// whose stack holds the destination below where the walk came from (`nil` when none does).
  private func unwindDestination(
    for actionName: String
  ) -> (destination: ViewController, action: Action, presenter: ViewController?, navigation: NavigationController?)? {
    var presenter: ViewController?
    var current: ViewController = self
    for next in unwindChain() {
      if current.parent !== next { presenter = next }
      if let navigation = next as? NavigationController, current.parent === navigation,
        let index = navigation.children.firstIndex(where: { $0 === current })
      {
        for below in navigation.children[..<index].reversed() {
          if let action = ActionHandlerCache.action(actionName, of: below) {
            return (below, action, presenter, navigation)
          }
        }
      }
      if let action = ActionHandlerCache.action(actionName, of: next) { return (next, action, presenter, nil) }
      current = next
    }
    return nil
  }

  /// The controllers above this one, nearest first: each one's parent, or the controller presenting it. A chain
  /// that comes back to a controller already in it ends there.
  private func unwindChain() -> [ViewController] {
    var chain: [ViewController] = []
    var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
    var current: ViewController = self
    while let next = current.parent ?? current.presentingViewController, seen.insert(ObjectIdentifier(next)).inserted {
      chain.append(next)
      current = next
    }
    return chain
  }
}
