import Foundation
import InterfaceObjects
import NibLoading

/// A self-loading view: its content comes from `ProfileBadgeView.xib`, found with the scenarios.
public final class ProfileBadgeView: XIBView {
  /// The badge's label (an outlet of the XIB).
  @Outlet public var nameLabel: Label?

  /// The scenarios' folder.
  public override class var nibBundle: NibBundle? { try? ScenarioResources.bundle() }
}
