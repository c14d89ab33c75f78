/// One action a class declares, in one line, as `@IBAction` does: the selector Interface Builder writes and the
/// method that runs.
///
///     final class Card: View {
///       func close() { … }
///       func save(_ sender: Any?) { … }
///       func typed(_ sender: Button) { … }
///       func drag(_ sender: Any, forEvent event: ActionEvent) { … }
///       override class var actions: [Action] {
///         [Action("close", close), Action("save:", save), Action("typed:", typed), Action("drag:forEvent:", drag)]
///       }
///     }
///
/// The three forms are UIKit's and AppKit's: `name` (no argument), `name:` (the sender, of any type: `Any`, `Any?` or
/// a class such as `Button`), `name:forEvent:` or `name:event:` (the sender and the event, optional or not). A
/// subclass inherits its superclasses' actions without repeating them (NIB-092, NIB-340).
///
/// A sender of another class than the method takes is refused where a nib connects it, with the connection's file,
/// line and column (NIB-341); a selector whose colons do not match the method's arguments is a declaration error,
/// reported once when the class's actions are first gathered and wherever a nib connects to it, never a trap
/// (NIB-342).
public struct Action {
  /// The selector, as a nib names the action (`"save:"`).
  public let selector: String
  let perform: (Responder, Any?, ActionEvent?) -> Void
  /// Whether a sender may send the action: `nil` for any sender; else what the method takes.
  let acceptsSender: ((Any) -> Bool)?
  /// The type of sender the method takes, for messages.
  let senderType: Any.Type?
  /// What is wrong with the declaration, or `nil`: a selector whose colons do not match the method (NIB-342).
  let declarationError: String?
  /// How many arguments the method takes.
  let arity: Int

  private init(
    selector: String, arity: Int, senderType: Any.Type?, acceptsSender: ((Any) -> Bool)?,
    perform: @escaping (Responder, Any?, ActionEvent?) -> Void
  ) {
    self.selector = selector
    self.arity = arity
    self.senderType = senderType
    self.acceptsSender = acceptsSender
    self.perform = perform
    let colons = Self.arguments(of: selector)
    if colons == arity {
      declarationError = nil
    } else {
      let forms = [
        "takes no argument: write it without a colon", "takes the sender: write it as \"name:\"",
        "takes the sender and the event: write it as \"name:forEvent:\"",
      ]
      declarationError =
        "the action \"\(selector)\" is declared with a method that \(forms[arity]) (\(colons) colon\(colons == 1 ? "" : "s") found)"
    }
  }

  /// An action without arguments (`close`).
  public init<T: Responder>(_ selector: String, _ method: @escaping (T) -> () -> Void) {
    self.init(selector: selector, arity: 0, senderType: nil, acceptsSender: nil) { receiver, _, _ in
      if let typed = receiver as? T { method(typed)() }
    }
  }

  /// An action that takes the sender, of any type: `Any`, `Any?`, a class (`func typed(_ sender: Button)`), or a
  /// segue for an unwind action (`func unwindToHome(_ segue: StoryboardSegue)`, NIB-133). Sent by something that is
  /// not a `Sender`, it does not run; a nib that connects such a sender to it fails to load (NIB-341).
  public init<T: Responder, Sender>(_ selector: String, _ method: @escaping (T) -> (Sender) -> Void) {
    self.init(
      selector: selector, arity: 1, senderType: Sender.self, acceptsSender: Self.accepts(Sender.self)
    ) { receiver, sender, _ in
      if let typed = receiver as? T, let sender = Self.sender(sender, as: Sender.self) { method(typed)(sender) }
    }
  }

  /// An action that takes the sender and the event (`drag:forEvent:` or `drag:event:`), the sender of any type.
  public init<T: Responder, Sender>(_ selector: String, _ method: @escaping (T) -> (Sender, ActionEvent) -> Void) {
    self.init(
      selector: selector, arity: 2, senderType: Sender.self, acceptsSender: Self.accepts(Sender.self)
    ) { receiver, sender, event in
      if let typed = receiver as? T, let sender = Self.sender(sender, as: Sender.self) {
        method(typed)(sender, event ?? ActionEvent(controlEvents: []))
      }
    }
  }

  /// An action that takes the sender and an optional event (`drag:forEvent:` or `drag:event:`).
  public init<T: Responder, Sender>(_ selector: String, _ method: @escaping (T) -> (Sender, ActionEvent?) -> Void) {
    self.init(
      selector: selector, arity: 2, senderType: Sender.self, acceptsSender: Self.accepts(Sender.self)
    ) { receiver, sender, event in
      if let typed = receiver as? T, let sender = Self.sender(sender, as: Sender.self) { method(typed)(sender, event) }
    }
  }

  /// A handler of the two-argument table form (``Responder/actionHandlers``): any sender.
  init(selector: String, handler: @escaping Responder.ActionHandler) {
    self.init(selector: selector, arity: Self.arguments(of: selector), senderType: nil, acceptsSender: nil) {
      receiver, sender, _ in handler(receiver, sender)
    }
  }

  /// The sender as the method takes it: the sender itself (not an optional holding it) when it is a `Sender`, `nil`
  /// for a missing sender when the method takes an optional; else nothing (the method does not run).
  private static func sender<Sender>(_ value: Any?, as type: Sender.Type) -> Sender? {
    if let value { return value as? Sender }
    guard Sender.self is any ExpressibleByNilLiteral.Type else { return nil }
    return value as? Sender
  }

  /// Whether a sender may send the action, as the method's sender type says: `nil` (any) for `Any` and `Any?`.
  private static func accepts<Sender>(_ type: Sender.Type) -> ((Any) -> Bool)? {
    if Sender.self == Any.self || Sender.self == Optional<Any>.self { return nil }
    return { $0 is Sender }
  }

  /// Why `sender` may not send this action, or `nil` (NIB-341, NIB-342).
  func refusal(from sender: AnyObject, receiver: AnyObject) -> String? {
    if let declarationError { return "\(type(of: receiver)): \(declarationError)" }
    guard let acceptsSender, !acceptsSender(sender) else { return nil }
    return
      "the method of \(type(of: receiver)) takes a sender of type \(senderType.map { "\($0)" } ?? "?"), but \(type(of: sender)) sends it"
  }

  /// The selector the method's arguments call for, with the declared name: `name`, `name:`, `name:forEvent:`.
  var expectedSelector: String {
    let name = selector.split(separator: ":", omittingEmptySubsequences: false).first.map(String.init) ?? selector
    switch arity {
    case 0: return name
    case 1: return name + ":"
    default: return selector.filter { $0 == ":" }.count == 2 ? selector : name + ":forEvent:"
    }
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
