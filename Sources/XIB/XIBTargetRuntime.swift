/// The platform a document is designed for, from its `targetRuntime` attribute (or, for archive documents, its
/// `type`). It decides the default class of each element (`label` is a `UILabel` on iOS, an `NSTextField` on macOS)
/// and the meaning of the fixed placeholder ids.
public enum XIBTargetRuntime: String, Sendable, Hashable, CaseIterable {
  /// UIKit on iOS (`iOS.CocoaTouch`, also `iOS.CocoaTouch.iPad`).
  case iOS
  /// UIKit on tvOS (`AppleTV`).
  case tvOS
  /// AppKit on macOS (`MacOSX.Cocoa`).
  case macOS

  /// `true` for the UIKit platforms.
  public var usesUIKit: Bool { self != .macOS }

  /// The Apple class an element stands for when it has no `customClass`, on this platform.
  ///
  /// Elements in the catalog (see `Specs/XIBFormat.md`, XIB-020) map by table; any other element name maps to the
  /// platform prefix (`UI` or `NS`) followed by the name with its first letter upper-cased.
  /// - Parameter elementName: an element name such as `label` or `tableViewCell`.
  /// - Returns: a class name such as `UILabel`.
  public func defaultClassName(forElement elementName: String) -> String {
    ElementCatalog.defaultClassName(forElement: elementName, runtime: self)
  }
}
