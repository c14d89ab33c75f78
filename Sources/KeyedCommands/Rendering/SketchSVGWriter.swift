import InterfaceObjects

/// Writes a ``Sketch`` as a standalone SVG document: every drawn object a `<g>` with `data-id` and `data-class`,
/// nested as the views are, each text in a `<text>` element, segues as arrows (CLI-090, CLI-091).
struct SketchSVGWriter {
  private typealias Attributes = [SVGMarkup.Attribute]
  private let sketch: Sketch
  private var markup = SVGMarkup()
  /// The scenes written so far, which number their clip paths.
  private var sceneCount = 0

  /// The colours of the drawing's own parts.
  private enum Palette {
    static let canvas = "#eef0f4"
    static let sceneBackground = "#ffffff"
    static let outline = "#b4b9c2"
    static let caption = "#4a4f59"
    static let tint = "#007aff"
    static let on = "#34c759"
    static let track = "#d8dbe0"
    static let placeholder = "#fff6dc"
    static let placeholderText = "#8a8f98"
    static let titleBar = "#e3e4e8"
    static let segue = "#8e44ad"
  }

  init(sketch: Sketch) { self.sketch = sketch }

  /// The SVG document.
  static func svg(_ sketch: Sketch) -> String {
    var writer = SketchSVGWriter(sketch: sketch)
    writer.writeDocument(declaration: true)
    return writer.markup.text
  }

  /// The `<svg>` element alone, for embedding in HTML.
  static func element(_ sketch: Sketch) -> String {
    var writer = SketchSVGWriter(sketch: sketch)
    writer.writeDocument(declaration: false)
    return writer.markup.text
  }

  private static func n(_ value: Double) -> String { SVGMarkup.number(value) }

  private static func box(_ frame: Rect) -> Attributes {
    [("x", n(frame.minX)), ("y", n(frame.minY)), ("width", n(frame.width)), ("height", n(frame.height))]
  }

  /// The light-appearance values of the system colours documents name most, as `(red, green, blue, alpha)` in
  /// 0…255 (alpha 0…1): a named colour is stored without its components.
  private static let systemColors: [String: (Int, Int, Int, Double)] = [
    "systemBackgroundColor": (255, 255, 255, 1), "secondarySystemBackgroundColor": (242, 242, 247, 1),
    "tertiarySystemBackgroundColor": (255, 255, 255, 1), "systemGroupedBackgroundColor": (242, 242, 247, 1),
    "secondarySystemGroupedBackgroundColor": (255, 255, 255, 1), "groupTableViewBackgroundColor": (239, 239, 244, 1),
    "labelColor": (0, 0, 0, 1), "secondaryLabelColor": (60, 60, 67, 0.6), "tertiaryLabelColor": (60, 60, 67, 0.3),
    "placeholderTextColor": (60, 60, 67, 0.3), "separatorColor": (60, 60, 67, 0.29),
    "opaqueSeparatorColor": (198, 198, 200, 1),
    "systemGrayColor": (142, 142, 147, 1), "systemGray2Color": (174, 174, 178, 1),
    "systemGray3Color": (199, 199, 204, 1),
    "systemGray4Color": (209, 209, 214, 1), "systemGray5Color": (229, 229, 234, 1),
    "systemGray6Color": (242, 242, 247, 1),
    "systemBlueColor": (0, 122, 255, 1), "systemRedColor": (255, 59, 48, 1), "systemGreenColor": (52, 199, 89, 1),
    "systemOrangeColor": (255, 149, 0, 1), "systemYellowColor": (255, 204, 0, 1), "systemPinkColor": (255, 45, 85, 1),
    "systemPurpleColor": (175, 82, 222, 1), "systemTealColor": (90, 200, 250, 1), "systemIndigoColor": (88, 86, 214, 1),
    "tintColor": (0, 122, 255, 1), "linkColor": (0, 122, 255, 1), "whiteColor": (255, 255, 255, 1),
    "blackColor": (0, 0, 0, 1), "clearColor": (0, 0, 0, 0), "darkTextColor": (0, 0, 0, 1),
    "lightTextColor": (255, 255, 255, 0.6), "windowBackgroundColor": (236, 236, 236, 1),
    "controlBackgroundColor": (255, 255, 255, 1), "textBackgroundColor": (255, 255, 255, 1),
    "controlColor": (255, 255, 255, 1), "controlTextColor": (0, 0, 0, 1), "textColor": (0, 0, 0, 1),
    "underPageBackgroundColor": (150, 150, 150, 1),
    "viewFlipsideBackgroundColor": (31, 33, 36, 1), "scrollViewTexturedBackgroundColor": (111, 113, 121, 1),
  ]

