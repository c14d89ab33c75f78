import ArchiveCoding

/// An object that wants to know when a nib finished loading: `awakeFromNib()` is sent once every object of the
/// nib exists and every outlet and action is connected. Overrides call `super.awakeFromNib()` first.
public protocol NibAwaking: AnyObject {
  /// Called once after all objects are decoded and all connections are made. Never sent to placeholders.
  func awakeFromNib()
}

/// A control that sends actions to targets for events (`addTarget(_:action:for:)`).
public protocol ActionSending: AnyObject {
  /// Registers `target` (or, when `nil`, the responder chain) to receive `action` for the events in `events`
  /// (`nil`: the control's default event, or plain target/action on AppKit).
  func addTarget(_ target: AnyObject?, action: String, for events: UInt64?)
}

/// An object that can be the target of actions: it names the actions it has.
public protocol ActionResponding: AnyObject {
  /// `true` when the object has an action of this name (`"dismiss:"`).
  func responds(toAction action: String) -> Bool

  /// Why `sender` may not send the action, or `nil` when it may: a method that takes a sender of another class, or a
  /// declaration whose selector does not match its method. A nib that connects such an action fails to load, naming
  /// the reason and the connection's location (NIB-341, NIB-342). Default: `nil`.
  func refusal(ofAction action: String, from sender: AnyObject) -> String?
}

extension ActionResponding {
  /// Refuses nothing.
  public func refusal(ofAction action: String, from sender: AnyObject) -> String? { nil }
}

/// An object a storyboard segue can start from (view controllers).
public protocol SegueSource: AnyObject {
  /// Records a segue to a destination (identifier may be nil for relationship segues).
  func addSegue(identifier: String?, kind: String, destination: AnyObject?)

  /// Records a segue with all the storyboard declares of it (its unwind action and document id too), to a
  /// destination (`nil`: another scene's controller, or an unwind segue's exit) (NIB-130). Default: records the
  /// identifier, kind and destination.
  func addSegue(_ template: SegueTemplate, destination: AnyObject?)
}

extension SegueSource {
  /// Records the identifier, kind and destination.
  public func addSegue(_ template: SegueTemplate, destination: AnyObject?) {
    addSegue(identifier: template.identifier, kind: template.kind, destination: destination)
  }
}

/// An object that can stand in for a class the process does not have: the nib loader instantiates the element's
/// base class and tells it the class name the document asked for, after which it accepts the unknown class's
/// outlets, runtime attributes and actions instead of failing (NIB-020).
public protocol UnknownClassAdopting: AnyObject {
  /// Called right after `init(coder:)` when the object stands in for `className`.
  func adoptUnknownClass(_ className: String)

  /// Keeps an action connected from this object when it stands in for an unknown class and is not itself an
  /// ``ActionSending`` (the unknown class may have been a control).
  /// - Returns: `true` when the object kept the action; `false` when it stands in for no class. Default: `false`.
  func keepAction(_ target: AnyObject?, action: String, for events: UInt64?) -> Bool
}

extension UnknownClassAdopting {
  /// Keeps nothing.
  public func keepAction(_ target: AnyObject?, action: String, for events: UInt64?) -> Bool { false }
}

/// A view controller that knows the storyboard and scene it was instantiated from, to perform its segues
/// (`performSegue(withIdentifier:sender:)`) (NIB-100) and load its view from the scene (NIB-311).
public protocol StoryboardSceneAdopting: AnyObject {
  /// Called right after the storyboard instantiated the scene's controller: the controller keeps the scene's view to
  /// load on first access of `view`, and may perform the segues that load with its scene (relationship segues,
  /// NIB-137).
  /// - Throws: what instantiating those segues' destinations throws; the storyboard's instantiation then fails.
  func adoptStoryboardScene(_ scene: StoryboardScene) throws
}

/// A table or collection view to which a storyboard hands the nibs of its prototype cells (NIB-102).
public protocol PrototypeRegistering: AnyObject {
  /// Registers the nib of a prototype cell for its reuse identifier.
  func register(_ nib: Nib, forCellReuseIdentifier identifier: String)
}
