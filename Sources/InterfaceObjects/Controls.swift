import ArchiveCoding
import NibLoading

/// A text label, in the role of `UILabel` (and of AppKit's label-style `NSTextField`).
open class Label: View {
  // The stored properties have no default value (`Optional<…>` has no implicit `nil`), so that each initialiser's
  // store before `super.init` is the property's initialisation, which needs no exclusivity check.
  /// The text. Assigning it notifies the observers of `text` (NIB-105).
  public var text: Optional<String> {
    willSet { propertyWillChange("text") }
    didSet { propertyDidChange("text") }
  }
  /// The text colour.
  public var textColor: Optional<Color> {
    willSet { propertyWillChange("textColor") }
    didSet { propertyDidChange("textColor") }
  }
  /// The font.
  public var font: Font
  /// Lines shown; 0 means as many as needed.
  public var numberOfLines: Int {
    willSet { propertyWillChange("numberOfLines") }
    didSet { propertyDidChange("numberOfLines") }
  }
  /// The alignment name (`"natural"`, `"center"`).
  public var textAlignment: String

  /// Creates a label in code.
  public override init(frame: Rect) {
    text = nil
    textColor = nil
    font = .system
    numberOfLines = 1
    textAlignment = "natural"
    super.init(frame: frame)
  }

  /// Reads `text` (`UIText`), `textColor`, `fontDescription`, `numberOfLines`, `textAlignment`.
  public required init(coder: any DecodingCoder) throws {
    let values = try coder.decodePlainFields(Values.self)
    text = values.text
    textColor = values.textColor
    font = values.font ?? .system
    numberOfLines = values.numberOfLines ?? 1
    textAlignment = values.textAlignment ?? "natural"
    try super.init(coder: coder)
  }

  /// What `init(coder:)` reads (all of it from plain fields, NIB-300).
  private final class Values: PlainFields {
    let text: String?
    let textColor: Color?
    let font: Font?
    let numberOfLines: Int?
    let textAlignment: String?

    init(coder: any DecodingCoder) throws {
      text = try coder.string(["text", "UIText", "title", "NSContents"])
      textColor = try coder.color(["textColor", "UITextColor", "NSTextColor"])
      font = try coder.font(["fontDescription", "font", "UIFont", "NSFont"])
      numberOfLines = try coder.number(["numberOfLines", "UINumberOfLines"]).map { Int($0) }
      textAlignment = try coder.string(["textAlignment"])
    }
  }

  /// Writes `text` after the view's keys.
  open override func encode(with coder: any EncodingCoder) {
    super.encode(with: coder)
    coder.encode(text, forKey: "text")
    coder.encode(numberOfLines, forKey: "numberOfLines")
  }

  /// `text`, `textColor`, `numberOfLines`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "text": .observedProperty(\Label.text), "textColor": .observedProperty(\Label.textColor),
        "numberOfLines": .observedProperty(\Label.numberOfLines),
      ], uniquingKeysWith: { $1 })
  }
}

/// A push button with a title per state, in the role of `UIButton` / `NSButton`.
open class Button: Control {
  /// The title of each state: one stored property per state (a dictionary would cost an allocation and hashing
  /// per button).
  private struct Titles {
    var normal, highlighted, selected, disabled: String?

    /// The titles a nib gives: `<state>` records' titles (and `UITitle`, AppKit `title`), all from fields that
    /// refer to no object (NIB-300).
    final class Decoded: PlainFields {
      let titles: Titles

      init(coder: any DecodingCoder) throws {
        var titles = Titles()
        for state in [ControlState.normal, .highlighted, .selected, .disabled] {
          if let record = try coder.record(state.rawValue), let title = record.string("title") {
            titles[state] = title
          }
        }
        if titles.normal == nil, let title = try coder.string(["title", "UITitle", "NSContents"]) {
          titles.normal = title
        }
        self.titles = titles
      }
    }

    subscript(state: ControlState) -> String? {
      get {
        switch state {
        case .normal: normal
        case .highlighted: highlighted
        case .selected: selected
        case .disabled: disabled
        }
      }
      set {
        switch state {
        case .normal: normal = newValue
        case .highlighted: highlighted = newValue
        case .selected: selected = newValue
        case .disabled: disabled = newValue
        }
      }
    }
  }

