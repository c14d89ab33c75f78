import Foundation
import XIB

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Builds the same tree as `XMLScanner` with the toolchain's `XMLParser` (libxml2 SAX), as a differential oracle and
/// as the peer of the scanner's timing comparison. It applies the same text rule (white-space-only runs of character
/// data are dropped in elements that have child elements). `XMLParser` reports attributes in a dictionary, so their
/// order is not known: compare with ``XMLTreeComparison`` which sorts them.
final class FoundationXMLTreeBuilder: NSObject, XMLParserDelegate {
  private var stack: [XMLElementNode] = []
  private var root: XMLElementNode?
  private var segment = ""

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The root element of the document, or the parser's error.
  static func parse(_ data: Data) throws -> XMLElementNode {
    let parser = XMLParser(data: data)
    let builder = FoundationXMLTreeBuilder()
    parser.delegate = builder
    parser.shouldProcessNamespaces = false
    parser.shouldResolveExternalEntities = false
    guard parser.parse(), let root = builder.root else {
      throw Failure(description: "XMLParser failed: \(String(describing: parser.parserError))")
    }
    return root
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
    attributes attributeDict: [String: String] = [:]
  ) {
    if !stack.isEmpty {
      if !isWhitespace(segment) { stack[stack.count - 1].text += segment }
    }
    segment = ""
    let attributes = attributeDict.map { XMLElementNode.Attribute(name: $0.key, value: $0.value) }
    stack.append(XMLElementNode(name: elementName, attributes: attributes))
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
  ) {
    guard var node = stack.popLast() else { return }
    if node.children.isEmpty {
      node.text = segment
    } else if !isWhitespace(segment) {
      node.text += segment
    }
    segment = ""
    if stack.isEmpty {
      root = node
    } else {
      stack[stack.count - 1].children.append(node)
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    segment += string
  }

  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
    segment += String(decoding: CDATABlock, as: UTF8.self)
  }

  private func isWhitespace(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
  }
}

/// Compares two element trees ignoring attribute order and positions; returns the first difference.
enum XMLTreeComparison {
  static func firstDifference(_ left: XMLElementNode, _ right: XMLElementNode, path: String = "") -> String? {
    let here = path + "/" + left.name
    if left.name != right.name { return "\(here): name \(left.name) vs \(right.name)" }
    let leftAttributes = left.attributes.sorted { $0.name < $1.name }
    let rightAttributes = right.attributes.sorted { $0.name < $1.name }
    if leftAttributes != rightAttributes { return "\(here): attributes \(leftAttributes) vs \(rightAttributes)" }
    if left.text != right.text {
      return "\(here): text \(left.text.debugDescription) vs \(right.text.debugDescription)"
    }
    if left.children.count != right.children.count {
      return "\(here): \(left.children.count) vs \(right.children.count) children"
    }
    for (index, pair) in zip(left.children, right.children).enumerated() {
      if let difference = firstDifference(pair.0, pair.1, path: here + "[\(index)]") { return difference }
    }
    return nil
  }
}
