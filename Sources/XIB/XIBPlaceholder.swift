/// What a placeholder object stands for. Placeholders are never created from the document: the caller (or the
/// loading machinery) supplies the real object.
public enum XIBPlaceholder: Sendable, Hashable {
  /// File's Owner (`placeholderIdentifier="IBFilesOwner"`; macOS `customObject` id -2; iOS archive record -1).
  case filesOwner
  /// First Responder (`IBFirstResponder`; macOS `customObject` id -1; any `sceneMemberID="firstResponder"`).
  case firstResponder
  /// The shared application (macOS `customObject` id -3; a storyboard's `<application>`).
  case application
  /// An external object supplied by name at load time (`placeholderIdentifier` with any other identifier).
  case external(identifier: String)
  /// A storyboard scene's exit (`<exit>`), the source of unwind segues.
  case exit
  /// A controller of another storyboard (`<viewControllerPlaceholder>`), with its storyboard name and
  /// referenced identifier when written.
  case storyboardReference(storyboardName: String?, referencedIdentifier: String?)
}
