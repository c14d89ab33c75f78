import ArchiveCoding
import Foundation
import NibLoading
import Synchronization

/// A view that loads its own XIB, named after its dynamic class, with itself as File's Owner: the XIB's root view
/// is connected to ``base``, added as a subview with `frame = bounds` and a flexible width and height. Both
/// initialisers load it, so the view works from code (`init(frame:)`) and inside other XIBs as a custom class
/// (`init(coder:)`) (NIB-060). Subclass it and give the subclass a XIB of the same name:
///
///     final class ProfileBadgeView: XIBView {
///       @Outlet var nameLabel: Label?
///       override class var nibBundle: NibBundle? { NibBundle(bundle: .module) }
///     }
///
/// The XIB's root must be a plain view, not the class itself (that would load the XIB again inside itself):
/// nesting deeper than ``maximumNesting`` is an error instead of a stack overflow.
open class XIBView: View {
  /// The XIB's root view.
  public var base: View? {
    willSet { propertyWillChange("base") }
    didSet { propertyDidChange("base") }
  }
  /// Which initialiser ran (`"init(frame:)"` or `"init(coder:)"`).
  package private(set) var initializer: String
  /// Why loading the XIB from `init(frame:)` failed, or `nil` (`init(coder:)` throws instead).
  public private(set) var xibLoadError: (any Error)?

  /// How deep XIB views may load inside one another.
  public static let maximumNesting = 16
  private static let nesting = Mutex(0)

  /// The XIB's name: the class's name, without its module.
  open class var nibName: String { String(describing: self) }

  /// Where the XIB is found: the bundle of the class's binary by default; override to name another, such as a
  /// package's `Bundle.module` (`NibBundle(bundle: .module)`). `nil` loads nothing.
  open class var nibBundle: NibBundle? { NibBundle(bundle: Bundle(for: self)) }

  /// Where the XIB's classes are looked up.
  open class var nibRegistry: ClassRegistry { .shared }

  /// Creates the view in code and loads its XIB (a failure leaves the view empty and is kept in
  /// ``xibLoadError``).
  public override init(frame: Rect) {
    initializer = "init(frame:)"
    super.init(frame: frame)
    do {
      try loadContent()
    } catch {
      xibLoadError = error
    }
  }

  /// Creates the view from a nib and loads its XIB.
  /// - Throws: what loading the XIB threw.
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
    _ = try bundle.loadNibNamed(Self.nibName, owner: self, registry: Self.nibRegistry)
    guard let base else { return }
    base.frame = bounds
    base.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    addSubview(base)
  }

  /// `base`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(["base": .observedProperty(\XIBView.base)], uniquingKeysWith: { $1 })
  }
}
