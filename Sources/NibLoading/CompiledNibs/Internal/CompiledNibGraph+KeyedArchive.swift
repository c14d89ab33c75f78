import ArchiveCoding
import Foundation
import FoundationForms
import KeyedArchive
import PropertyList

extension CompiledNibGraph {
  /// The Foundation value class a class chain stands for, decided by the first name of the chain that is one of
  /// them (NIBA-041).
  enum FoundationKind {
    case array, dictionary, string, data, number, null

    /// Each kind's classes, in the order a class is tried against them.
    private static let kinds: [(classes: Set<String>, kind: Self)] = [
      (CompiledNibWireNames.arrayClasses, .array), (CompiledNibWireNames.dictionaryClasses, .dictionary),
      (CompiledNibWireNames.stringClasses, .string), (CompiledNibWireNames.dataClasses, .data),
      (CompiledNibWireNames.numberClasses, .number), (CompiledNibWireNames.nullClasses, .null),
    ]

    /// The kind of the first class of the chain that is a Foundation value class.
    init?(chain: [String]) {
      for name in chain {
        if let kind = Self.kinds.first(where: { $0.classes.contains(name) }) {
          self = kind.kind
          return
        }
      }
      return nil
    }
  }

  /// The limits of the keyed-archive reader for nibs: the unarchiver's, but class names, which the assembler
  /// checks in bytes where it uses them (NIBA-050).
  static let archiveOptions: KeyedUnarchiverOptions = {
    var options = KeyedUnarchiverOptions.default
    options.maxClassNameLength = .max
    return options
  }()

  /// Builds the graph of a keyed-archive nib (NIBA-042): opens the archive through ``KeyedArchiveGraph``, which
  /// validates the `$archiver`/`$version`/`$top`/`$objects` layout, then turns every `$objects` entry into a node.
  /// - Parameters:
  ///   - data: a binary or XML property list.
  ///   - fileName: the name used in error locations.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` from the property-list reader; `.unsupportedFormat` when the plist is not an
  ///   `NSKeyedArchiver` archive; `.corruptData` for a malformed class reference, a UID past `$objects`, or an entry
  ///   that cannot be an archived object. Every error's location names the file.
  static func keyedArchive(_ data: Data, fileName: String) throws -> CompiledNibGraph {
    do {
      var archive = try KeyedArchiveGraph(data: data, options: archiveOptions)
      // The nodes keep every value: a string or data that many entries or fields refer to is read once (ARC-007).
      archive.payloads = SharedPayloads()
      var builder = KeyedGraphBuilder(archive: archive, fileName: fileName)
      let count = builder.archive.objectCount
      var nodes: [Node] = []
      nodes.reserveCapacity(count)
      for index in 0..<count { nodes.append(try builder.node(index)) }
      let root = try builder.rootFields()
      return CompiledNibGraph(
        nodes: nodes, root: root, rootNode: nil, containerName: "keyed archive", warnings: builder.warnings)
    } catch let error as ArchiveError {
      throw error.located(in: .init(file: fileName))
    }
  }
}

/// Turns `$objects` entries into graph nodes, reading them through ``KeyedArchiveGraph``.
private struct KeyedGraphBuilder {
  typealias Value = CompiledNibGraph.Value
  typealias Node = CompiledNibGraph.Node
  typealias Field = CompiledNibGraph.Field
  typealias Names = CompiledNibWireNames

  var archive: KeyedArchiveGraph
  let fileName: String
  var warnings: [String] = []

  init(archive: KeyedArchiveGraph, fileName: String) {
    self.archive = archive
    self.fileName = fileName
  }

  func location(_ index: Int?, _ className: String? = nil, key: String? = nil) -> ArchiveError.Location {
    ArchiveError.Location(file: fileName, objectIndex: index, className: className, keyPath: key)
  }

  /// The root's fields: `$top`'s entries.
  mutating func rootFields() throws -> [Field] {
    try archive.topLevelFields().map { field($0, index: nil) }
  }

  /// A stored field as a graph field: its key unescaped, its value converted.
  mutating func field(_ field: KeyedArchiveGraph.Field, index: Int?) -> Field {
    Field(key: KeyedArchiveGraph.unescaped(field.key), value: value(field.value, at: index, key: field.key))
  }

  /// The node of `$objects[index]`.
  mutating func node(_ index: Int) throws -> Node {
    switch try archive.kind(of: index) {
    case .null:
      return .value(.null)
    case .scalar, .string, .data:
      return .value(try archive.plainValue(of: index).map { value($0, at: index, key: nil) } ?? .null)
    case .dictionary:
      return .unusable("a dictionary without $class (a class description) is not an object")
    case .collection:
      return .collection(
        className: FoundationClass.array,
        elements: try archive.elements(of: index).map { value($0, at: index, key: nil) })
    case .classObject:
      let description = try archive.classDescription(ofObject: index)
      let fields = try archive.fields(of: index, className: description.name).map { field($0, index: index) }
      return try object(fields, index: index, chain: description.chain)
    }
  }

