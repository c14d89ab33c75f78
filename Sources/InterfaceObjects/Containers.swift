import ArchiveCoding
import Foundation
import NibLoading

/// A scrolling container, in the role of `UIScrollView` / `NSScrollView`.
open class ScrollView: View {
  /// The scrollable content size.
  public var contentSize: Size = .zero {
    willSet { propertyWillChange("contentSize") }
    didSet { propertyDidChange("contentSize") }
  }
  /// The current offset.
  public var contentOffset: Point = .zero {
    willSet { propertyWillChange("contentOffset") }
    didSet { propertyDidChange("contentOffset") }
  }
  /// The delegate (an outlet).
  public weak var delegate: AnyObject? {
    willSet { propertyWillChange("delegate") }
    didSet { propertyDidChange("delegate") }
  }

  /// Creates a scroll view in code.
  public override init(frame: Rect) { super.init(frame: frame) }
  /// Reads the view's keys.
  public required init(coder: any DecodingCoder) throws { try super.init(coder: coder) }

  /// `contentSize`, `contentOffset`, `delegate`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "contentSize": .observedProperty(\ScrollView.contentSize),
        "contentOffset": .observedProperty(\ScrollView.contentOffset),
        "delegate": .observedProperty(\ScrollView.delegate),
      ], uniquingKeysWith: { $1 })
  }
}

/// A stack of arranged subviews laid out along an axis, in the role of `UIStackView` / `NSStackView`.
open class StackView: View {
  /// `"horizontal"` or `"vertical"`.
  public var axis = "horizontal" {
    willSet { propertyWillChange("axis") }
    didSet { propertyDidChange("axis") }
  }
  /// The spacing between arranged views.
  public var spacing = 0.0 {
    willSet { propertyWillChange("spacing") }
    didSet { propertyDidChange("spacing") }
  }
  /// The arranged subviews.
  public var arrangedSubviews: [View] { subviews.filter { !$0.isHidden } }

  /// Creates a stack view in code.
  public override init(frame: Rect) { super.init(frame: frame) }

  /// Reads `axis` and `spacing`.
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    axis =
      try coder.string(["axis", "orientation"])
      ?? ((try coder.number(["UIStackViewAxis"]) ?? 0) == 1 ? "vertical" : "horizontal")
    spacing = try coder.number(["spacing", "UIStackViewSpacing"]) ?? 0
  }

  /// Places the arranged subviews one after another along the axis, each filling the other dimension.
  open override func layoutSubviews() {
    var offset = 0.0
    for view in arrangedSubviews {
      if axis == "vertical" {
        view.frame = Rect(x: 0, y: offset, width: frame.width, height: view.frame.height)
        offset += view.frame.height + spacing
      } else {
        view.frame = Rect(x: offset, y: 0, width: view.frame.width, height: frame.height)
        offset += view.frame.width + spacing
      }
    }
  }

  /// `axis`, `spacing`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      ["axis": .observedProperty(\StackView.axis), "spacing": .observedProperty(\StackView.spacing)],
      uniquingKeysWith: { $1 })
  }
}

/// A table row's cell, in the role of `UITableViewCell`.
open class TableViewCell: View {
  /// The standard layouts of a cell made in code (`UITableViewCell.CellStyle`).
  public enum Style: Sendable, Hashable {
    /// A text label only.
    case `default`
    /// A text label and a detail label on the right.
    case value1
    /// A detail label beside a text label, as in Contacts.
    case value2
    /// A text label above a detail label.
    case subtitle
  }

  /// The cell's layout.
  public private(set) var style: Style = .default
  private var madeTextLabel: Label?
  private var madeDetailTextLabel: Label?

  /// The cell's main label: the one its nib archives, else one made in the content view on first use (NIB-099).
  public var textLabel: Label? {
    if let madeTextLabel { return madeTextLabel }
    let label = Label(frame: Rect(x: 16, y: 0, width: contentView.frame.width - 32, height: contentView.frame.height))
    contentView.addSubview(label)
    madeTextLabel = label
    return label
  }

  /// The cell's detail label: the one its nib archives, else one made in the content view on first use; `nil` for the
  /// ``Style/default`` style, as in UIKit (NIB-099).
  public var detailTextLabel: Label? {
    if let madeDetailTextLabel { return madeDetailTextLabel }
    guard style != .default else { return nil }
    let label = Label(frame: Rect(x: 16, y: 0, width: contentView.frame.width - 32, height: contentView.frame.height))
    contentView.addSubview(label)
    madeDetailTextLabel = label
    return label
  }

  /// The view that holds the cell's content.
  public private(set) var contentView: View
  /// The identifier the table dequeues it by.
  public var reuseIdentifier: String? {
    willSet { propertyWillChange("reuseIdentifier") }
    didSet { propertyDidChange("reuseIdentifier") }
  }
  /// The cell's text field (an AppKit `NSTableCellView` outlet).
  public weak var textField: TextField? {
    willSet { propertyWillChange("textField") }
    didSet { propertyDidChange("textField") }
  }
  /// The cell's image view (an outlet).
  public weak var imageView: ImageView? {
    willSet { propertyWillChange("imageView") }
    didSet { propertyDidChange("imageView") }
  }
  /// How many times the cell was prepared for reuse.
  public private(set) var reuseCount = 0

