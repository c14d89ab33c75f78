/// A segue as a storyboard declares it, in the role of `UIStoryboardSegueTemplate`: what its source records when the
/// scene is instantiated, and performs later (NIB-100, NIB-130).
public struct SegueTemplate: Sendable, Hashable {
  /// The kind of an unwind segue, whose destination is the scene's exit.
  public static let unwindKind = "unwind"
  /// The kind of a container's relationship segue (a navigation controller's root, a tab bar controller's tabs).
  public static let relationshipKind = "relationship"
  /// The kind of a container view's embed segue.
  public static let embedKind = "embed"

  /// The identifier (`nil`: none, as for most segues triggered by a control or a cell).
  public var identifier: String?
  /// The kind (`show`, `presentation`, `embed`, `relationship`, `unwind`…).
  public var kind: String
  /// The action an unwind segue sends to the controller it unwinds to (`"unwindToHome:"`).
  public var unwindAction: String?
  /// The segue's document id, which finds its destination when it has no identifier.
  public var id: String?
  /// The storyboard identifier of the destination scene, as a compiled storyboard keeps it (NIB-136).
  public var destinationIdentifier: String?

  /// Creates a template.
  public init(
    identifier: String?, kind: String, unwindAction: String? = nil, id: String? = nil,
    destinationIdentifier: String? = nil
  ) {
    (self.identifier, self.kind, self.unwindAction) = (identifier, kind, unwindAction)
    (self.id, self.destinationIdentifier) = (id, destinationIdentifier)
  }

  /// `true` for an unwind segue.
  public var isUnwind: Bool { kind == Self.unwindKind }

  /// `true` for the segues performed without being asked for: relationship segues when their source's scene is
  /// instantiated (NIB-137), embed segues when the container's view loads (NIB-313).
  public var loadsWithScene: Bool { kind == Self.relationshipKind || kind == Self.embedKind }
}
