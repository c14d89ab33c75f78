import ArchiveCoding
import InterfaceObjects
import NibLoading

/// Builds a ``Sketch`` from a loaded document: the hierarchy, frames, texts, fonts and colours come from the
/// objects the nib loader made; the document's ids, class names and the few details the catalog keeps no property
/// for (segment titles, a progress value, an AppKit cell's title) come from the object table the graph was loaded
/// from (CLI-090, Decision 0028).
struct SketchBuilder {
  /// How deeply views may nest in a drawing, and how many one drawing holds: deeper and further ones are left
  /// out (bad input never recurses or allocates without bound).
  static let maximumDepth = 64, maximumNodes = 10_000
  /// Room around the canvas, between scenes, for a scene's caption and a macOS window's title bar.
  static let margin = 20.0, sceneGap = 60.0, captionHeight = 24.0, titleBarHeight = 22.0
  /// The placeholders' boxes beside the canvas.
  static let placeholderWidth = 150.0, placeholderHeight = 28.0
  /// The most scenes a compiled storyboard's drawing holds.
  static let maximumScenes = 500
  /// The largest width or height a scene is drawn at.
  static let maximumSceneSide = 10_000.0

  private let table: ObjectTable
  private let isAppKit: Bool
  private let objectsByID: [String: AnyObject]
  private var idsByObject: [ObjectIdentifier: String] = [:]
  private var indexByID: [String: Int] = [:]
  private var nodeCount = 0
  private var drawnIDs: Set<String> = []

  /// A scene that `--scene` did not name: the names it could have used.
  struct UnknownScene: Error {
    var requested: String
    var available: [String]
  }

  init(table: ObjectTable, instance: NibInstance) {
    self.table = table
    isAppKit = table.platform == .appKit
    objectsByID = instance.objectsByID
    for (id, object) in objectsByID { idsByObject[ObjectIdentifier(object)] = id }
    for (index, object) in table.objects.enumerated() where indexByID[object.id] == nil { indexByID[object.id] = index }
  }

  /// The sketch of every scene, or of the one `scene` names (its id, storyboard identifier or title).
  /// - Throws: ``UnknownScene`` when `scene` names none.
  mutating func sketch(scene requested: String?) throws -> Sketch {
    var sketch = Sketch()
    sketch.isAppKit = isAppKit
    var candidates = sceneCandidates()
    if let requested {
      candidates = candidates.filter { $0.names.contains(requested) }
      if candidates.isEmpty {
        throw UnknownScene(requested: requested, available: sceneCandidates().map { $0.names[0] })
      }
    }
    let top = Self.margin + Self.captionHeight
    var placeholderY = top
    for object in table.objects {
      guard let placeholder = object.placeholder else { continue }
      let frame = Rect(x: Self.margin, y: placeholderY, width: Self.placeholderWidth, height: Self.placeholderHeight)
      sketch.placeholders.append(
        .init(id: object.id, className: object.className, label: label(placeholder, object), frame: frame))
      placeholderY += Self.placeholderHeight + 8
    }
    var x = Self.margin + (sketch.placeholders.isEmpty ? 0 : Self.placeholderWidth + Self.sceneGap)
    var bottom = placeholderY
    for candidate in candidates {
      let titleBar = candidate.titleBar.map { _ in Self.titleBarHeight } ?? 0
      let size = candidate.root.map { Self.bounded($0.frame.size) } ?? Size(width: 160, height: 100)
      let sceneFrame = Rect(x: x, y: top, width: max(size.width, 40), height: size.height + titleBar)
      var scene = Sketch.Scene(
        id: candidate.id, className: candidate.className, caption: candidate.caption, frame: sceneFrame,
        titleBar: candidate.titleBar, root: nil)
      drawnIDs.insert(candidate.id)
      if let root = candidate.root {
        let origin = Point(x: x - root.frame.minX, y: top + titleBar - root.frame.minY)
        scene.root = node(root, parentOrigin: origin, parentHeight: nil, depth: 0)
      }
      sketch.scenes.append(scene)
      x += sceneFrame.width + Self.sceneGap
      bottom = max(bottom, sceneFrame.minY + sceneFrame.height)
    }
    sketch.size = Size(width: max(x - Self.sceneGap + Self.margin, 200), height: bottom + Self.margin)
    for object in table.objects where object.placeholder == nil && !drawnIDs.contains(object.id) {
      sketch.others.append(.init(id: object.id, className: object.className))
    }
    for connection in table.connections {
      guard table.objects.indices.contains(connection.source) else { continue }
      let destination = connection.destination.flatMap {
        table.objects.indices.contains($0) ? table.objects[$0].id : nil
      }
      sketch.connections.append(
        .init(
          id: connection.id, kind: connection.kind.rawValue, sourceID: table.objects[connection.source].id,
          destinationID: destination, label: connection.label))
    }
    return sketch
  }

