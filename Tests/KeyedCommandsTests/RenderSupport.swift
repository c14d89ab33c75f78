import Foundation
import KeyedCommands
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML document (a XIB, an SVG, a dumped DOM) read with the toolchain's `XMLParser`, independent of the tool's
/// own XML scanner: every element with its attributes, its parent and its own text, in document order.
struct MarkupTree {
  struct Element {
    var name: String
    var attributes: [String: String]
    var parent: Int?
    var text = ""
  }

  private(set) var elements: [Element] = []

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(_ data: Data) throws {
    let delegate = Delegate()
    let parser = XMLParser(data: data)
    parser.delegate = delegate
    parser.shouldResolveExternalEntities = false
    guard parser.parse() else {
      throw Failure(description: "not well-formed XML: \(String(describing: parser.parserError))")
    }
    elements = delegate.elements
  }

  private final class Delegate: NSObject, XMLParserDelegate {
    var elements: [Element] = []
    var stack: [Int] = []
    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      elements.append(Element(name: name, attributes: attributes, parent: stack.last))
      stack.append(elements.count - 1)
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      stack.removeLast()
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if let last = stack.last { elements[last].text += string }
    }
  }

  /// The indexes of the element's children.
  func children(of index: Int) -> [Int] { elements.indices.filter { elements[$0].parent == index } }

  /// The first element (in document order) with an attribute's value.
  func first(_ attribute: String, _ value: String) -> Int? {
    elements.indices.first { elements[$0].attributes[attribute] == value }
  }

  /// Every text inside the element, its descendants' included.
  func texts(under index: Int) -> [String] {
    var result: [String] = []
    for i in elements.indices where elements[i].name == "text" && isInside(i, index) { result.append(elements[i].text) }
    return result
  }

  func isInside(_ index: Int, _ ancestor: Int) -> Bool {
    var current: Int? = index
    while let i = current {
      if i == ancestor { return true }
      current = elements[i].parent
    }
    return false
  }

  /// The drawn frame of the object with a `data-id`: the first `<rect>` of its `<g>`, as x, y, width, height.
  func drawnFrame(_ id: String) -> [Double]? {
    guard
      let group = elements.indices.first(where: { elements[$0].name == "g" && elements[$0].attributes["data-id"] == id }
      ),
      let rect = children(of: group).first(where: { elements[$0].name == "rect" })
    else { return nil }
    let attributes = elements[rect].attributes
    return ["x", "y", "width", "height"].map { Double(attributes[$0] ?? "") ?? .nan }
  }
}

/// A view of a XIB as written: each element with an id and a frame, and the nearest enclosing element with a
/// frame (its superview in the drawing).
struct XIBFrames {
  struct View {
    var id: String
    var element: String
    var frame: [Double]
    var parent: String?
    /// A label's text or a button's normal title.
    var text: String?
  }

  var views: [View] = []
  /// Every id of the document (objects, placeholders and connections).
  var ids: [String] = []
  /// Connections: kind (element name), source id, destination id.
  var connections: [(kind: String, source: String, destination: String)] = []

  init(_ url: URL) throws {
    let tree = try MarkupTree(Data(contentsOf: url))
    var byElement: [Int: Int] = [:]
    for (index, element) in tree.elements.enumerated() {
      if let id = element.attributes["id"] { ids.append(id) }
      if ["outlet", "action", "segue", "outletCollection"].contains(element.name),
        let destination = element.attributes["destination"]
      {
        // The source is the object whose <connections> holds the connection.
        var owner = element.parent.flatMap { tree.elements[$0].parent }
        while let o = owner, tree.elements[o].attributes["id"] == nil { owner = tree.elements[o].parent }
        if let o = owner, let source = tree.elements[o].attributes["id"] {
          connections.append((element.name, source, destination))
        }
      }
      guard element.name == "rect", element.attributes["key"] == "frame", let owner = element.parent,
        let id = tree.elements[owner].attributes["id"]
      else { continue }
      let frame = ["x", "y", "width", "height"].map { Double(element.attributes[$0] ?? "") ?? 0 }
      var ancestor = tree.elements[owner].parent
      var parent: String?
      while let a = ancestor {
        if let known = byElement[a] {
          parent = views[known].id
          break
        }
        ancestor = tree.elements[a].parent
      }
      let ownerElement = tree.elements[owner]
      var text = ownerElement.attributes["text"]
      if ownerElement.name == "button" {
        text = tree.children(of: owner).lazy.compactMap { tree.elements[$0].attributes["title"] }.first
      }
      byElement[owner] = views.count
      views.append(View(id: id, element: ownerElement.name, frame: frame, parent: parent, text: text))
    }
  }
}

/// The scenario XIBs that ship with the tool.
let scenarioFolder = packageRoot.appendingPathComponent("Sources/KeyedCommands/Resources/Scenarios")
let scenarioNames = [
  "BadgeHost", "BookCardView", "ConnectedActionsView", "DecoupledView", "PlainView", "ProfileBadgeView",
  "ReferencedView", "SubclassedView", "TableViewCell",
]

/// Renders a file with `keyed render` in-process into a fresh directory and returns the picture's bytes.
func rendered(
  _ input: URL, as fileExtension: String = "svg", extra: [String] = [],
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> Data {
  let directory = try makeTemporaryDirectory("keyed-render")
  defer { try? FileManager.default.removeItem(at: directory) }
  let out = directory.appendingPathComponent("picture.\(fileExtension)")
  let result = KeyedTool.run(["render", input.path, "-o", out.path] + extra)
  #expect(result.status == 0, "\(input.lastPathComponent): \(result.errors)", sourceLocation: sourceLocation)
  return (try? Data(contentsOf: out)) ?? Data()
}