  /// Creates a cell in code with an empty content view.
  public required init(reuseIdentifier: String?) {
    self.reuseIdentifier = reuseIdentifier
    contentView = View(frame: Rect(x: 0, y: 0, width: 320, height: 44))
    super.init(frame: Rect(x: 0, y: 0, width: 320, height: 44))
    addSubview(contentView)
  }

  /// Creates a cell in code with one of the standard layouts, as `UITableViewCell(style:reuseIdentifier:)`.
  public convenience init(style: Style, reuseIdentifier: String?) {
    self.init(reuseIdentifier: reuseIdentifier)
    self.style = style
  }

  /// Reads `contentView` (a `<tableViewCellContentView key="contentView">`, a compiled nib's `UIContentView`),
  /// `reuseIdentifier`, and a compiled nib's text and detail labels (`UITextLabel`, `UIDetailTextLabel`).
  public required init(coder: any DecodingCoder) throws {
    let fields = try coder.decodePlainFields(Fields.self)
    contentView =
      try fields.contentViewKey.flatMap { try coder.decodeObject(forKey: $0) } as? View ?? View(frame: .zero)
    try super.init(coder: coder)
    reuseIdentifier = fields.reuseIdentifier
    if contentView.superview == nil { addSubview(contentView) }
    if fields.hasCompiledLabels {
      madeTextLabel = try coder.decodeObject(forKey: "UITextLabel") as? Label
      madeDetailTextLabel = try coder.decodeObject(forKey: "UIDetailTextLabel") as? Label
    }
  }

  /// The reuse identifier, and which keys hold the objects `init(coder:)` reads (NIB-300).
  private final class Fields: PlainFields {
    let reuseIdentifier: String?
    let contentViewKey: String?
    /// Whether a compiled nib archives the cell's labels (`UITextLabel`, `UIDetailTextLabel`).
    let hasCompiledLabels: Bool

    init(coder: any DecodingCoder) throws {
      reuseIdentifier = try coder.string(["reuseIdentifier", "UIReuseIdentifier"])
      contentViewKey = coder.firstKey(["contentView", "UIContentView"])
      hasCompiledLabels = coder.firstKey(["UITextLabel", "UIDetailTextLabel"]) != nil
    }
  }

  /// Called before the cell is handed out again; override to reset content (call `super`).
  open func prepareForReuse() { reuseCount += 1 }

  /// `reuseIdentifier`, `contentView`.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "reuseIdentifier": .observedProperty(\TableViewCell.reuseIdentifier),
        "contentView": .readOnly(\TableViewCell.contentView),
        "textField": .observedProperty(\TableViewCell.textField),
        "imageView": .observedProperty(\TableViewCell.imageView),
      ],
      uniquingKeysWith: { $1 })
  }
}

/// A collection item's cell, in the role of `UICollectionViewCell`.
open class CollectionViewCell: TableViewCell {}

/// A list of rows that dequeues reusable cells, in the role of `UITableView`.
///
/// It takes a target and an action, as `NSTableView` (an `NSControl`) does.
open class TableView: ScrollView, ActionSending, PrototypeRegistering {
  /// The target of the action (AppKit's target/action).
  public weak var target: AnyObject?
  /// The action sent when a row is clicked.
  public var action: String?
  /// The options of the instantiations of registered nibs: their warnings go to standard error unless
  /// `nibOptions.warning` collects or silences them (NIB-103).
  public var nibOptions = NibOptions()
  private var nibs: [String: Nib] = [:]
  private var classes: [String: TableViewCell.Type] = [:]
  private var reusable: [String: [TableViewCell]] = [:]
  /// The data source (an outlet).
  public weak var dataSource: AnyObject? {
    willSet { propertyWillChange("dataSource") }
    didSet { propertyDidChange("dataSource") }
  }
  /// How many cells were instantiated from registered nibs or classes.
  public private(set) var instantiatedCellCount = 0

  /// Creates a table view in code.
  public override init(frame: Rect) { super.init(frame: frame) }
  /// Reads the scroll view's keys, and registers the nibs a compiled nib archives with the table view for their
  /// reuse identifiers: UIKit's prototype cells (`UITableViewCellPrototypeNibs`) and AppKit's cell views
  /// (`NSTableViewArchivedReusableViewsKey`) (NIB-106).
  public required init(coder: any DecodingCoder) throws {
    try super.init(coder: coder)
    for key in Self.archivedNibKeys {
      guard let archived = try coder.decodeObject(forKey: key) as? [String: Any] else { continue }
      for (identifier, value) in archived {
        if let archivedNib = value as? ArchivedNib { nibs[identifier] = archivedNib.nib }
      }
    }
  }