  // MARK: Scenes

  private struct Candidate {
    var id: String
    var className: String
    var caption: String
    /// What `--scene` accepts for it, the id first.
    var names: [String]
    var titleBar: String?
    var root: View?
  }

  /// The top-level objects that are drawn as scenes, in document order: view controllers, windows and views.
  private func sceneCandidates() -> [Candidate] {
    var seen: Set<Int> = []
    var result: [Candidate] = []
    for index in table.topLevel where table.objects.indices.contains(index) && seen.insert(index).inserted {
      let record = table.objects[index]
      guard record.placeholder == nil, let object = objectsByID[record.id] else { continue }
      var candidate = Candidate(
        id: record.id, className: record.className, caption: record.className, names: [record.id])
      switch object {
      case let controller as ViewController:
        candidate.root = controller.isViewLoaded ? controller.view : nil
        candidate.names += ["UIViewController-\(record.id)"]
        for name in [controller.storyboardIdentifier, controller.title].compactMap({ $0 }) where !name.isEmpty {
          candidate.names.append(name)
          candidate.caption = "\(name) (\(record.className))"
        }
      case let window as Window:
        let fields = NibRecord(name: record.className, fields: record.fields)
        let title = fields.string("title") ?? fields.string("NSWindowTitle") ?? ""
        if !title.isEmpty {
          candidate.names.append(title)
          candidate.caption = "\(title) (\(record.className))"
        }
        let content = ["contentView", "NSWindowView"].lazy.compactMap { key -> View? in
          if case .object(let i)? = record.field(key), self.table.objects.indices.contains(i) {
            return self.objectsByID[self.table.objects[i].id] as? View
          }
          return nil
        }.first
        if isAppKit {
          candidate.titleBar = title
          candidate.root = content ?? window
        } else {
          candidate.root = window
        }
      case let view as View:
        candidate.root = view
      default:
        continue
      }
      result.append(candidate)
    }
    return result
  }

  private func label(_ placeholder: Placeholder, _ record: ObjectRecord) -> String {
    switch placeholder {
    case .filesOwner: "File's Owner"
    case .firstResponder: "First Responder"
    case .application: "Application"
    case .external(let identifier): "External: \(identifier)"
    case .other(let role): role.isEmpty ? record.className : role
    }
  }

  private static func bounded(_ size: Size) -> Size {
    func side(_ value: Double) -> Double { value.isFinite ? min(max(value, 1), maximumSceneSide) : 1 }
    return Size(width: side(size.width), height: side(size.height))
  }

  // MARK: Views

  /// The node of `view` and of its subviews, placed in canvas coordinates; `nil` past the depth or size limit.
  /// - Parameter position: where to draw the view in its superview instead of its frame's origin (static cells of
  ///   a compiled table, which keep no position of their own).
  private mutating func node(
    _ view: View, parentOrigin: Point, parentHeight: Double?, depth: Int, at position: Point? = nil
  ) -> Sketch.Node? {
    guard depth < Self.maximumDepth, nodeCount < Self.maximumNodes else { return nil }
    nodeCount += 1
    let id = idsByObject[ObjectIdentifier(view)] ?? ""
    drawnIDs.insert(id)
    let record = indexByID[id].map { table.objects[$0] }
    let fields = record.map { NibRecord(name: $0.className, fields: $0.fields) }
    let className = record?.className ?? view.unknownClassName ?? String(describing: type(of: view))
    let origin = position ?? view.frame.origin
    var y = origin.y
    // AppKit frames have their origin at the bottom left of an unflipped superview.
    if isAppKit, position == nil, let parentHeight { y = parentHeight - origin.y - view.frame.height }
    let size = Self.bounded(view.frame.size)
    let frame = Rect(x: parentOrigin.x + origin.x, y: parentOrigin.y + y, width: size.width, height: size.height)
    var drawn = Sketch.Node(
      id: id, className: className, kind: kind(of: view, record: record), frame: frame, isHidden: view.isHidden)
    drawn.background = view.backgroundColor
    describe(&drawn, view: view, fields: fields)
    let flipped = fields?.bool("flipped") ?? false
    var children: [(view: View, position: Point?)] = view.subviews.map { ($0, nil) }
    if view is TableView, let record { children += cellPlaces(cells(of: record).filter { $0.superview == nil }) }
    for (child, position) in children {
      if let childNode = node(
        child, parentOrigin: frame.origin, parentHeight: flipped ? nil : view.frame.height, depth: depth + 1,
        at: position)
      {
        drawn.children.append(childNode)
      }
    }
    return drawn
  }

