import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Synchronization

/// A view that loads its own XIB, named after its dynamic class, with itself as File's Owner: the XIB's root view
/// is connected to ``base``, added as a subview with `frame = bounds` and a flexible width and height. Both
/// initialisers load it, so the view works from code and inside other XIBs (as a custom class).
///
/// The XIB's root must be a plain view, not the class itself (that would load the XIB again inside itself):
/// nesting deeper than ``maximumNesting`` is an error instead of a stack overflow.
open class XIBView: View {
  /// The XIB's root view.
  public var base: View?
  /// Which initialiser ran (`"init(frame:)"` or `"init(coder:)"`).
  public private(set) var initializer: String

  /// How deep XIB views may load inside one another.
  public static let maximumNesting = 16
  private static let nesting = Mutex(0)

  /// Where the XIB is found; override to use another bundle.
  open class var nibBundle: NibBundle? { try? ScenarioResources.bundle() }

  /// Creates the view in code and loads its XIB (a failure leaves the view empty).
  public override init(frame: Rect) {
    initializer = "init(frame:)"
    super.init(frame: frame)
    try? loadContent()
  }

  /// Creates the view from a nib and loads its XIB.
  public required init(coder: any DecodingCoder) throws {
    initializer = "init(coder:)"
    try super.init(coder: coder)
    try loadContent()
  }

  private func loadContent() throws {
    let depth = Self.nesting.withLock { depth -> Int in
      depth += 1
      return depth
    }
    defer { Self.nesting.withLock { $0 -= 1 } }
    guard depth <= Self.maximumNesting else {
      throw ArchiveError(
        .referenceCycle,
        "\(type(of: self)) loads its XIB inside itself more than \(Self.maximumNesting) levels deep: the XIB's root view must not be a \(type(of: self))"
      )
    }
    guard let bundle = Self.nibBundle else { return }
    _ = try bundle.loadNibNamed(String(describing: type(of: self)), owner: self)
    guard let base else { return }
    base.frame = bounds
    base.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    addSubview(base)
  }

  /// `base`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(["base": .property(\XIBView.base)], uniquingKeysWith: { $1 })
  }
}

/// A self-loading view: its content comes from `ProfileBadgeView.xib`.
public final class ProfileBadgeView: XIBView {
  /// The badge's label (an outlet of the XIB).
  public var nameLabel: Label?
  /// `nameLabel`.
  public override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(["nameLabel": .property(\ProfileBadgeView.nameLabel)], uniquingKeysWith: { $1 })
  }
}