  // No default value: each initialiser's store before `super.init` is its initialisation (no exclusivity check).
  private var titles: Titles

  /// Creates a button in code.
  public override init(frame: Rect) {
    titles = Titles()
    super.init(frame: frame)
  }

  /// Reads `<state key="normal" title=…>` records (and `UITitle`, AppKit `title`).
  public required init(coder: any DecodingCoder) throws {
    titles = try coder.decodePlainFields(Titles.Decoded.self).titles
    try super.init(coder: coder)
  }

  /// The title for a state, falling back to the normal title.
  public func title(for state: ControlState) -> String? { titles[state] ?? titles[.normal] }

  /// Sets the title for a state.
  public func setTitle(_ title: String?, for state: ControlState) { titles[state] = title }

  /// `title` (the normal title).
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "title": .custom(
          Button.self, get: { $0.title(for: .normal) },
          set: { button, value in button.setTitle(value as? String, for: .normal) })
      ], uniquingKeysWith: { $1 })
  }
}

/// An image view, in the role of `UIImageView` / `NSImageView`. It is a control, as `NSImageView` is an `NSControl`
/// (an editable image view sends its action when an image is dropped on it), so it takes a target and an action.
open class ImageView: Control {
  // (No implicit `nil` default: each initialiser's store before `super.init` is its initialisation.)
  /// The image.
  public var image: Optional<Image> {
    willSet { propertyWillChange("image") }
    didSet { propertyDidChange("image") }
  }

  /// Creates an image view in code.
  public override init(frame: Rect) {
    image = nil
    super.init(frame: frame)
  }

  /// Reads `image` (a name).
  public required init(coder: any DecodingCoder) throws {
    image = try coder.decodePlainFields(Values.self).image
    try super.init(coder: coder)
  }

  /// The image named by `image` (`UIResourceName`), a plain field (NIB-300).
  private final class Values: PlainFields {
    let image: Image?
    init(coder: any DecodingCoder) throws {
      image = try coder.string(["image", "UIResourceName"]).map { Image(named: $0) }
    }
  }

  /// `image`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(["image": .observedProperty(\ImageView.image)], uniquingKeysWith: { $1 })
  }
}

/// An editable text field, in the role of `UITextField` / `NSTextField`.
open class TextField: Control {
  /// The text.
  public var text: String? {
    willSet { propertyWillChange("text") }
    didSet { propertyDidChange("text") }
  }
  /// The placeholder.
  public var placeholder: String? {
    willSet { propertyWillChange("placeholder") }
    didSet { propertyDidChange("placeholder") }
  }
  /// The delegate (an outlet).
  public weak var delegate: AnyObject? {
    willSet { propertyWillChange("delegate") }
    didSet { propertyDidChange("delegate") }
  }

  /// Creates a text field in code.
  public override init(frame: Rect) { super.init(frame: frame) }

  /// Reads `text` and `placeholder`.
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    text = try coder.string(["text", "UIText", "title"])
    placeholder = try coder.string(["placeholder", "UIPlaceholder", "placeholderString"])
  }

  /// Editing changed by default.
  open override class var defaultEvents: ControlEvents { .editingChanged }

  /// `text`, `placeholder`, `delegate`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "text": .observedProperty(\TextField.text), "placeholder": .observedProperty(\TextField.placeholder),
        "delegate": .observedProperty(\TextField.delegate),
      ], uniquingKeysWith: { $1 })
  }
}

/// An on/off switch, in the role of `UISwitch`.
open class Switch: Control {
  /// Whether it is on.
  public var isOn = false {
    willSet { propertyWillChange("on") }
    didSet { propertyDidChange("on") }
  }

  /// Creates a switch in code.
  public override init(frame: Rect) { super.init(frame: frame) }

  /// Reads `on` (`UISwitchOn`).
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    isOn = try coder.flag(["on", "UISwitchOn"]) ?? false
  }

  /// Value changed by default.
  open override class var defaultEvents: ControlEvents { .valueChanged }

  /// Flips the switch and sends `valueChanged`.
  public func toggle() {
    isOn.toggle()
    sendActions(for: .valueChanged)
  }

  /// `on`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(["on": .observedProperty(\Switch.isOn)], uniquingKeysWith: { $1 })
  }
}

