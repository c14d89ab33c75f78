import ArchiveCoding
import NibLoading

// Stand-ins for the UIKit and AppKit classes the catalog does not model in detail (navigation bars, pickers,
// web views, layout guides…): they keep their place in the view hierarchy and accept any outlet, runtime
// attribute and action, keeping the values in `unknownClassValues`, so real nibs load (NIB-021).

/// A view stand-in.
public final class StandInView: View, ActionSending {
  /// Targets and actions connected to it.
  public private(set) var actions: [(target: AnyObject?, action: String)] = []
  /// Creates a stand-in in code.
  public override init(frame: Rect) {
    super.init(frame: frame)
    adoptUnknownClass("UIView")
  }
  /// Reads the view's keys.
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    adoptUnknownClass("UIView")
  }
  /// Records the action.
  public func addTarget(_ target: AnyObject?, action: String, for events: UInt64?) { actions.append((target, action)) }
}

/// A control stand-in (segmented controls, steppers, pop-up buttons, date pickers…).
public final class StandInControl: Control {
  /// Creates a stand-in in code.
  public override init(frame: Rect) {
    super.init(frame: frame)
    adoptUnknownClass("UIControl")
  }
  /// Reads the control's keys.
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    adoptUnknownClass("UIControl")
  }
  /// Value changed by default.
  public override class var defaultEvents: ControlEvents { .valueChanged }
}

/// A view-controller stand-in (navigation, tab bar, table view and page controllers…).
public final class StandInViewController: ViewController {
  /// Creates a stand-in in code.
  public override init(nibName: String? = nil, nibBundle: NibBundle? = nil) {
    super.init(nibName: nibName, nibBundle: nibBundle)
    adoptUnknownClass("UIViewController")
  }
  /// Reads the controller's keys.
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    adoptUnknownClass("UIViewController")
  }
}

/// A non-view stand-in (navigation items, bar button items, layout guides, formatters, custom objects…).
public final class StandInObject: Responder, ActionSending {
  /// Targets and actions connected to it.
  public private(set) var actions: [(target: AnyObject?, action: String)] = []
  /// Creates a stand-in in code.
  public override init() {
    super.init()
    adoptUnknownClass("NSObject")
  }
  /// Reads nothing.
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    adoptUnknownClass("NSObject")
  }
  /// Records the action.
  public func addTarget(_ target: AnyObject?, action: String, for events: UInt64?) { actions.append((target, action)) }
}
