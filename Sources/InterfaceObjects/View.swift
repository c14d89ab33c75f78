import ArchiveCoding
import Foundation
import KeyedArchive
import NibLoading

/// A rectangular view in a hierarchy, in the role of `UIView` / `NSView`.
///
/// Frames use a top-left origin. When a view's size changes, its subviews are resized by their autoresizing
/// masks; `layoutSubviews()` runs on the next `layoutIfNeeded()` after `setNeedsLayout()`.
open class View: Responder {
  /// The frame in the superview's coordinates. Setting it resizes subviews by their autoresizing masks.
  open var frame: Rect {
    willSet { propertyWillChange("frame") }
    didSet {
      propertyDidChange("frame")
      if frame.size != oldValue.size {
        resizeSubviews(from: oldValue.size)
        setNeedsLayout()
      }
    }
  }
  /// The view's own coordinate space: origin zero, the frame's size.
  public var bounds: Rect {
    get { Rect(origin: .zero, size: frame.size) }
    set { frame.size = newValue.size }
  }
  /// The centre of the frame.
  public var center: Point {
    get { frame.center }
    set { frame.origin = Point(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
  }
  /// The subviews, back to front.
  public private(set) var subviews: [View] = []
  /// The superview.
  public var superview: View? { superviewStorage?.view }
  // `unowned` rather than `weak`: a weak reference gives its target a side table, which every later retain and
  // release of the target then goes through. The reference is set only while the superview holds this view in
  // `subviews`, and is cleared when the view leaves (`removeFromSuperview()`) and when the superview goes (its
  // `deinit`), so it is never read after its target is gone; were that rule broken, the read would trap, never
  // reach freed memory (NIB-044).
  private var superviewStorage: UnownedView?
  /// The superview's identity, set and cleared with ``superviewStorage``: compared where only the identity matters
  /// (``isDescendant(ofViewWith:)``), without reading the unowned reference, which counts a reference each time.
  private var superviewIdentity: ObjectIdentifier?

  /// Sets or clears the superview reference and its identity together.
  private func setSuperview(_ view: View?) {
    if let view {
      superviewStorage = UnownedView(view)
      superviewIdentity = ObjectIdentifier(view)
    } else {
      superviewStorage = nil
      superviewIdentity = nil
    }
  }
  /// The view controller whose root view this is.
  var owningViewController: ViewController? {
    get { extras?.owningViewController }
    set { if newValue != nil || extras != nil { madeExtras().owningViewController = newValue } }
  }
  /// How the view follows its superview's size changes.
  public var autoresizingMask: AutoresizingMask
  // (Spelled `Optional<…>`, which has no implicit `nil` default: see `init(coder:)`.)
  /// The background colour.
  public var backgroundColor: Optional<Color> {
    willSet { propertyWillChange("backgroundColor") }
    didSet { propertyDidChange("backgroundColor") }
  }
  /// Opacity, 0…1.
  public var alpha: Double {
    willSet { propertyWillChange("alpha") }
    didSet { propertyDidChange("alpha") }
  }
  /// Whether the view is hidden.
  public var isHidden: Bool {
    willSet { propertyWillChange("hidden") }
    didSet { propertyDidChange("hidden") }
  }
  /// A number to find the view by.
  public var tag: Int {
    willSet { propertyWillChange("tag") }
    didSet { propertyDidChange("tag") }
  }
  /// How content is laid out.
  public var contentMode: ContentMode
  /// Whether the view takes part in touch handling.
  public var isUserInteractionEnabled: Bool {
    willSet { propertyWillChange("userInteractionEnabled") }
    didSet { propertyDidChange("userInteractionEnabled") }
  }
  /// Whether the view is positioned by its autoresizing mask rather than by constraints.
  public var translatesAutoresizingMaskIntoConstraints: Bool
  /// Constraints installed on this view.
  ///
  /// A constraint this view installed while being decoded holds those of its items that are this view or views of
  /// its subtree without a weak reference (NIB-044); replacing the list, or a view leaving this view's subtree,
  /// turns those references weak.
  public var constraints: [LayoutConstraint] {
    get { installedConstraints }
    set {
      let kept = Set(newValue.lazy.map(ObjectIdentifier.init))
      for constraint in installedConstraints where !kept.contains(ObjectIdentifier(constraint)) {
        constraint.releaseItems(installedBy: self)
      }
      installedConstraints = newValue
    }
  }
  private var installedConstraints: [LayoutConstraint]
  /// Whether a constraint this view installed may hold an item without a weak reference (NIB-044): set when the
  /// view installs one, cleared when it makes all such items weak.
  var holdsUnretainedItems = false

  /// Makes every item the constraints this view installed hold without a weak reference a weak reference.
  private func releaseUnretainedItems() {
    holdsUnretainedItems = false
    for constraint in installedConstraints { constraint.releaseItems(installedBy: self) }
  }
  /// Gesture recognisers attached to this view.
  public var gestureRecognizers: [GestureRecognizer] {
    get { extras?.gestureRecognizers ?? [] }
    set {
      propertyWillChange("gestureRecognizers")
      if !newValue.isEmpty || extras != nil { madeExtras().gestureRecognizers = newValue }
      propertyDidChange("gestureRecognizers")
    }
  }
  /// The contextual menu (an AppKit outlet).
  public var menu: Menu? {
    get { extras?.menu }
    set {
      propertyWillChange("menu")
      if newValue != nil || extras != nil { madeExtras().menu = newValue }
      propertyDidChange("menu")
    }
  }
  /// The next view in the key-view loop (an AppKit outlet, held weakly).
  public var nextKeyView: View? {
    get { extras?.nextKeyView }
    set {
      propertyWillChange("nextKeyView")
      if newValue != nil || extras != nil { madeExtras().nextKeyView = newValue }
      propertyDidChange("nextKeyView")
    }
  }
  /// What few views have (gesture recognisers, a menu, a key-view link, an owning view controller), made when first
  /// set: one reference to store and release per view instead of four fields, two of them weak.
  private var extras: Extras?

  private final class Extras {
    var gestureRecognizers: [GestureRecognizer] = []
    var menu: Menu?
    weak var nextKeyView: View?
    weak var owningViewController: ViewController?
    var segues: [TriggeredSegue] = []
  }

  /// A segue the view triggers, and its destination when the view's scene holds it (held weakly: the destination
  /// holds the view's controller's graph, or is that controller).
  private struct TriggeredSegue {
    let template: SegueTemplate
    weak var destination: AnyObject?
  }

  private func madeExtras() -> Extras { extras.madeOnFirstUse(Extras.init) }

  /// The backing layer's drawing attributes (`layer.cornerRadius` in runtime attributes).
  public var layer: Layer { layerStorage.madeOnFirstUse(Layer.init) }
  /// Made when first asked for: most views of a nib never set a layer attribute.
  private var layerStorage: Layer?
  /// `true` between `setNeedsLayout()` and the next layout pass.
  public private(set) var needsLayout = true
  /// How many times `layoutSubviews()` ran (for tests).
  package private(set) var layoutCount = 0

  /// Creates a view in code.
  public init(frame: Rect) {
    self.frame = frame
    backgroundColor = nil
    autoresizingMask = []
    alpha = 1
    isHidden = false
    tag = 0
    contentMode = .scaleToFill
    isUserInteractionEnabled = true
    translatesAutoresizingMaskIntoConstraints = true
    installedConstraints = []
    extras = nil
    super.init()
  }

  /// Creates a view from a nib or archive: `frame` (or `UIBounds`/`UICenter`, `NSFrame`), `subviews`,
  /// `backgroundColor`, `alpha`, `hidden`, `tag`, `contentMode`, `autoresizingMask`, `constraints`,
  /// `gestureRecognizers`, `userInteractionEnabled` (see `Specs/NibLoading.md`, NIB-040).
  public required init(coder: any DecodingCoder) throws {
    // The values are stored before `super.init` (the responder reads nothing). The properties set here have no
    // default value, so that each store is the property's initialisation, which needs no exclusivity check (an
    // assignment over a default needs one).
    let fields = try coder.decodePlainFields(Fields.self)
    frame = fields.frame
    backgroundColor = fields.backgroundColor
    alpha = fields.alpha
    isHidden = fields.isHidden
    tag = fields.tag
    isUserInteractionEnabled = fields.isUserInteractionEnabled
    translatesAutoresizingMaskIntoConstraints = fields.translatesAutoresizingMaskIntoConstraints
    contentMode = fields.contentMode
    autoresizingMask = fields.autoresizingMask
    // Most views have none of the collections: only those present are asked for.
    let children = try fields.subviewsKey.flatMap { try coder.decodeObjectReferences(forKey: $0) }?
      .instances(of: View.self)
    installedConstraints =
      try fields.constraintsKey.flatMap { try coder.decodeObjectReferences(forKey: $0) }?
      .instances(of: LayoutConstraint.self) ?? []
    let gestures = try fields.gesturesKey.flatMap { try coder.decodeObjectReferences(forKey: $0) }?
      .instances(of: GestureRecognizer.self)
    if let gestures, !gestures.isEmpty {
      let made = Extras()
      made.gestureRecognizers = gestures
      extras = made
    } else {
      extras = nil
    }
    try super.init(coder: coder)
    // (Most views have neither: they then make no call that holds the view.)
    if let children, !children.isEmpty { adoptSubviews(children) }
    // Their items are linked later, in the link phase, once the whole hierarchy exists (NIB-044).
    if !installedConstraints.isEmpty {
      // The unowned reference to this view is made once for all of them (making one counts a strong reference).
      let reference = UnownedView(self)
      for constraint in installedConstraints { constraint.install(on: self, reference: reference) }
    }
    if let cornerRadius = fields.cornerRadius { layer.cornerRadius = Double(cornerRadius) ?? 0 }
  }

  /// What `init(coder:)` reads from the plain fields (those that refer to no object), and which keys hold the
  /// collections of objects it reads itself (NIB-300).
  private final class Fields: PlainFields {
    let frame: Rect
    let backgroundColor: Color?
    let alpha: Double
    let isHidden: Bool
    let tag: Int
    let isUserInteractionEnabled: Bool
    let translatesAutoresizingMaskIntoConstraints: Bool
    let contentMode: ContentMode
    let autoresizingMask: AutoresizingMask
    let cornerRadius: String?
    /// The keys of the subviews, constraints and gesture recognisers (`nil`: absent). The objects themselves are
    /// decoded afresh by every decoding.
    let subviewsKey: String?
    let constraintsKey: String?
    let gesturesKey: String?

    init(coder: any DecodingCoder) throws {
      frame = try coder.decodeFrame() ?? .zero
      backgroundColor = try coder.color(["backgroundColor", "UIBackgroundColor", "NSBackgroundColor"])
      alpha = try coder.number(["alpha", "UIAlpha"]) ?? 1
      isHidden = try coder.flag(["hidden", "isHidden", "UIHidden", "NSHidden"]) ?? false
      tag = Int(try coder.number(["tag", "UITag", "NSTag"]) ?? 0)
      isUserInteractionEnabled =
        try coder.flag(["userInteractionEnabled", "UIUserInteractionDisabled"]).map {
          coder.containsValue(forKey: "UIUserInteractionDisabled") ? !$0 : $0
        } ?? true
      translatesAutoresizingMaskIntoConstraints =
        try coder.flag([
          "translatesAutoresizingMaskIntoConstraints", "UIViewDoesNotTranslateAutoresizingMaskIntoConstraints",
        ])
        .map { coder.containsValue(forKey: "translatesAutoresizingMaskIntoConstraints") ? $0 : !$0 } ?? true
      if let name = try coder.text(["contentMode"]) {
        contentMode = ContentMode(rawValue: name) ?? .scaleToFill
      } else if coder.containsValue(forKey: "UIContentMode") {
        contentMode = ContentMode(number: try coder.decodeInt(forKey: "UIContentMode")) ?? .scaleToFill
      } else {
        contentMode = .scaleToFill
      }
      autoresizingMask = try View.decodeAutoresizingMask(coder)
      cornerRadius = try coder.string(["layerCornerRadius"])
      subviewsKey = coder.firstKey(["subviews", "UISubviews", "NSSubviews"])
      constraintsKey = coder.firstKey(["constraints", "UIViewAutolayoutConstraints"])
      gesturesKey = coder.firstKey(["gestureRecognizers"])
    }
  }

  private static func decodeAutoresizingMask(_ coder: any DecodingCoder) throws -> AutoresizingMask {
    if let record = try coder.record("autoresizingMask") {
      var mask: AutoresizingMask = []
      let bits: [(String, AutoresizingMask)] = [
        ("flexibleMinX", .flexibleLeftMargin), ("widthSizable", .flexibleWidth), ("flexibleMaxX", .flexibleRightMargin),
        ("flexibleMinY", .flexibleTopMargin), ("heightSizable", .flexibleHeight),
        ("flexibleMaxY", .flexibleBottomMargin),
      ]
      for (name, bit) in bits where record.bool(name) == true { mask.insert(bit) }
      return mask
    }
    if coder.containsValue(forKey: "UIAutoresizingMask") {
      return AutoresizingMask(rawValue: UInt64(truncatingIfNeeded: try coder.decodeInt64(forKey: "UIAutoresizingMask")))
    }
    return []
  }

  /// Writes the XIB-style keys `init(coder:)` reads first.
  open override func encode(with coder: any EncodingCoder) {
    coder.encodeObject(
      ArchivedValue.rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height), forKey: "frame")
    coder.encodeObject(subviews, forKey: "subviews")
    coder.encode(alpha, forKey: "alpha")
    coder.encode(isHidden, forKey: "hidden")
    coder.encode(tag, forKey: "tag")
    coder.encode(Int64(autoresizingMask.rawValue), forKey: "UIAutoresizingMask")
    coder.encodeObject(contentMode.rawValue, forKey: "contentMode")
    if let backgroundColor { coder.encodeObject(ColorObject(backgroundColor), forKey: "backgroundColor") }
  }

  deinit {
    // The subviews that outlive this view (held elsewhere) lose their superview, as `removeFromSuperview()` would.
    for subview in subviews { subview.setSuperview(nil) }
    // A constraint held elsewhere too may outlive its items, so the items this view kept alive become weak
    // references (NIB-044). One only this view holds goes with it, but not at once: the subviews are released
    // first (stored properties go in declaration order, after this body), and their deinitialisers may still
    // reach it, so it forgets its unretained items (no weak reference made). The list is moved out and back rather
    // than copied: a copy would hold every constraint a second time.
    guard !installedConstraints.isEmpty else { return }
    var constraints: [LayoutConstraint] = []
    swap(&constraints, &installedConstraints)
    for index in constraints.indices {
      if isKnownUniquelyReferenced(&constraints[index]) {
        constraints[index].forgetItems(installedBy: self)
      } else {
        constraints[index].releaseItems(installedBy: self, whichIsGoing: true)
      }
    }
    swap(&constraints, &installedConstraints)
  }

  /// The superview, or the view controller that owns this view.
  open override var next: Responder? { owningViewController ?? superview }

  // MARK: Hierarchy

  /// Adds a subview on top, removing it from its previous superview.
  public func addSubview(_ view: View) {
    insertSubview(view, at: subviews.count)
  }

  /// `addSubview(_:)` of each view in order, for a view being decoded: while the views have no superview (as a
  /// nib's have) the list is built aside and stored once, rather than grown and checked view by view.
  private func adoptSubviews(_ children: [View]) {
    guard !children.isEmpty else { return }
    // The reference to this view is made once and copied into each subview (``setSuperview(_:)`` for each would
    // count a strong reference to this view per subview to make it).
    let reference = UnownedView(self)
    let identity = ObjectIdentifier(self)
    for n in children.indices {
      // A view that has a superview (another view's, or this one's when listed twice) or is this view takes the
      // general path, from there on.
      guard children[n] !== self, children[n].superviewIdentity == nil else {
        subviews += children[..<n]
        for view in children[n...] { addSubview(view) }
        return
      }
      children[n].superviewStorage = reference
      children[n].superviewIdentity = identity
    }
    // The list itself is kept (one reference), rather than each view appended to a copy.
    if subviews.isEmpty { subviews = children } else { subviews += children }
    setNeedsLayout()
  }

  /// Inserts a subview at an index in the back-to-front order.
  ///
  /// A view that is this view or one of its superviews is not inserted (the hierarchy stays a tree, so every walk
  /// up or down it ends): a document can ask for that, such as a window whose root view controller's view holds
  /// the window.
  public func insertSubview(_ view: View, at index: Int) {
    guard !isDescendant(of: view) else { return }
    view.removeFromSuperview()
    subviews.insert(view, at: min(max(0, index), subviews.count))
    view.setSuperview(self)
    setNeedsLayout()
  }

  /// Removes the view from its superview.
  public func removeFromSuperview() {
    guard let superview else { return }
    // Leaving the subtrees of the views above, this view or one of its subtree may go before their constraints
    // that hold it without a weak reference (NIB-044). Each of those views makes all of its such items weak, once:
    // finding only the ones inside this subtree would check every constraint above, item by item up the chain, on
    // every move, which a document can repeat until the work is quadratic.
    var ancestor = superviewStorage?.view
    while let view = ancestor {
      if view.holdsUnretainedItems { view.releaseUnretainedItems() }
      ancestor = view.superviewStorage?.view
    }
    superview.subviews.removeAll { $0 === self }
    setSuperview(nil)
    superview.setNeedsLayout()
  }

  /// The first view in this subtree (itself included) with a tag.
  public func viewWithTag(_ tag: Int) -> View? {
    if self.tag == tag { return self }
    for subview in subviews {
      if let found = subview.viewWithTag(tag) { return found }
    }
    return nil
  }

  /// `true` when `view` is this view or one of its descendants.
  public func isDescendant(of view: View) -> Bool { isDescendant(ofViewWith: ObjectIdentifier(view)) }

  /// `true` when the view with this identity (one that is alive) is this view or one of its descendants.
  func isDescendant(ofViewWith identity: ObjectIdentifier) -> Bool {
    // This view and its superview are compared by identity alone, which holds no reference (a constraint's items
    // are mostly the installer's direct subviews).
    if ObjectIdentifier(self) == identity || superviewIdentity == identity { return true }
    var current = superviewStorage?.view
    while let candidate = current {
      if ObjectIdentifier(candidate) == identity || candidate.superviewIdentity == identity { return true }
      current = candidate.superviewStorage?.view
    }
    return false
  }

  // MARK: Layout

  /// Marks the view for layout on the next `layoutIfNeeded()`.
  public func setNeedsLayout() { needsLayout = true }

  /// Runs `layoutSubviews()` on this view and its subviews where layout is needed.
  public func layoutIfNeeded() {
    if needsLayout {
      needsLayout = false
      layoutCount += 1
      layoutSubviews()
    }
    for subview in subviews { subview.layoutIfNeeded() }
  }

  /// Lays out subviews; override to position them in code. The default does nothing.
  open func layoutSubviews() {}

  /// Applies each subview's autoresizing mask after this view's size changed from `oldSize`: the change along
  /// each axis is shared by the flexible margins and dimension in proportion to their current lengths (equally
  /// when they are all zero).
  func resizeSubviews(from oldSize: Size) {
    let dx = frame.width - oldSize.width
    let dy = frame.height - oldSize.height
    for subview in subviews where subview.translatesAutoresizingMaskIntoConstraints {
      let mask = subview.autoresizingMask
      var f = subview.frame
      let horizontal = Self.distribute(
        dx, lengths: [f.minX, f.width, oldSize.width - f.minX - f.width],
        flexible: [
          mask.contains(.flexibleLeftMargin), mask.contains(.flexibleWidth), mask.contains(.flexibleRightMargin),
        ])
      let vertical = Self.distribute(
        dy, lengths: [f.minY, f.height, oldSize.height - f.minY - f.height],
        flexible: [
          mask.contains(.flexibleTopMargin), mask.contains(.flexibleHeight), mask.contains(.flexibleBottomMargin),
        ])
      f.origin.x += horizontal[0]
      f.size.width += horizontal[1]
      f.origin.y += vertical[0]
      f.size.height += vertical[1]
      subview.frame = f
    }
  }

  static func distribute(_ delta: Double, lengths: [Double], flexible: [Bool]) -> [Double] {
    let count = flexible.filter { $0 }.count
    guard delta != 0, count > 0 else { return [0, 0, 0] }
    let total = zip(lengths, flexible).reduce(0.0) { $0 + ($1.1 ? max(0, $1.0) : 0) }
    return zip(lengths, flexible).map { length, isFlexible in
      guard isFlexible else { return 0 }
      return total > 0 ? delta * max(0, length) / total : delta / Double(count)
    }
  }

  // MARK: Key-value coding

  /// `frame`, `backgroundColor`, `alpha`, `hidden`, `tag`, `layer`, `autoresizingMask`, `isUserInteractionEnabled`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "frame": .observedProperty(\View.frame), "backgroundColor": .observedProperty(\View.backgroundColor),
        "alpha": .observedProperty(\View.alpha), "hidden": .observedProperty(\View.isHidden),
        "isHidden": .property(\View.isHidden),
        "tag": .observedProperty(\View.tag), "layer": .readOnly(\View.layer),
        "userInteractionEnabled": .observedProperty(\View.isUserInteractionEnabled),
        "gestureRecognizers": .observedProperty(\View.gestureRecognizers), "menu": .observedProperty(\View.menu),
        "nextKeyView": .observedProperty(\View.nextKeyView),
        "clipsToBounds": .custom(
          View.self, get: { $0.layer.masksToBounds },
          set: { view, value in
            view.layer.masksToBounds = KeyValueConversion.convert(value, to: Bool.self) ?? false
          }),
      ], uniquingKeysWith: { $1 })
  }
}

