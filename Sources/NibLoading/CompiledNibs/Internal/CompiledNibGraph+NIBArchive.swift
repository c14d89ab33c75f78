import ArchiveCoding
import CompiledNib
import Foundation

extension CompiledNibGraph {
  /// Builds the graph of a NIBArchive nib (NIBA-043) from a validated document: every object becomes a node, its
  /// entries fields in stored order; object 0 is the root.
  /// - Parameters:
  ///   - document: the parsed archive.
  ///   - fileName: the name used in warnings.
  /// - Throws: `ArchiveError` `.corruptData` when the archive has no objects.
  static func nibArchive(_ document: NIBArchiveDocument, fileName: String) throws -> CompiledNibGraph {
    guard let rootIndex = document.rootObjectIndex else {
      throw ArchiveError(
        .corruptData, "expected a root object #0, found a NIBArchive without objects", at: .init(file: fileName))
    }
    let names = CompiledNibWireNames.self
    var warnings: [String] = []
    var nodes: [Node] = []
    nodes.reserveCapacity(document.objectCount)
    for index in 0..<document.objectCount {
      let chain = document.classNameChain(ofObject: index)
      let className = chain[0]
      let entries = document.entries(ofObject: index)
      func first(_ key: String) -> NIBArchiveValue? { entries.first { $0.key == key }?.value }
      let node: Node
      switch FoundationKind(chain: chain) {
      case .array?:
        node = .collection(className: className, elements: inlinedElements(entries))
      case .dictionary?:
        let flat = inlinedElements(entries)
        if flat.count % 2 != 0 {
          warnings.append(
            "\(ArchiveError.Location(file: fileName, objectIndex: index, className: className)): a dictionary with"
              + " \(flat.count) inlined entries (an odd number); the last one is ignored")
        }
        let pairs = stride(from: 0, to: flat.count - 1, by: 2).map { (key: flat[$0], value: flat[$0 + 1]) }
        node = .dictionary(className: className, pairs: pairs)
      case .string?:
        if let text = document.string(ofObject: index) {
          node = .value(.string(text))
        } else {
          node = .unusable("\(className) without UTF-8 \(names.nsBytes)")
        }
      case .data?:
        if case .data(let bytes)? = first(names.nsBytes) {
          node = .value(.data(bytes))
        } else {
          node = .unusable("\(className) without data in \(names.nsBytes)")
        }
      case .number?:
        if let number = [names.nsIntegerValue, names.nsDoubleValue, names.nsBoolValue].lazy.compactMap(first).first,
          case let value = Self.value(number), Self.isScalar(value)
        {
          node = .value(value)
        } else {
          node = .unusable(
            "\(className) without \(names.nsIntegerValue), \(names.nsDoubleValue) or \(names.nsBoolValue)")
        }
      case .null?:
        node = .value(.null)
      case nil:
        node = .object(
          Object(
            className: className, classChain: chain,
            fields: entries.map { Field(key: $0.key, value: Self.value($0.value)) }))
      }
      nodes.append(node)
    }
    let root = document.entries(ofObject: rootIndex).map { Field(key: $0.key, value: Self.value($0.value)) }
    return CompiledNibGraph(
      nodes: nodes, root: root, rootNode: rootIndex, containerName: "NIBArchive", warnings: warnings)
  }

  /// The elements of an inlined collection: every entry after the `NSInlinedValue` flag, whatever its key (NIBA-022).
  private static func inlinedElements(_ entries: [NIBArchiveEntry]) -> [Value] {
    let names = CompiledNibWireNames.self
    let elements = entries.first?.key == names.inlinedValue ? entries.dropFirst() : entries[...]
    return elements.filter { $0.key != names.inlinedValue }.map { value($0.value) }
  }

  /// `true` for a Boolean, integer or real: what a number node may hold (never a reference, so that value nodes
  /// never point at other nodes).
  static func isScalar(_ value: Value) -> Bool {
    switch value {
    case .bool, .integer, .real: true
    default: false
    }
  }

  /// A NIBArchive value as a graph value (NIBA-043).
  static func value(_ value: NIBArchiveValue) -> Value {
    switch value {
    case .int8(let number): .integer(Int64(number))
    case .int16(let number): .integer(Int64(number))
    case .int32(let number): .integer(Int64(number))
    case .int64(let number): .integer(number)
    case .bool(let flag): .bool(flag)
    case .float(let number): .real(Double(number))
    case .double(let number): .real(number)
    case .data(let bytes): .data(bytes)
    case .null: .null
    case .object(let index): .node(index)
    }
  }
}
