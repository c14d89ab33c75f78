import ArchiveCoding
import NibLoading

/// Stand-ins for the UIKit and AppKit classes the catalog does not model in detail (navigation bars, pickers,
/// web views, layout guides…): they keep their place in the view hierarchy, and accept any outlet, runtime
/// attribute and action, storing them, so real nibs load (NIB-021).
public protocol StandIn: AnyObject {
  /// Values set for keys the class does not model.
  var storedValues: [String: Any] { get }
}

/// A view stand-in.
public final class StandInView: View, StandIn, ActionSending {
  /// Values set for keys the class does not model.
  public private(set) var storedValues: [String: Any] = [:]
  /// Targets and actions connected to it.
  public private(set) var actions: [(target: AnyObject?, action: String)] = []
  /// Creates a stand-in in code.
  public override init(frame: Rect) { super.init(frame: frame) }
  /// Reads the view's keys.
  public required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  /// Stores the value.
  public func setValue(_ value: Any?, forUndefinedKey key: String) throws { storedValues[key] = value }
  /// Returns the stored value.
  public func value(forUndefinedKey key: String) throws -> Any? { storedValues[key] }
  /// Records the action.
  public func addTarget(_ target: AnyObject?, action: String, for events: UInt64?) { actions.append((target, action)) }
}

/// A control stand-in (segmented controls, steppers, pop-up buttons, date pickers…).
public final class StandInControl: Control, StandIn {
  /// Values set for keys the class does not model.
  public private(set) var storedValues: [String: Any] = [:]
  /// Creates a stand-in in code.
  public override init(frame: Rect) { super.init(frame: frame) }
  /// Reads the control's keys.
  public required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  /// Value changed by default.
  public override class var defaultEvents: ControlEvents { .valueChanged }
  /// Stores the value.
  public func setValue(_ value: Any?, forUndefinedKey key: String) throws { storedValues[key] = value }
  /// Returns the stored value.
  public func value(forUndefinedKey key: String) throws -> Any? { storedValues[key] }
}

/// A view-controller stand-in (navigation, tab bar, table view and page controllers…).
public final class StandInViewController: ViewController, StandIn {
  /// Values set for keys the class does not model.
  public private(set) var storedValues: [String: Any] = [:]
  /// Creates a stand-in in code.
  public override init(nibName: String? = nil, bundle: NibBundle? = nil) { super.init(nibName: nibName, bundle: bundle) }
  /// Reads the controller's keys.
  public required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  /// Accepts every action.
  public override class var actionHandlers: [String: ActionHandler] { [:] }
  /// Stores the value.
  public func setValue(_ value: Any?, forUndefinedKey key: String) throws { storedValues[key] = value }
  /// Returns the stored value.
  public func value(forUndefinedKey key: String) throws -> Any? { storedValues[key] }
}

/// A non-view stand-in (navigation items, bar button items, layout guides, formatters, custom objects…).
public final class StandInObject: Responder, StandIn, ActionSending {
  /// Values set for keys the class does not model.
  public private(set) var storedValues: [String: Any] = [:]
  /// Targets and actions connected to it.
  public private(set) var actions: [(target: AnyObject?, action: String)] = []
  /// Creates a stand-in in code.
  public override init() { super.init() }
  /// Reads nothing.
  public required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  /// Stores the value.
  public func setValue(_ value: Any?, forUndefinedKey key: String) throws { storedValues[key] = value }
  /// Returns the stored value.
  public func value(forUndefinedKey key: String) throws -> Any? { storedValues[key] }
  /// Records the action.
  public func addTarget(_ target: AnyObject?, action: String, for events: UInt64?) { actions.append((target, action)) }
}