  /// `rgb(…)` for a colour, with its opacity apart. A named colour is drawn with its system value, or a neutral grey
  /// when its value lives in an asset catalog the document does not hold.
  private static func paint(_ color: Color) -> (fill: String, opacity: String?) {
    if let name = color.name, color.red == 0, color.green == 0, color.blue == 0 {
      let (red, green, blue, alpha) = systemColors[name] ?? (209, 213, 219, 1)
      return ("rgb(\(red),\(green),\(blue))", alpha < 1 ? n(alpha) : nil)
    }
    func channel(_ value: Double) -> Int { value.isFinite ? Int((min(max(value, 0), 1) * 255).rounded()) : 0 }
    let alpha = color.alpha.isFinite ? min(max(color.alpha, 0), 1) : 1
    return ("rgb(\(channel(color.red)),\(channel(color.green)),\(channel(color.blue)))", alpha < 1 ? n(alpha) : nil)
  }

  private static func fill(_ color: Color?, default fallback: String) -> Attributes {
    guard let color else { return [("fill", fallback)] }
    let (fill, opacity) = paint(color)
    return [("fill", fill)] + (opacity.map { [("fill-opacity", $0)] } ?? [])
  }

  private mutating func writeDocument(declaration: Bool) {
    let width = Self.n(sketch.size.width)
    let height = Self.n(sketch.size.height)
    var attributes: Attributes = [("xmlns", "http://www.w3.org/2000/svg")]
    attributes += [("width", width), ("height", height), ("viewBox", "0 0 \(width) \(height)")]
    attributes += [("font-family", "Helvetica, Arial, sans-serif"), ("data-kind", "document")]
    if declaration { markup.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>") }
    markup.open("svg", attributes)
    markup.open("defs")
    markup.open(
      "marker",
      [
        ("id", "segue-arrow"), ("viewBox", "0 0 10 10"), ("refX", "9"), ("refY", "5"),
        ("markerWidth", "8"), ("markerHeight", "8"), ("orient", "auto-start-reverse"),
      ])
    markup.leaf("path", [("d", "M 0 0 L 10 5 L 0 10 z"), ("fill", Palette.segue)])
    markup.close("marker")
    markup.close("defs")
    markup.leaf("rect", [("width", width), ("height", height), ("fill", Palette.canvas)])
    for placeholder in sketch.placeholders { writePlaceholder(placeholder) }
    for scene in sketch.scenes { writeScene(scene) }
    writeSegues()
    markup.close("svg")
  }

  private mutating func writePlaceholder(_ placeholder: Sketch.Placeholder) {
    let frame = placeholder.frame
    markup.open(
      "g", [("data-id", placeholder.id), ("data-class", placeholder.className), ("data-kind", "placeholder")])
    markup.leaf("rect", Self.box(frame) + [("rx", "6"), ("fill", Palette.placeholder), ("stroke", Palette.outline)])
    markup.leaf(
      "text",
      [
        ("x", Self.n(frame.minX + 8)), ("y", Self.n(frame.center.y)), ("dominant-baseline", "central"),
        ("font-size", "12"), ("fill", Palette.caption),
      ], text: placeholder.label)
    markup.close("g")
  }

  private mutating func writeScene(_ scene: Sketch.Scene) {
    let frame = scene.frame
    // A scene whose top-level object is its root view is that view's drawing; a controller or window is drawn
    // as the scene itself.
    var attributes: Attributes = [("data-scene", scene.id), ("data-kind", "scene")]
    if scene.root?.id != scene.id {
      attributes = [("data-id", scene.id), ("data-class", scene.className)] + attributes
    }
    markup.open("g", attributes)
    markup.leaf(
      "text",
      [("x", Self.n(frame.minX)), ("y", Self.n(frame.minY - 8)), ("font-size", "12"), ("fill", Palette.caption)],
      text: scene.caption)
    markup.leaf("rect", Self.box(frame) + [("fill", Palette.sceneBackground), ("stroke", Palette.outline)])
    // Views outside their scene (scrolled content, off-screen views) are cut at its edge, as the device would.
    sceneCount += 1
    let clip = "scene-clip-\(sceneCount)"
    markup.open("clipPath", [("id", clip)])
    markup.leaf("rect", Self.box(frame))
    markup.close("clipPath")
    if let title = scene.titleBar {
      let bar = Rect(x: frame.minX, y: frame.minY, width: frame.width, height: SketchBuilder.titleBarHeight)
      markup.open("g", [("data-kind", "title-bar")])
      markup.leaf("rect", Self.box(bar) + [("fill", Palette.titleBar), ("stroke", Palette.outline)])
      for (index, color) in ["#ff5f57", "#febc2e", "#28c840"].enumerated() {
        markup.leaf(
          "circle",
          [
            ("cx", Self.n(bar.minX + 12 + Double(index) * 18)), ("cy", Self.n(bar.center.y)), ("r", "5.5"),
            ("fill", color),
          ])
      }
      markup.leaf(
        "text",
        [
          ("x", Self.n(bar.center.x)), ("y", Self.n(bar.center.y)), ("text-anchor", "middle"),
          ("dominant-baseline", "central"), ("font-size", "13"), ("fill", Palette.caption),
        ], text: title)
      markup.close("g")
    }
    if let root = scene.root {
      markup.open("g", [("clip-path", "url(#\(clip))")])
      writeNode(root)
      markup.close("g")
    }
    markup.close("g")
  }

  private mutating func writeNode(_ node: Sketch.Node) {
    var attributes: Attributes = [
      ("data-id", node.id), ("data-class", node.className), ("data-kind", node.kind.rawValue),
    ]
    if node.isHidden { attributes += [("opacity", "0.35"), ("data-hidden", "true")] }
    markup.open("g", attributes)
    writeBody(node)
    for child in node.children { writeNode(child) }
    markup.close("g")
  }

  /// The node's own drawing: its frame, then what its kind shows.
  private mutating func writeBody(_ node: Sketch.Node) {
    let frame = node.frame
    switch node.kind {
    case .imageView:
      markup.leaf(
        "rect", Self.box(frame) + Self.fill(node.background, default: "#e9edf3") + [("stroke", Palette.outline)])
      markup.leaf(
        "path",
        [
          (
            "d",
            "M \(Self.n(frame.minX)) \(Self.n(frame.minY)) L \(Self.n(frame.minX + frame.width)) "
              + "\(Self.n(frame.minY + frame.height)) M \(Self.n(frame.minX + frame.width)) \(Self.n(frame.minY)) "
              + "L \(Self.n(frame.minX)) \(Self.n(frame.minY + frame.height))"
          ), ("stroke", Palette.outline),
          ("stroke-width", "0.75"),
        ])
      writeText(
        node.secondaryText ?? "image", in: frame, size: 11, color: Palette.caption, anchor: "middle", italic: true)
    case .textField, .searchBar:
      markup.leaf(
        "rect",
        Self.box(frame) + Self.fill(node.background, default: "#ffffff") + [("rx", "5"), ("stroke", Palette.outline)])
      let inset = Rect(x: frame.minX + 6, y: frame.minY, width: max(frame.width - 12, 0), height: frame.height)
      if let text = node.text, !text.isEmpty {
        writeText(text, in: inset, size: node.fontSize, color: colour(node.textColor, "#000000"), anchor: anchor(node))
      } else {
        writeText(
          node.secondaryText ?? "", in: inset, size: node.fontSize, color: Palette.placeholderText, anchor: anchor(node)
        )
      }
    case .label:
      writeFrame(node)
      writeText(
        node.text ?? "", in: frame, size: node.fontSize, color: colour(node.textColor, "#000000"), anchor: anchor(node))
    case .button:
      writeFrame(node)
      if sketch.isAppKit {
        markup.leaf("rect", Self.box(frame) + [("rx", "5"), ("fill", "#ffffff"), ("stroke", Palette.outline)])
      }
      if let title = node.text, !title.isEmpty {
        writeText(
          title, in: frame, size: node.fontSize, color: sketch.isAppKit ? "#000000" : Palette.tint, anchor: "middle")
      } else if let image = node.secondaryText {
        // A button that shows an image: its name, as image views show theirs.
        writeText(image, in: frame, size: 11, color: Palette.tint, anchor: "middle", italic: true)
      } else {
        writeText("", in: frame, size: node.fontSize, color: Palette.tint, anchor: "middle")
      }
    case .checkBox, .radioButton:
      writeFrame(node)
      let side = min(14, max(frame.height - 2, 4))
      let mark = Rect(x: frame.minX + 2, y: frame.center.y - side / 2, width: side, height: side)
      let corner = node.kind == .checkBox ? "3" : Self.n(side / 2)
      markup.leaf("rect", Self.box(mark) + [("rx", corner), ("fill", "#ffffff"), ("stroke", Palette.outline)])
      let text = Rect(
        x: mark.minX + side + 6, y: frame.minY, width: max(frame.width - side - 8, 0), height: frame.height)
      writeText(node.text ?? "", in: text, size: node.fontSize, color: "#000000", anchor: "start")
    case .switchControl:
      writeFrame(node)
      let track = Rect(x: frame.minX, y: frame.center.y - 15.5, width: 51, height: 31)
      markup.leaf("rect", Self.box(track) + [("rx", "15.5"), ("fill", node.value > 0 ? Palette.on : Palette.track)])
      let knobX = node.value > 0 ? track.minX + 35.5 : track.minX + 15.5
      markup.leaf(
        "circle",
        [
          ("cx", Self.n(knobX)), ("cy", Self.n(track.center.y)), ("r", "13.5"), ("fill", "#ffffff"),
          ("stroke", Palette.outline), ("stroke-width", "0.5"),
        ])
    case .slider, .progress:
      writeFrame(node)
      let thick = node.kind == .slider ? 4.0 : 3.0
      let track = Rect(x: frame.minX, y: frame.center.y - thick / 2, width: frame.width, height: thick)
      let filled = Rect(x: track.minX, y: track.minY, width: track.width * min(node.value, 1), height: thick)
      markup.leaf("rect", Self.box(track) + [("rx", Self.n(thick / 2)), ("fill", Palette.track)])
      markup.leaf("rect", Self.box(filled) + [("rx", Self.n(thick / 2)), ("fill", Palette.tint)])
      if node.kind == .slider {
        markup.leaf(
          "circle",
          [
            ("cx", Self.n(filled.minX + filled.width)), ("cy", Self.n(track.center.y)), ("r", "10"),
            ("fill", "#ffffff"), ("stroke", Palette.outline),
          ])
      }
    case .segmentedControl:
      writeSegments(node)
    case .stepper:
      markup.leaf("rect", Self.box(frame) + [("rx", "6"), ("fill", "#ffffff"), ("stroke", Palette.tint)])
      let middle = frame.center.x
      markup.leaf(
        "line",
        [
          ("x1", Self.n(middle)), ("y1", Self.n(frame.minY)), ("x2", Self.n(middle)),
          ("y2", Self.n(frame.minY + frame.height)), ("stroke", Palette.tint),
        ])
      let half = frame.width / 2
      writeText(
        "\u{2212}", in: Rect(x: frame.minX, y: frame.minY, width: half, height: frame.height), size: 18,
        color: Palette.tint, anchor: "middle")
      writeText(
        "+", in: Rect(x: middle, y: frame.minY, width: half, height: frame.height), size: 18, color: Palette.tint,
        anchor: "middle")
    case .activityIndicator:
      writeFrame(node)
      let radius = max(min(frame.width, frame.height) / 2 - 2, 1)
      markup.leaf(
        "circle",
        [
          ("cx", Self.n(frame.center.x)), ("cy", Self.n(frame.center.y)), ("r", Self.n(radius)),
          ("fill", "none"), ("stroke", Palette.outline), ("stroke-width", "3"), ("stroke-dasharray", "4 3"),
        ])
    case .pageControl:
      writeFrame(node)
      for index in 0..<3 {
        markup.leaf(
          "circle",
          [
            ("cx", Self.n(frame.center.x + Double(index - 1) * 16)), ("cy", Self.n(frame.center.y)),
            ("r", "3.5"), ("fill", index == 0 ? "#555555" : Palette.track),
          ])
      }
    case .tableView:
      writeFrame(node, fallback: "#ffffff", stroke: Palette.outline)
    case .tableViewCell:
      writeFrame(node, fallback: "#ffffff")
      let bottom = frame.minY + frame.height
      markup.leaf(
        "line",
        [
          ("x1", Self.n(frame.minX + 15)), ("y1", Self.n(bottom)), ("x2", Self.n(frame.minX + frame.width)),
          ("y2", Self.n(bottom)), ("stroke", Palette.track),
        ])
    case .navigationBar, .toolbar, .tabBar:
      writeFrame(node, fallback: "#f7f7f8", stroke: Palette.outline)
    case .textView:
      writeFrame(node, fallback: "#ffffff", stroke: Palette.track)
      writeText(
        node.text ?? "",
        in: Rect(x: frame.minX + 4, y: frame.minY, width: frame.width, height: min(frame.height, node.fontSize * 1.6)),
        size: node.fontSize, color: colour(node.textColor, "#000000"), anchor: "start")
    case .control:
      writeFrame(node, stroke: Palette.outline)
    case .view, .scrollView, .window:
      writeFrame(node, stroke: node.background == nil ? Palette.track : nil)
      if let text = node.text, !text.isEmpty {
        writeText(text, in: frame, size: node.fontSize, color: "#000000", anchor: "start")
      }
    }
  }

  /// The node's rectangle: its background colour (or the fallback, or none), with an outline when given.
  private mutating func writeFrame(_ node: Sketch.Node, fallback: String = "none", stroke: String? = nil) {
    var attributes = Self.box(node.frame) + Self.fill(node.background, default: fallback)
    if let stroke { attributes += [("stroke", stroke), ("stroke-width", "0.5")] }
    markup.leaf("rect", attributes)
  }

  private mutating func writeSegments(_ node: Sketch.Node) {
    let frame = node.frame
    let titles = node.segments.isEmpty ? ["", ""] : node.segments
    markup.leaf("rect", Self.box(frame) + [("rx", "6"), ("fill", "#ffffff"), ("stroke", Palette.tint)])
    let width = frame.width / Double(titles.count)
    for (index, title) in titles.enumerated() {
      let segment = Rect(x: frame.minX + Double(index) * width, y: frame.minY, width: width, height: frame.height)
      let selected = Double(index) == node.value
      if selected { markup.leaf("rect", Self.box(segment) + [("fill", Palette.tint)]) }
      if index > 0 {
        markup.leaf(
          "line",
          [
            ("x1", Self.n(segment.minX)), ("y1", Self.n(frame.minY)), ("x2", Self.n(segment.minX)),
            ("y2", Self.n(frame.minY + frame.height)), ("stroke", Palette.tint),
          ])
      }
      writeText(title, in: segment, size: 13, color: selected ? "#ffffff" : Palette.tint, anchor: "middle")
    }
  }

  private func colour(_ color: Color?, _ fallback: String) -> String { color.map { Self.paint($0).fill } ?? fallback }

  private func anchor(_ node: Sketch.Node) -> String {
    switch node.textAlignment {
    case "center"?: "middle"
    case "right"?: "end"
    default: "start"
    }
  }

  /// One line of text, vertically centred in `frame`, anchored at its start, middle or end.
  private mutating func writeText(
    _ text: String, in frame: Rect, size: Double, color: String, anchor: String, italic: Bool = false
  ) {
    let x =
      switch anchor {
      case "middle": frame.center.x
      case "end": frame.minX + frame.width
      default: frame.minX
      }
    var attributes: Attributes = [("x", Self.n(x)), ("y", Self.n(frame.center.y)), ("font-size", Self.n(size))]
    attributes += [("fill", color), ("dominant-baseline", "central")]
    if anchor != "start" { attributes.append(("text-anchor", anchor)) }
    if italic { attributes.append(("font-style", "italic")) }
    // An image's name is the drawing's own caption, not the document's text: it is cut to its frame's width.
    markup.leaf("text", attributes, text: italic ? Self.fitted(text, width: frame.width, size: size) : text)
  }

  /// `text`, cut with an ellipsis to about what fits in `width` at `size` points (an average glyph is a little over
  /// half the font size wide).
  private static func fitted(_ text: String, width: Double, size: Double) -> String {
    guard width.isFinite, size.isFinite, size > 0 else { return text }
    let fits = max(Int(min(width, 1e6) / (size * 0.55)), 1)
    return text.count <= fits ? text : String(text.prefix(max(fits - 1, 1))) + "\u{2026}"
  }

  /// Segues as arrows from the source (a control or the scene) to the destination scene.
  private mutating func writeSegues() {
    var frames: [String: Rect] = [:]
    func collect(_ node: Sketch.Node) {
      if !node.id.isEmpty { frames[node.id] = node.frame }
      for child in node.children { collect(child) }
    }
    for scene in sketch.scenes {
      if let root = scene.root { collect(root) }
      frames[scene.id] = scene.frame
    }
    for connection in sketch.connections where connection.kind == "segue" {
      guard let source = frames[connection.sourceID], let id = connection.destinationID, let destination = frames[id]
      else { continue }
      let start = Point(x: source.minX + source.width, y: source.center.y)
      let forward = destination.minX >= start.x
      let end = Point(x: forward ? destination.minX : destination.minX + destination.width, y: destination.center.y)
      let bend = max(abs(end.x - start.x) / 2, 40)
      let path =
        "M \(Self.n(start.x)) \(Self.n(start.y)) C \(Self.n(start.x + bend)) \(Self.n(start.y)) "
        + "\(Self.n(forward ? end.x - bend : end.x + bend)) \(Self.n(end.y)) \(Self.n(end.x)) \(Self.n(end.y))"
      var attributes: Attributes = [
        ("data-kind", "segue"), ("data-source", connection.sourceID), ("data-destination", id),
      ]
      if let connectionID = connection.id { attributes.insert(("data-id", connectionID), at: 0) }
      attributes += [
        ("data-class", "UIStoryboardSegue"), ("d", path), ("fill", "none"), ("stroke", Palette.segue),
        ("stroke-width", "2"), ("marker-end", "url(#segue-arrow)"),
      ]
      markup.leaf("path", attributes)
    }
  }
}