/// A slider, in the role of `UISlider` / `NSSlider`.
open class Slider: Control {
  /// The value.
  public var value = 0.0 {
    willSet { propertyWillChange("value") }
    didSet { propertyDidChange("value") }
  }
  /// The smallest value.
  public var minimumValue = 0.0 {
    willSet { propertyWillChange("minimumValue") }
    didSet { propertyDidChange("minimumValue") }
  }
  /// The largest value.
  public var maximumValue = 1.0 {
    willSet { propertyWillChange("maximumValue") }
    didSet { propertyDidChange("maximumValue") }
  }

  /// Creates a slider in code.
  public override init(frame: Rect) { super.init(frame: frame) }

  /// Reads `value`, `minValue`, `maxValue`.
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    value = try coder.number(["value", "UIValue", "doubleValue"]) ?? 0
    minimumValue = try coder.number(["minValue", "UIMinValue"]) ?? 0
    maximumValue = try coder.number(["maxValue", "UIMaxValue"]) ?? 1
  }

  /// Value changed by default.
  open override class var defaultEvents: ControlEvents { .valueChanged }

  /// `value`, `minimumValue`, `maximumValue`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "value": .observedProperty(\Slider.value), "minimumValue": .observedProperty(\Slider.minimumValue),
        "maximumValue": .observedProperty(\Slider.maximumValue),
      ], uniquingKeysWith: { $1 })
  }
}

/// A gesture recogniser, which sends plain target-action messages (`UITapGestureRecognizer` and friends).
open class GestureRecognizer: Responder, ActionSending {
  /// Registered targets and actions.
  public private(set) var targets: [(target: AnyObject?, action: String)] = []
  /// Creates a recogniser in code.
  public override init() { super.init() }
  /// Reads nothing beyond the base.
  public required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }
  /// Registers a target and action (event masks do not apply).
  public func addTarget(_ target: AnyObject?, action: String, for events: UInt64?) {
    targets.append((target, action))
  }
}

/// A layout constraint. Its items refer to other objects, often to the view that owns it, so they are decoded
/// in the link phase (`decodeDeferredObject(forKey:allowedClasses:assign:)`). In a XIB an item names its object by
/// id (`firstItem="lb0"`); a nib's coder resolves it to that object.
open class LayoutConstraint: Responder {
  /// The first item (held weakly, as UIKit's constraints hold theirs: `nil` once the item is gone).
  public var firstItem: AnyObject? {
    get { firstIsInstaller ? installer : firstInSubtree?.view ?? firstWeakItem }
    set {
      firstInSubtree = nil
      firstIsInstaller = false
      firstWeakItem = newValue
    }
  }
  /// The second item (held weakly).
  public var secondItem: AnyObject? {
    get { secondIsInstaller ? installer : secondInSubtree?.view ?? secondWeakItem }
    set {
      secondInSubtree = nil
      secondIsInstaller = false
      secondWeakItem = newValue
    }
  }
  // An item that the installer keeps alive (the installer itself, or a view of its subtree) is held without a weak
  // reference (NIB-044): a weak reference gives its target a side table, through which every later retain and
  // release of the target goes. Before the installer can stop keeping it alive, the item becomes a weak reference
  // (`releaseItems`): when the installer replaces its constraint list, when a view leaves its subtree, and when the
  // installer goes while something else still holds the constraint. The fields below are only ever assigned whole,
  // which lets the compiler drop their runtime exclusivity checks.
  /// The first item when nothing in particular keeps it alive: `nil` once it is gone. Ignored while
  /// ``firstInSubtree`` or ``firstIsInstaller`` holds the item (the link phase leaves it as it was rather than pay
  /// for a weak store of nil).
  private weak var firstWeakItem: AnyObject?
  /// The second item when nothing in particular keeps it alive, as ``firstWeakItem`` is the first.
  private weak var secondWeakItem: AnyObject?
  /// The first item when it is a view of the installer's subtree other than the installer.
  private var firstInSubtree: UnownedView?
  /// The second item when it is a view of the installer's subtree other than the installer.
  private var secondInSubtree: UnownedView?
  /// Whether the first item is the installer (held by ``installerReference``).
  private var firstIsInstaller = false
  /// Whether the second item is the installer.
  private var secondIsInstaller = false
  /// The view that installed this constraint while decoding (its first), which keeps the items of its subtree
  /// alive; `nil` once they are all weak references.
  private var installerReference: UnownedView?
  /// The installer's identity, compared while the installer is going (when reading ``installerReference`` would
  /// trap).
  private var installerIdentity: ObjectIdentifier?
  /// The installer, while it keeps items alive.
  private var installer: View? { installerReference?.view }
  /// The first attribute (`"leading"`, `"width"`).
  public var firstAttribute: String
  // (This and others spelled `Optional<…>`, which has no implicit `nil` default: see `init(coder:)`.)
  /// The second attribute.
  public var secondAttribute: Optional<String>
  /// The relation (`"equal"` by default).
  public var relation: String
  /// The multiplier.
  public var multiplier: Double
  /// The constant.
  public var constant: Double
  /// The priority (1000 = required).
  public var priority: Double
  /// The identifier.
  public var identifier: Optional<String>

