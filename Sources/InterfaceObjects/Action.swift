/// One action a class declares, in one line, as `@IBAction` does: the selector Interface Builder writes and the
/// method that runs.
///
///     final class Card: View {
///       func close() { … }
///       func save(_ sender: Any?) { … }
///       func drag(_ sender: Any?, _ event: ActionEvent?) { … }
///       override class var actions: [Action] {
///         [Action("close", close), Action("save:", save), Action("drag:forEvent:", drag)]
///       }
///     }
///
/// The three forms are UIKit's: `name` (no argument), `name:` (the sender), `name:forEvent:` or `name:event:`
/// (the sender and the event). A subclass inherits its superclasses' actions without repeating them (NIB-092).
public struct Action {
  /// The selector, as a nib names the action (`"save:"`).
  public let selector: String
  let perform: (Responder, Any?, ActionEvent?) -> Void

  /// An action without arguments (`close`).
  /// - Precondition: the selector has no colon.
  public init<T: Responder>(_ selector: String, _ method: @escaping (T) -> () -> Void) {
    precondition(
      Self.arguments(of: selector) == 0, "the action \"\(selector)\" takes no argument: write it without a colon")
    self.selector = selector
    perform = { receiver, _, _ in if let typed = receiver as? T { method(typed)() } }
  }

  /// An action that takes the sender (`save:`).
  /// - Precondition: the selector has one colon, at its end.
  public init<T: Responder>(_ selector: String, _ method: @escaping (T) -> (Any?) -> Void) {
    precondition(
      Self.arguments(of: selector) == 1, "the action \"\(selector)\" takes the sender: write it as \"name:\"")
    self.selector = selector
    perform = { receiver, sender, _ in if let typed = receiver as? T { method(typed)(sender) } }
  }

  /// An action that takes the sender and the event (`drag:forEvent:` or `drag:event:`).
  /// - Precondition: the selector has two colons.
  public init<T: Responder>(_ selector: String, _ method: @escaping (T) -> (Any?, ActionEvent?) -> Void) {
    precondition(
      Self.arguments(of: selector) == 2,
      "the action \"\(selector)\" takes the sender and the event: write it as \"name:forEvent:\"")
    self.selector = selector
    perform = { receiver, sender, event in if let typed = receiver as? T { method(typed)(sender, event) } }
  }

  /// An unwind action, which takes the segue (`unwindToHome:`), as UIKit's
  /// `@IBAction func unwindToHome(_ segue: UIStoryboardSegue)`: sent by an unwind segue to the controller it
  /// unwinds to; sent with anything else than a segue, it does not run (NIB-133).
  /// - Precondition: the selector has one colon, at its end.
  public init<T: Responder>(_ selector: String, _ method: @escaping (T) -> (StoryboardSegue) -> Void) {
    precondition(
      Self.arguments(of: selector) == 1, "the unwind action \"\(selector)\" takes the segue: write it as \"name:\"")
    self.selector = selector
    perform = { receiver, sender, _ in
      if let typed = receiver as? T, let segue = sender as? StoryboardSegue { method(typed)(segue) }
    }
  }

  /// A handler of the two-argument table form (``Responder/actionHandlers``).
  init(selector: String, handler: @escaping Responder.ActionHandler) {
    self.selector = selector
    perform = { receiver, sender, _ in handler(receiver, sender) }
  }

  private static func arguments(of selector: String) -> Int { selector.utf8.reduce(0) { $0 + ($1 == 0x3A ? 1 : 0) } }
}

/// The event an action was sent for, in the role of `UIEvent` / `NSEvent`: what a `name:forEvent:` action gets.
public struct ActionEvent: Sendable, Hashable {
  /// The control events that sent the action.
  public let controlEvents: ControlEvents

  /// An event for control events.
  public init(controlEvents: ControlEvents) { self.controlEvents = controlEvents }
}