  /// A field value as a graph value: a reference becomes a node reference (the archive checked it), an inline
  /// array or set an array of values, an inline dictionary nil with a warning.
  mutating func value(_ value: PropertyListValue, at index: Int?, key: String?) -> Value {
    switch value {
    case .uid(let raw): return .node(Int(raw))
    case .null: return .null
    case .array(let elements), .set(let elements): return .array(elements.map { self.value($0, at: index, key: key) })
    case .dictionary:
      warnings.append("\(location(index, key: key)): an inline dictionary is not a keyed-archive value; read as nil")
      return .null
    case .string(let text): return .string(text)
    case .integer(let number): return .integer(number)
    case .unsignedInteger(let number): return .real(Double(number))
    case .real(let number): return .real(number)
    case .float(let number): return .real(Double(number))
    case .bool(let flag): return .bool(flag)
    case .data(let bytes): return .data(bytes)
    case .date(let date): return .real(date.timeIntervalSinceReferenceDate)
    }
  }

  /// An archived object: a Foundation value folded (NIBA-041), or an object node with its fields.
  mutating func object(_ fields: [CompiledNibGraph.Field], index: Int, chain: [String]) throws -> Node {
    let className = chain[0]
    func field(_ key: String) -> Value? { fields.first { $0.key == key }?.value }
    switch CompiledNibGraph.FoundationKind(chain: chain) {
    case .array?:
      return .collection(
        className: className,
        elements: try sequence(fields, index: index, key: Names.nsObjects, prefix: Names.nsObjectPrefix))
    case .dictionary?:
      let keys = try sequence(fields, index: index, key: Names.nsKeys, prefix: Names.nsKeyPrefix)
      let objects = try sequence(fields, index: index, key: Names.nsObjects, prefix: Names.nsObjectPrefix)
      if keys.count != objects.count {
        warnings.append(
          "\(location(index, className)): \(keys.count) keys but \(objects.count) values; the extra entries are ignored"
        )
      }
      return .dictionary(className: className, pairs: zip(keys, objects).map { (key: $0, value: $1) })
    case .string?:
      if case .string(let text)? = try plainValue(field(Names.nsString)) { return .value(.string(text)) }
      if case .data(let bytes)? = try plainValue(field(Names.nsBytes)),
        let text = String(validating: bytes, as: UTF8.self)
      {
        return .value(.string(text))
      }
      return .unusable("\(className) without a string in \(Names.nsString) or UTF-8 \(Names.nsBytes)")
    case .data?:
      for key in [Names.nsData, Names.nsBytes] {
        if case .data(let bytes)? = try plainValue(field(key)) { return .value(.data(bytes)) }
      }
      return .unusable("\(className) without data in \(Names.nsData) or \(Names.nsBytes)")
    case .number?:
      for key in [Names.nsIntegerValue, Names.nsDoubleValue, Names.nsBoolValue] {
        if let number = try plainValue(field(key)), CompiledNibGraph.isScalar(number) { return .value(number) }
      }
      return .unusable("\(className) without \(Names.nsIntegerValue), \(Names.nsDoubleValue) or \(Names.nsBoolValue)")
    case .null?:
      return .value(.null)
    case nil:
      return .object(.init(className: className, classChain: chain, fields: fields))
    }
  }

  /// The elements of `NS.objects` (an array) or of `NS.object.0`, `NS.object.1`, … when it is absent.
  func sequence(_ fields: [CompiledNibGraph.Field], index: Int, key: String, prefix: String) throws -> [Value] {
    if let list = fields.first(where: { $0.key == key })?.value {
      guard case .array(let elements) = list else {
        throw ArchiveError(.corruptData, "expected an array", at: location(index, key: key))
      }
      return elements
    }
    let numbered = Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    var elements: [Value] = []
    // The fields bound the loop: each element is one of them.
    while let element = numbered[prefix + String(elements.count)] { elements.append(element) }
    return elements
  }

  /// A value written inline or as a plain (non-object) `$objects` entry; a reference to anything else gives `nil`.
  mutating func plainValue(_ value: Value?) throws -> Value? {
    guard case .node(let target)? = value else { return value }
    switch try archive.kind(of: target) {
    case .null: return .null
    case .scalar, .string, .data: return try archive.plainValue(of: target).map { self.value($0, at: target, key: nil) }
    default: return nil
    }
  }
}