  private func kind(of view: View, record: ObjectRecord?) -> Sketch.Kind {
    switch view {
    case is Window: return .window
    case is Label: return .label
    case is Button:
      switch cellRecord(record)?.string("type") {
      case "check"?: return .checkBox
      case "radio"?: return .radioButton
      default: return .button
      }
    case is ImageView: return .imageView
    case is TextField:
      // An AppKit text field that cannot be edited is a label.
      if isAppKit, let cell = cellRecord(record), !(cell.bool("editable") ?? false) { return .label }
      return .textField
    case is Switch: return .switchControl
    case is Slider: return .slider
    case is TableViewCell: return .tableViewCell
    case is TableView: return .tableView
    case is ScrollView: return .scrollView
    default: break
    }
    let name = (record.map { [$0.baseClassName, $0.className, $0.elementName] } ?? []).joined(separator: " ")
      .lowercased()
    let kinds: [(String, Sketch.Kind)] = [
      ("segmented", .segmentedControl), ("stepper", .stepper), ("progress", .progress),
      ("activityindicator", .activityIndicator), ("pagecontrol", .pageControl), ("textview", .textView),
      ("navigationbar", .navigationBar), ("toolbar", .toolbar), ("tabbar", .tabBar), ("searchbar", .searchBar),
    ]
    if let match = kinds.first(where: { name.contains($0.0) }) { return match.1 }
    return view is Control ? .control : .view
  }

  /// Fills in what the kind shows: text, font size, colours, values.
  private func describe(_ node: inout Sketch.Node, view: View, fields: NibRecord?) {
    let cell = cellRecord(fields)
    let fontSize = self.fontSize(fields) ?? self.fontSize(cell)
    switch view {
    case let label as Label:
      node.text = label.text
      node.fontSize = label.font.pointSize
      node.textColor = label.textColor
      node.textAlignment = label.textAlignment
    case let button as Button:
      node.text = button.title(for: .normal) ?? cellTitle(cell)
      if case .record(_, let parts)? = fields?["normal"] {
        node.secondaryText = NibRecord(name: "state", fields: parts).string("image")
      }
      node.fontSize = fontSize ?? (isAppKit ? 13 : 15)
    case let imageView as ImageView:
      node.secondaryText = imageView.image?.name ?? cell?.string("image")
    case let field as TextField:
      node.text = field.text ?? cellTitle(cell)
      node.secondaryText = field.placeholder ?? cell?.string("placeholderString") ?? cell?.string("NSPlaceholderString")
      node.fontSize = fontSize ?? (isAppKit ? 13 : 14)
      node.textAlignment = cell?.string("alignment") ?? fields?.string("textAlignment")
    case let control as Switch:
      node.value = control.isOn ? 1 : 0
    case let slider as Slider:
      let span = slider.maximumValue - slider.minimumValue
      node.value = span > 0 ? (slider.value - slider.minimumValue) / span : 0
    default:
      node.text = fields?.string("text")
      if let fontSize { node.fontSize = fontSize }
    }
    if let fields {
      node.segments = segments(fields)
      if node.kind == .segmentedControl {
        node.value = fields.number("selectedSegmentIndex") ?? fields.number("UISelectedSegmentIndex") ?? 0
      }
      if node.kind == .progress {
        let maximum = fields.number("maxValue") ?? 1
        let value = fields.number("progress") ?? fields.number("doubleValue") ?? 0
        node.value = maximum > 0 ? value / maximum : 0
      }
    }
    node.value = node.value.isFinite ? min(max(node.value, 0), 1_000) : 0
  }

  /// A segmented control's segment titles, from `<segments>` records (XIB) or `UISegment` objects, whose title a
  /// compiled nib keeps as `UISegmentInfo`.
  private func segments(_ fields: NibRecord) -> [String] {
    guard case .array(let items)? = fields["segments"] ?? fields["UISegments"] else { return [] }
    func title(_ parts: [ObjectField]) -> String {
      let segment = NibRecord(name: "segment", fields: parts)
      return segment.string("title") ?? segment.string("UISegmentInfo") ?? ""
    }
    return items.prefix(64).map { item in
      switch item {
      case .record(_, let parts): title(parts)
      case .string(let text): text
      case .object(let i) where table.objects.indices.contains(i): title(table.objects[i].fields)
      default: ""
      }
    }
  }