/// The drawing attributes of a view's layer that nibs set through runtime attributes.
public final class Layer: KeyValueCoding {
  /// Corner radius.
  public var cornerRadius = 0.0
  /// Border width.
  public var borderWidth = 0.0
  /// Border colour.
  public var borderColor: Color?
  /// Whether sublayers are clipped.
  public var masksToBounds = false
  /// Shadow opacity.
  public var shadowOpacity = 0.0
  /// Shadow radius.
  public var shadowRadius = 3.0

  /// Creates default attributes.
  public init() {}

  /// `cornerRadius`, `borderWidth`, `borderColor`, `masksToBounds`, `shadowOpacity`, `shadowRadius`.
  public static var keyValueAccessors: [String: KeyValueAccessor] {
    [
      "cornerRadius": .property(\Layer.cornerRadius), "borderWidth": .property(\Layer.borderWidth),
      "borderColor": .property(\Layer.borderColor), "masksToBounds": .property(\Layer.masksToBounds),
      "shadowOpacity": .property(\Layer.shadowOpacity), "shadowRadius": .property(\Layer.shadowRadius),
    ]
  }
}

/// An `unowned` (safe) reference to a view: reading it after the view is gone traps rather than reach freed memory.
/// A struct with a constant, so that the stored properties holding one need no runtime exclusivity checks.
struct UnownedView {
  unowned(safe) let view: View
  init(_ view: View) { self.view = view }
}