  /// Reads the XIB `<constraint>` attributes or UIKit's `NSFirstItem`, `NSConstant`…; a missing multiplier is
  /// 1, a missing constant 0, a missing priority 1000; multipliers may be ratios (`"15:16"`, `"1/3"`).
  public required init(coder: any DecodingCoder) throws {
    // Everything is read and stored before `super.init` (the responder reads no key). The non-optional properties
    // have no default value, so that each store is the property's initialisation, which needs no exclusivity check
    // (an assignment over a default needs one).
    let fields = try coder.decodePlainFields(Fields.self)
    let allowed = coder.requiresSecureCoding ? coder.registry.allowedClassNames(for: [AnyObject.self]) : nil
    if let key = fields.firstItemKey {
      try coder.decodeDeferredObject(forKey: key, allowedClasses: allowed, assign: LayoutConstraint.linkFirstItem)
    }
    if let key = fields.secondItemKey {
      try coder.decodeDeferredObject(forKey: key, allowedClasses: allowed, assign: LayoutConstraint.linkSecondItem)
    }
    firstAttribute = fields.firstAttribute
    secondAttribute = fields.secondAttribute
    relation = fields.relation
    multiplier = fields.multiplier
    constant = fields.constant
    priority = fields.priority
    identifier = fields.identifier
    try super.init(coder: coder)
  }

  /// What `init(coder:)` reads from the plain fields, and which keys hold the items it links (NIB-300).
  private final class Fields: PlainFields {
    let firstAttribute: String
    let secondAttribute: String?
    let relation: String
    let multiplier: Double
    let constant: Double
    let priority: Double
    let identifier: String?
    /// The key of the first item (a XIB's `firstItem`, a compiled nib's `NSFirstItem`) and of the second, when present.
    let firstItemKey: String?
    let secondItemKey: String?

    init(coder: any DecodingCoder) throws {
      firstItemKey = coder.firstKey(["firstItem", "NSFirstItem"])
      secondItemKey = coder.firstKey(["secondItem", "NSSecondItem"])
      firstAttribute =
        try coder.string(["firstAttribute"]) ?? String(Int(try coder.number(["NSFirstAttribute"]) ?? 0))
      secondAttribute = try coder.string(["secondAttribute"])
      relation = try coder.string(["relation"]) ?? "equal"
      if let text = try coder.string(["multiplier"]) {
        multiplier = LayoutConstraint.parseMultiplier(text) ?? 1
      } else {
        multiplier = try coder.number(["NSMultiplier"]) ?? 1
      }
      constant = try coder.number(["constant", "NSConstant"]) ?? 0
      priority = try coder.number(["priority", "NSPriority"]) ?? 1000
      identifier = try coder.string(["identifier", "NSLayoutIdentifier"])
    }
  }

  private static func linkFirstItem(_ object: AnyObject, _ item: AnyObject?) throws {
    try constraint(object, "firstItem").linkFirstItem(item)
  }

  private static func linkSecondItem(_ object: AnyObject, _ item: AnyObject?) throws {
    try constraint(object, "secondItem").linkSecondItem(item)
  }