  /// A font size from `fontDescription` (XIB) or a font object (`font`, `UIFont`).
  private func fontSize(_ fields: NibRecord?) -> Double? {
    guard let fields else { return nil }
    for key in ["fontDescription", "font", "UIFont", "NSSupport"] {
      switch fields[key] {
      case .record(_, let parts)?:
        if let size = NibRecord(name: key, fields: parts).number("pointSize"), size.isFinite, size > 0 {
          return min(size, 500)
        }
      case .object(let i)? where table.objects.indices.contains(i):
        if let font = objectsByID[table.objects[i].id] as? FontObject, font.font.pointSize > 0 {
          return min(font.font.pointSize, 500)
        }
      default: continue
      }
    }
    return nil
  }

  /// An AppKit cell's title: `title` in a XIB, `NSContents` in a compiled nib.
  private func cellTitle(_ cell: NibRecord?) -> String? { cell?.string("title") ?? cell?.string("NSContents") }

  /// An AppKit control's cell (`<textFieldCell key="cell">`), which holds its title.
  private func cellRecord(_ fields: NibRecord?) -> NibRecord? {
    guard let fields else { return nil }
    switch fields["cell"] ?? fields["NSCell"] {
    case .object(let i)? where table.objects.indices.contains(i):
      return NibRecord(name: table.objects[i].className, fields: table.objects[i].fields)
    case .record(let name, let parts)?: return NibRecord(name: name, fields: parts)
    default: return nil
    }
  }

  private func cellRecord(_ record: ObjectRecord?) -> NibRecord? {
    cellRecord(record.map { NibRecord(name: $0.className, fields: $0.fields) })
  }

  /// Where a table view's cells go: at their frames when those place them one below the other (a XIB's
  /// prototypes), else stacked from the top in order (a compiled nib's static cells all sit at the origin).
  private func cellPlaces(_ cells: [View]) -> [(view: View, position: Point?)] {
    let increasing = zip(cells, cells.dropFirst()).allSatisfy { $0.frame.minY < $1.frame.minY }
    if increasing { return cells.map { ($0, nil) } }
    var y = 0.0
    return cells.map { cell in
      defer { y += cell.frame.height.isFinite ? max(cell.frame.height, 0) : 0 }
      return (cell, Point(x: 0, y: y))
    }
  }

  /// A table view's prototype and static cells, as loaded, in document order: from the table's `prototypes` and
  /// `sections` (XIB), or from the sections and rows of the data source a compiled nib connects it to.
  private func cells(of record: ObjectRecord) -> [View] {
    var found: [View] = []
    var visited = 0
    func collect(_ value: FieldValue, depth: Int) {
      visited += 1
      guard depth < 8, visited < 10_000, found.count < 1_000 else { return }
      switch value {
      case .array(let items): for item in items { collect(item, depth: depth + 1) }
      case .record(_, let parts): for part in parts { collect(part.value, depth: depth + 1) }
      case .object(let i) where table.objects.indices.contains(i):
        let object = table.objects[i]
        if let cell = objectsByID[object.id] as? TableViewCell {
          found.append(cell)
        } else if ["Section", "Row"].contains(where: {
          object.className.hasSuffix($0) || object.elementName.hasSuffix($0)
        }) {
          for field in object.fields { collect(field.value, depth: depth + 1) }
        }
      default: break
      }
    }
    for key in ["prototypes", "sections"] { if let value = record.field(key) { collect(value, depth: 0) } }
    if found.isEmpty, let index = indexByID[record.id] {
      // A compiled storyboard's static table: its controller holds the table (`view` or `tableView`) and, as
      // `staticDataSource`, the sections and rows of cells; a table may also name the data source directly.
      let controllers = Set(
        table.connections.filter { $0.destination == index && ["view", "tableView"].contains($0.label) }.map(\.source))
      for connection in table.connections where connection.kind == .outlet {
        let direct = connection.source == index && connection.label == "dataSource"
        let staticSource = controllers.contains(connection.source) && connection.label == "staticDataSource"
        guard direct || staticSource, let destination = connection.destination,
          table.objects.indices.contains(destination)
        else { continue }
        for field in table.objects[destination].fields { collect(field.value, depth: 0) }
      }
    }
    return found
  }
}