  /// The keys under which Apple's compiled nibs archive a table view's nibs by reuse identifier.
  static let archivedNibKeys = ["UITableViewCellPrototypeNibs", "NSTableViewArchivedReusableViewsKey"]

  /// The identifiers for which a nib is registered, in order.
  public var registeredNibIdentifiers: [String] { nibs.keys.sorted() }

  /// Sets the target and action (AppKit's target/action).
  public func addTarget(_ target: AnyObject?, action: String, for events: UInt64?) {
    self.target = target
    self.action = action
  }

  /// Registers a nib whose first top-level object is the cell for an identifier.
  public func register(_ nib: Nib, forCellReuseIdentifier identifier: String) { nibs[identifier] = nib }

  /// Registers a cell class for an identifier.
  public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) {
    classes[identifier] = cellClass
  }

  /// A cell for the identifier, as UIKit's `dequeueReusableCell(withIdentifier:)`: a reused one (after
  /// `prepareForReuse()`), or a new one from the registered nib or class, or `nil` when there is none to reuse and
  /// nothing is registered for the identifier (NIB-099).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the registered nib does not load or does not hold a cell.
  public func dequeueReusableCell(withIdentifier identifier: String) throws -> TableViewCell? {
    if reusable[identifier]?.isEmpty ?? true, nibs[identifier] == nil, classes[identifier] == nil { return nil }
    return try dequeueReusableCell(withIdentifier: identifier, for: IndexPath(row: 0, section: 0))
  }

  /// A cell for the identifier and a row, as UIKit's `dequeueReusableCell(withIdentifier:for:)`: a reused one
  /// (after `prepareForReuse()`), or a new one from the registered nib or class (NIB-099).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when nothing is registered for the identifier, or the nib does not load
  ///   or does not hold a cell.
  public func dequeueReusableCell(
    withIdentifier identifier: String, for indexPath: IndexPath
  ) throws
    -> TableViewCell
  {
    if let cell = reusedCell(withIdentifier: identifier) { return cell }
    if let nib = nibs[identifier] {
      guard
        let cell = try nib.instantiate(owner: nil, options: nibOptions).first(where: { $0 is TableViewCell })
          as? TableViewCell
      else {
        throw ArchiveError(
          .typeMismatch, "the nib registered for \"\(identifier)\" has no table view cell at its top level")
      }
      cell.reuseIdentifier = cell.reuseIdentifier ?? identifier
      instantiatedCellCount += 1
      return cell
    }
    if let type = classes[identifier] {
      instantiatedCellCount += 1
      return type.init(reuseIdentifier: identifier)
    }
    throw ArchiveError(
      .valueNotFound,
      "no nib or class is registered for the cell identifier \"\(identifier)\" (row \(indexPath.row), section \(indexPath.section)); register one with register(_:forCellReuseIdentifier:)"
    )
  }

  /// Selects a row's cell as a user's tap does: sends the table view's ``action`` (to ``target``, or up the
  /// responder chain when it has none), then performs the segues the storyboard connects to the cell's selection,
  /// from the view controller up the table view's responder chain (NIB-134).
  public func selectRow(with cell: TableViewCell) {
    if let action {
      if let target = target as? Responder {
        target.perform(action: action, sender: self)
      } else if target == nil {
        perform(action: action, sender: self)
      }
    }
    cell.performTriggeredSegues(from: self)
  }

  /// A view for the identifier, as AppKit's `makeView(withIdentifier:owner:)`: a reused one, or the first top-level
  /// view of a fresh instantiation of the nib registered for the identifier, with `owner` as its File's Owner, or
  /// `nil` when nothing is registered for it (NIB-106).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when the registered nib does not load.
  public func makeView(withIdentifier identifier: String, owner: AnyObject?) throws -> View? {
    if let cell = reusedCell(withIdentifier: identifier) { return cell }
    guard let nib = nibs[identifier] else { return nil }
    guard let view = try nib.instantiate(owner: owner, options: nibOptions).first(where: { $0 is View }) as? View
    else { return nil }
    instantiatedCellCount += 1
    return view
  }

  /// The last cell returned to the pool for the identifier, taken out of it and prepared for reuse, or `nil`.
  private func reusedCell(withIdentifier identifier: String) -> TableViewCell? {
    guard let cell = reusable[identifier]?.popLast() else { return nil }
    cell.prepareForReuse()
    return cell
  }

  /// Returns a cell to the reuse pool (what scrolling off screen does).
  public func enqueueReusableCell(_ cell: TableViewCell) {
    guard let identifier = cell.reuseIdentifier else { return }
    reusable[identifier, default: []].append(cell)
  }

  /// `dataSource` and the scroll view's keys.
  open override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(["dataSource": .observedProperty(\TableView.dataSource)], uniquingKeysWith: { $1 })
  }
}

/// A grid of items, in the role of `UICollectionView`.
open class CollectionView: TableView {}