extension View: SegueSource {
  /// Records a segue this view triggers.
  public func addSegue(identifier: String?, kind: String, destination: AnyObject?) {
    addSegue(SegueTemplate(identifier: identifier, kind: kind), destination: destination)
  }

  /// Records a segue this view triggers: a control's event or a cell's selection performs it (NIB-131).
  public func addSegue(_ template: SegueTemplate, destination: AnyObject?) {
    madeExtras().segues.append(TriggeredSegue(template: template, destination: destination))
  }

  /// The segues this view triggers, as the storyboard declares them (NIB-131).
  public var triggeredSegues: [SegueTemplate] { extras?.segues.map(\.template) ?? [] }

  /// The embed segues of this view and the views below it (container views), in depth-first order, each with the
  /// view that holds it (NIB-313).
  func embedSegues() -> [(container: View, template: SegueTemplate, destination: AnyObject?)] {
    var found: [(container: View, template: SegueTemplate, destination: AnyObject?)] = []
    var pending: [View] = [self]
    while let view = pending.popLast() {
      for segue in view.extras?.segues ?? [] where segue.template.kind == SegueTemplate.embedKind {
        found.append((view, segue.template, segue.destination))
      }
      pending.append(contentsOf: view.subviews.reversed())
    }
    return found
  }

  /// Performs the segues this view triggers from the first view controller up the responder chain from
  /// `responder` (a cell out of the view hierarchy gives its table view), each after that controller's
  /// `shouldPerformSegue(withIdentifier:sender:)`, with this view as the sender. A failure goes to the
  /// controller's `nibOptions.warning`, naming the view's class and the segue; with no controller up the chain,
  /// the warning goes to standard error (NIB-131).
  func performTriggeredSegues(from responder: Responder) {
    guard let segues = extras?.segues, !segues.isEmpty else { return }
    var current: Responder? = responder
    while let found = current, !(found is ViewController) { current = found.next }
    for segue in segues {
      let name = segue.template.identifier ?? segue.template.id ?? "?"
      guard let controller = current as? ViewController else {
        NibOptions.standardError(
          "\(type(of: self)) triggered the segue \"\(name)\" but no view controller is up its responder chain")
        return
      }
      do {
        try controller.triggerSegue(segue.template, destination: segue.destination, sender: self)
      } catch {
        controller.nibOptions.warning?("\(type(of: self)) triggered the segue \"\(name)\", which failed: \(error)")
      }
    }
  }
}
