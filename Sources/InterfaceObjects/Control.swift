import ArchiveCoding
import NibLoading

/// Events a control sends actions for (`UIControl.Event`), with UIKit's bit values.
public struct ControlEvents: OptionSet, Hashable, Sendable {
  /// The raw bits.
  public let rawValue: UInt64
  /// Creates events from raw bits.
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  /// Touch down.
  public static let touchDown = ControlEvents(rawValue: 1 << 0)
  /// Touch up inside: a tap.
  public static let touchUpInside = ControlEvents(rawValue: 1 << 6)
  /// Touch up outside.
  public static let touchUpOutside = ControlEvents(rawValue: 1 << 7)
  /// The value changed (switches, sliders).
  public static let valueChanged = ControlEvents(rawValue: 1 << 12)
  /// The primary action (iOS 9+).
  public static let primaryActionTriggered = ControlEvents(rawValue: 1 << 13)
  /// Editing began.
  public static let editingDidBegin = ControlEvents(rawValue: 1 << 16)
  /// Editing changed.
  public static let editingChanged = ControlEvents(rawValue: 1 << 17)
  /// Editing ended.
  public static let editingDidEnd = ControlEvents(rawValue: 1 << 18)
  /// Return pressed.
  public static let editingDidEndOnExit = ControlEvents(rawValue: 1 << 19)

  /// The events of a XIB `eventType` name (`"touchUpInside"`).
  public init?(name: String) {
    let names: [String: ControlEvents] = [
      "touchDown": .touchDown, "touchUpInside": .touchUpInside, "touchUpOutside": .touchUpOutside,
      "valueChanged": .valueChanged, "primaryActionTriggered": .primaryActionTriggered,
      "editingDidBegin": .editingDidBegin, "editingChanged": .editingChanged, "editingDidEnd": .editingDidEnd,
      "editingDidEndOnExit": .editingDidEndOnExit,
    ]
    guard let events = names[name] else { return nil }
    self = events
  }
}

/// A view that sends actions to targets for events, in the role of `UIControl` / `NSControl`.
open class Control: View, ActionSending {
  /// One registered target-action pair.
  public struct TargetAction {
    /// The target; `nil` sends the action up the responder chain.
    public weak var target: AnyObject?
    /// Whether the target was `nil` when registered.
    public let usesResponderChain: Bool
    /// The action's name (`"dismiss:"`).
    public let action: String
    /// The events it is sent for.
    public let events: ControlEvents
  }

  /// The registered target-action pairs, in order.
  public var targetActions: [TargetAction] {
    guard let first = firstPair else { return [] }
    let pair = TargetAction(
      target: firstTarget, usesResponderChain: first.usesResponderChain, action: first.action, events: first.events)
    return moreTargetActions.isEmpty ? [pair] : [pair] + moreTargetActions
  }
  // The first pair is stored in the control itself: most controls have one, and an array for it would be an
  // allocation per control on every instantiation of a nib. Its target is a weak property of the control's own,
  // beside the rest of the pair, each assigned whole: a weak reference inside a stored struct keeps runtime
  // exclusivity checks on every access to the struct, which these properties do not need.
  private weak var firstTarget: AnyObject?
  private var firstPair: (usesResponderChain: Bool, action: String, events: ControlEvents)?
  private var moreTargetActions: [TargetAction] = []
  // No default values: each initialiser's store before `super.init` is the initialisation, which needs no
  // exclusivity check.
  /// Whether the control is enabled. Assigning it notifies the observers of `enabled` (NIB-105).
  public var isEnabled: Bool {
    willSet { propertyWillChange("enabled") }
    didSet { propertyDidChange("enabled") }
  }
  /// Whether the control is selected.
  public var isSelected: Bool {
    willSet { propertyWillChange("selected") }
    didSet { propertyDidChange("selected") }
  }

  /// The event an action without an event type is sent for: `touchUpInside` for buttons, `valueChanged` for
  /// value controls.
  open class var defaultEvents: ControlEvents { .touchUpInside }

  /// Creates a control in code.
  public override init(frame: Rect) {
    isEnabled = true
    isSelected = false
    super.init(frame: frame)
  }

  /// Reads `enabled` and `selected` (or `UIDisabled`, `UISelected`).
  public required init(coder: any DecodingCoder) throws {
    let values = try coder.decodePlainFields(Values.self)
    isEnabled = values.isEnabled ?? true
    isSelected = values.isSelected ?? false
    try super.init(coder: coder)
  }

  /// `enabled` (or `UIDisabled`) and `selected`, plain fields (NIB-300).
  private final class Values: PlainFields {
    let isEnabled: Bool?
    let isSelected: Bool?

    init(coder: any DecodingCoder) throws {
      if let enabled = try coder.flag(["enabled"]) {
        isEnabled = enabled
      } else if let disabled = try coder.flag(["UIDisabled"]) {
        isEnabled = !disabled
      } else {
        isEnabled = nil
      }
      isSelected = try coder.flag(["selected", "UISelected"])
    }
  }

  /// Registers a target and action for events (UIKit's `addTarget(_:action:for:)`).
  public func addTarget(_ target: AnyObject?, action: String, for events: ControlEvents) {
    if firstPair == nil {
      firstTarget = target
      firstPair = (target == nil, action, events)
    } else {
      moreTargetActions.append(
        TargetAction(target: target, usesResponderChain: target == nil, action: action, events: events))
    }
  }

  /// Registers a target and action for an event mask from a nib (`nil`: the control's default events).
  public func addTarget(_ target: AnyObject?, action: String, for events: UInt64?) {
    addTarget(target, action: action, for: events.map { ControlEvents(rawValue: $0) } ?? Self.defaultEvents)
  }

  /// Removes a target's registrations.
  public func removeTarget(_ target: AnyObject?, action: String? = nil) {
    var kept = targetActions
    kept.removeAll { $0.target === target && (action == nil || $0.action == action) }
    setFirst(kept.first)
    moreTargetActions = Array(kept.dropFirst())
  }

  /// Stores `pair` as the first target-action pair (`nil`: none).
  private func setFirst(_ pair: TargetAction?) {
    if let pair {
      firstTarget = pair.target
      firstPair = (pair.usesResponderChain, pair.action, pair.events)
    } else {
      firstTarget = nil
      firstPair = nil
    }
  }

  /// Sends the actions registered for any of `events`: to the target, or up the responder chain from this
  /// control when the target was `nil`. Then, when `events` hold the control's ``defaultEvents`` or
  /// `primaryActionTriggered`, performs the segues the storyboard connects to the control (NIB-131).
  public func sendActions(for events: ControlEvents) {
    guard isEnabled else { return }
    let event = ActionEvent(controlEvents: events)
    for pair in targetActions where !pair.events.isDisjoint(with: events) {
      if pair.usesResponderChain {
        perform(action: pair.action, sender: self, event: event)
      } else if let target = pair.target as? Responder {
        target.perform(action: pair.action, sender: self, event: event)
      }
    }
    if !events.isDisjoint(with: Self.defaultEvents.union(.primaryActionTriggered)) {
      performTriggeredSegues(from: self)
    }
  }

  /// `enabled`, `selected`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      ["enabled": .observedProperty(\Control.isEnabled), "selected": .observedProperty(\Control.isSelected)],
      uniquingKeysWith: { $1 })
  }
}

/// The states a button's title, image and colour can vary by.
public enum ControlState: String, Hashable, Sendable, CaseIterable {
  /// The normal state.
  case normal
  /// Highlighted (being touched).
  case highlighted
  /// Selected.
  case selected
  /// Disabled.
  case disabled
}