  /// Sets the first item from the link phase: without a weak reference when the installer keeps it alive.
  private func linkFirstItem(_ item: AnyObject?) {
    switch holder(of: item) {
    case .none: firstItem = item
    case .installer:
      firstInSubtree = nil
      firstIsInstaller = true
    case .subtree(let view):
      firstInSubtree = UnownedView(view)
      firstIsInstaller = false
    }
  }

  /// Sets the second item from the link phase, as ``linkFirstItem(_:)`` does the first.
  private func linkSecondItem(_ item: AnyObject?) {
    switch holder(of: item) {
    case .none: secondItem = item
    case .installer:
      secondInSubtree = nil
      secondIsInstaller = true
    case .subtree(let view):
      secondInSubtree = UnownedView(view)
      secondIsInstaller = false
    }
  }

  /// How the installer keeps an item alive.
  private enum Holder {
    /// It does not: the item is held weakly.
    case none
    /// The item is the installer.
    case installer
    /// The item is a view of the installer's subtree.
    case subtree(View)
  }

  /// How the installer keeps `item` alive when it is the installer or a view of its subtree (while it holds this
  /// constraint).
  ///
  /// The installer is recognised by its identity (``installerIdentity`` is set only while it is alive), so neither
  /// test reads the unowned reference to it. Inlined, so that the view of a subtree goes to the caller's store
  /// without a reference of its own.
  @inline(__always)
  private func holder(of item: AnyObject?) -> Holder {
    guard let installerIdentity, let item else { return .none }
    if ObjectIdentifier(item) == installerIdentity { return .installer }
    guard let view = item as? View, view.isDescendant(ofViewWith: installerIdentity) else { return .none }
    return .subtree(view)
  }

  // MARK: Installation (NIB-044)

  /// Called by a view that lists this constraint when it is decoded, with an unowned reference to itself; the first
  /// such view installs it.
  func install(on view: View, reference: UnownedView) {
    guard installerIdentity == nil else { return }
    installerReference = reference
    installerIdentity = ObjectIdentifier(view)
    // The link phase may hold items of the view's subtree without weak references from here on.
    view.holdsUnretainedItems = true
  }

  /// Whether `view` installed this constraint and may hold items of its subtree without a weak reference.
  func isInstalled(on view: View) -> Bool { installerIdentity == ObjectIdentifier(view) }

  /// Makes the items that `view`, the installer, keeps alive weak references, and forgets the installer.
  /// - Parameter whichIsGoing: `true` from the installer's `deinit`: an item that is the installer becomes `nil`.
  func releaseItems(installedBy view: View, whichIsGoing: Bool = false) {
    guard isInstalled(on: view) else { return }
    // The items in the installer's subtree are alive here: the installer still holds its subviews.
    if firstIsInstaller {
      firstItem = whichIsGoing ? nil : view
    } else if let item = firstInSubtree?.view {
      firstItem = item
    }
    if secondIsInstaller {
      secondItem = whichIsGoing ? nil : view
    } else if let item = secondInSubtree?.view {
      secondItem = item
    }
    installerReference = nil
    installerIdentity = nil
  }

  /// Forgets the items that `view`, the installer, kept alive, and the installer, without making weak references:
  /// for a constraint that goes with its installer, which may still be reached while the installer's subviews go.
  func forgetItems(installedBy view: View) {
    guard isInstalled(on: view) else { return }
    firstInSubtree = nil
    firstIsInstaller = false
    secondInSubtree = nil
    secondIsInstaller = false
    installerReference = nil
    installerIdentity = nil
  }

  /// The object a link is for, as a constraint. (Inlined, so that the constraint is used where the caller holds it,
  /// without a reference of its own.)
  @inline(__always)
  private static func constraint(_ object: AnyObject, _ key: String) throws -> LayoutConstraint {
    guard let constraint = object as? LayoutConstraint else {
      throw ArchiveError(
        .typeMismatch, "the decoded object is a \(type(of: object)), not the LayoutConstraint the key path expects",
        at: .init(keyPath: key))
    }
    return constraint
  }

  static func parseMultiplier(_ text: String) -> Double? {
    for separator in [":", "/"] where text.contains(separator) {
      let parts = text.split(separator: Character(separator)).compactMap { Double($0) }
      guard parts.count == 2, parts[1] != 0 else { return nil }
      return parts[0] / parts[1]
    }
    return Double(text)
  }
}
