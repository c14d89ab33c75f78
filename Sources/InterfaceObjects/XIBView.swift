import ArchiveCoding
import Foundation
import NibLoading
import Synchronization

/// A view that loads its own XIB, named after its dynamic class, with itself as File's Owner: the XIB's root view
/// is connected to ``base``, added as a subview with `frame = bounds` and a flexible width and height. Both
/// initialisers load it, so the view works from code (`init(frame:)`) and inside other XIBs as a custom class
/// (`init(coder:)`) (NIB-060). Subclass it and give the subclass a XIB of the same name among its module's
/// resources, where it is found without further code (NIB-332):
///
///     final class ProfileBadgeView: XIBView {
///       @Outlet var nameLabel: Label?
///     }
///
/// A XIB that does not load makes `init(coder:)` throw; from `init(frame:)`, which cannot, the view stays empty,
/// keeps the error in ``viewLoadError`` and reports it once (``nibOptions``, NIB-331).
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
  /// Why loading the XIB from `init(frame:)` failed, or `nil` (`init(coder:)` throws instead) (NIB-331).
  public private(set) var viewLoadError: (any Error)?
  /// ``viewLoadError``, under its former name.
  @available(*, deprecated, renamed: "viewLoadError")
  public var xibLoadError: (any Error)? { viewLoadError }

  /// How deep XIB views may load inside one another.
  public static let maximumNesting = 16
  private static let nesting = Mutex(0)

  /// The XIB's name: the class's name, without its module.
  open class var nibName: String { String(describing: self) }

  /// Where the XIB is found: the resources of the module that defines the class (its SwiftPM `Bundle.module`), else
  /// the bundle of its binary (`NibBundle(for:)`, NIB-332); override to name another.
  /// `nil` loads nothing.
  open class var nibBundle: NibBundle? { NibBundle(for: self) }

  /// Where the XIB's classes are looked up.
  open class var nibRegistry: ClassRegistry { .shared }

  /// The options of the XIB's instantiation: where its warnings and a load error `init(frame:)` cannot throw go
  /// (standard error by default), and whether that error stops the process (NIB-103, NIB-331).
  open class var nibOptions: NibOptions { NibOptions() }

  /// Creates the view in code and loads its XIB (a failure leaves the view empty, is kept in ``viewLoadError`` and
  /// is reported once through ``nibOptions``, NIB-331).
  public override init(frame: Rect) {
    initializer = "init(frame:)"
    super.init(frame: frame)
    do {
      try loadContent()
    } catch {
      viewLoadError = error
      Self.nibOptions.reportLoadFailure("\(type(of: self)) could not load its XIB \"\(Self.nibName)\": \(error)")
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
    _ = try bundle.loadNibNamed(Self.nibName, owner: self, options: Self.nibOptions, registry: Self.nibRegistry)
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
