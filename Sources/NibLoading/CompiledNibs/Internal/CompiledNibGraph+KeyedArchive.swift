import ArchiveCoding
import Foundation
import PropertyList

extension CompiledNibGraph {
  /// The Foundation value class a class chain stands for, decided by the first name of the chain that is one of
  /// them (NIBA-041).
  enum FoundationKind {
    case array, dictionary, string, data, number, null

    init?(chain: [String]) {
      let names = CompiledNibWireNames.self
      for name in chain {
        if names.arrayClasses.contains(name) { self = .array; return }
        if names.dictionaryClasses.contains(name) { self = .dictionary; return }
        if names.stringClasses.contains(name) { self = .string; return }
        if names.dataClasses.contains(name) { self = .data; return }
        if names.numberClasses.contains(name) { self = .number; return }
        if names.nullClasses.contains(name) { self = .null; return }
      }
      return nil
    }
  }

  /// Builds the graph of a keyed-archive nib (NIBA-042): validates the `$archiver`/`$version`/`$top`/`$objects`
  /// layout, then turns every `$objects` entry into a node.
  /// - Parameters:
  ///   - data: a binary or XML property list.
  ///   - fileName: the name used in error locations.
  /// - Throws: ``ArchiveError`` from the property-list reader; `.unsupportedFormat` when the plist is not an
  ///   `NSKeyedArchiver` archive; `.corruptData` for a malformed class reference, a UID past `$objects`, or an entry
  ///   that cannot be an archived object.
  static func keyedArchive(_ data: Data, fileName: String) throws -> CompiledNibGraph {
    let names = CompiledNibWireNames.self
    let plist = try PropertyListReader.read(data, fileName: fileName)
    let file = ArchiveError.Location(file: fileName)
    guard case .dictionary(let container) = plist else {
      throw ArchiveError(
        .unsupportedFormat, "expected a keyed archive's top-level dictionary, found a \(plist.typeName)", at: file)
    }
    guard container[names.archiver]?.stringValue == names.archiverName else {
      throw ArchiveError(
        .unsupportedFormat,
        "expected $archiver \"\(names.archiverName)\", found \(container[names.archiver].map(describe) ?? "none")",
        at: file)
    }
    guard container[names.version]?.integerValue == names.versionNumber else {
      throw ArchiveError(
        .unsupportedFormat,
        "expected $version \(names.versionNumber), found \(container[names.version].map(describe) ?? "none")",
        at: file)
    }
    guard case .dictionary(let top)? = container[names.top] else {
      throw ArchiveError(.corruptData, "expected a $top dictionary", at: .init(file: fileName, keyPath: names.top))
    }
    guard case .array(let entries)? = container[names.objects] else {
      throw ArchiveError(
        .corruptData, "expected an $objects array", at: .init(file: fileName, keyPath: names.objects))
    }
    var builder = KeyedGraphBuilder(entries: entries, fileName: fileName)
    var nodes: [Node] = []
    nodes.reserveCapacity(entries.count)
    for index in entries.indices { nodes.append(try builder.node(index)) }
    var root: [Field] = []
    for entry in top.entries {
      guard case .string(let key) = entry.key else { continue }
      root.append(Field(key: key, value: try builder.value(entry.value, at: nil, key: key)))
    }
    return CompiledNibGraph(
      nodes: nodes, root: root, rootNode: nil, containerName: "keyed archive", warnings: builder.warnings)
  }

  static func describe(_ value: PropertyListValue) -> String {
    switch value {
    case .string(let text): "\"\(text)\""
    case .integer(let number): "\(number)"
    default: "a \(value.typeName)"
    }
  }
}

/// Turns `$objects` entries into graph nodes.
private struct KeyedGraphBuilder {
  typealias Value = CompiledNibGraph.Value
  typealias Node = CompiledNibGraph.Node
  let entries: [PropertyListValue]
  let fileName: String
  var warnings: [String] = []
  /// Class descriptions already read, by `$objects` index.
  private var classChains: [Int: [String]] = [:]

  init(entries: [PropertyListValue], fileName: String) {
    self.entries = entries
    self.fileName = fileName
  }

  func location(_ index: Int?, _ className: String? = nil, key: String? = nil) -> ArchiveError.Location {
    ArchiveError.Location(file: fileName, objectIndex: index, className: className, keyPath: key)
  }

  /// The node of `$objects[index]`.
  mutating func node(_ index: Int) throws -> Node {
    let names = CompiledNibWireNames.self
    switch entries[index] {
    case .string(let text):
      // `$objects[0]` is the `$null` marker: UID 0 means nil.
      if index == 0, text == "$null" { return .value(.null) }
      return .value(.string(text))
    case .integer(let number): return .value(.integer(number))
    case .unsignedInteger(let number): return .value(.real(Double(number)))
    case .real(let number): return .value(.real(number))
    case .float(let number): return .value(.real(Double(number)))
    case .bool(let flag): return .value(.bool(flag))
    case .data(let bytes): return .value(.data(bytes))
    case .date(let date): return .value(.real(date.timeIntervalSinceReferenceDate))
    case .uid:
      throw ArchiveError(
        .corruptData, "expected an archived object or value, found a UID", at: location(index, key: names.objects))
    case .array(let elements), .set(let elements):
      return .collection(
        className: "NSArray", elements: try elements.map { try value($0, at: index, key: nil) })
    case .dictionary(let dictionary):
      guard let classValue = dictionary[names.classReference] else {
        return .unusable("a dictionary without $class (a class description) is not an object")
      }
      return try object(dictionary, index: index, chain: try classChain(classValue, of: index))
    }
  }

  /// The `$classname` + `$classes` of the class description a `$class` value refers to.
  mutating func classChain(_ reference: PropertyListValue, of index: Int) throws -> [String] {
    let names = CompiledNibWireNames.self
    guard case .uid(let raw) = reference, raw < UInt64(entries.count) else {
      throw ArchiveError(
        .corruptData,
        "expected $class to be a UID below \(entries.count), found \(CompiledNibGraph.describe(reference))",
        at: location(index, key: names.classReference))
    }
    let classIndex = Int(raw)
    if let known = classChains[classIndex] { return known }
    guard case .dictionary(let description) = entries[classIndex],
      let name = description[names.className]?.stringValue
    else {
      throw ArchiveError(
        .corruptData,
        "expected $class to refer to a class description with a $classname string, found object #\(classIndex)",
        at: location(index, key: names.classReference))
    }
    var chain = [name]
    if case .array(let supers)? = description[names.classes] {
      let strings = supers.compactMap(\.stringValue)
      if strings.first == name { chain = strings } else if !strings.isEmpty { chain += strings }
    }
    classChains[classIndex] = chain
    return chain
  }

  /// An archived object: a Foundation value folded (NIBA-041), or an object node with its fields.
  mutating func object(_ dictionary: PropertyListDictionary, index: Int, chain: [String]) throws -> Node {
    let names = CompiledNibWireNames.self
    let className = chain[0]
    func field(_ key: String) throws -> Value? {
      try dictionary[key].map { try value($0, at: index, key: key) }
    }
    switch CompiledNibGraph.FoundationKind(chain: chain) {
    case .array?:
      return .collection(
        className: className,
        elements: try sequence(
          dictionary, index: index, key: names.nsObjects,
          prefix: names.nsObjectPrefix))
    case .dictionary?:
      let keys = try sequence(dictionary, index: index, key: names.nsKeys, prefix: names.nsKeyPrefix)
      let objects = try sequence(dictionary, index: index, key: names.nsObjects, prefix: names.nsObjectPrefix)
      if keys.count != objects.count {
        warnings.append(
          "\(location(index, className)): \(keys.count) keys but \(objects.count) values; the extra entries are ignored"
        )
      }
      return .dictionary(className: className, pairs: zip(keys, objects).map { (key: $0, value: $1) })
    case .string?:
      if let text = try plainString(field(names.nsString)) { return .value(.string(text)) }
      if case .data(let bytes)? = try plainValue(field(names.nsBytes)),
        let text = String(validating: bytes, as: UTF8.self)
      {
        return .value(.string(text))
      }
      return .unusable("\(className) without a string in \(names.nsString) or UTF-8 \(names.nsBytes)")
    case .data?:
      for key in [names.nsData, names.nsBytes] {
        if case .data(let bytes)? = try plainValue(field(key)) { return .value(.data(bytes)) }
      }
      return .unusable("\(className) without data in \(names.nsData) or \(names.nsBytes)")
    case .number?:
      for key in [names.nsIntegerValue, names.nsDoubleValue, names.nsBoolValue] {
        if let number = try plainValue(field(key)), CompiledNibGraph.isScalar(number) { return .value(number) }
      }
      return .unusable("\(className) without \(names.nsIntegerValue), \(names.nsDoubleValue) or \(names.nsBoolValue)")
    case .null?:
      return .value(.null)
    case nil:
      var fields: [CompiledNibGraph.Field] = []
      fields.reserveCapacity(dictionary.count)
      for entry in dictionary.entries {
        guard case .string(let rawKey) = entry.key, rawKey != names.classReference else { continue }
        // NSKeyedArchiver escapes a key that starts with "$" by doubling the "$".
        let key = rawKey.hasPrefix("$$") ? String(rawKey.dropFirst()) : rawKey
        fields.append(.init(key: key, value: try value(entry.value, at: index, key: key)))
      }
      return .object(.init(className: className, classChain: chain, fields: fields))
    }
  }

  /// The elements of `NS.objects` (an array of values) or of `NS.object.0`, `NS.object.1`, … when absent.
  mutating func sequence(
    _ dictionary: PropertyListDictionary, index: Int, key: String, prefix: String
  ) throws
    -> [Value]
  {
    if let list = dictionary[key] {
      guard case .array(let elements) = list else {
        throw ArchiveError(
          .corruptData, "expected an array, found a \(list.typeName)", at: location(index, key: key))
      }
      return try elements.map { try value($0, at: index, key: key) }
    }
    var elements: [Value] = []
    // The dictionary bounds the loop: each element is one of its entries.
    while elements.count < dictionary.count, let element = dictionary[prefix + String(elements.count)] {
      elements.append(try value(element, at: index, key: prefix + String(elements.count)))
    }
    return elements
  }

  /// A field value: a UID becomes a node reference, plist values are kept inline.
  mutating func value(_ plist: PropertyListValue, at index: Int?, key: String?) throws -> Value {
    switch plist {
    case .uid(let raw):
      guard raw < UInt64(entries.count) else {
        throw ArchiveError(
          .corruptData, "expected a UID below \(entries.count) (the size of $objects), found \(raw)",
          at: location(index, key: key))
      }
      return .node(Int(raw))
    case .string(let text): return .string(text)
    case .integer(let number): return .integer(number)
    case .unsignedInteger(let number): return .real(Double(number))
    case .real(let number): return .real(number)
    case .float(let number): return .real(Double(number))
    case .bool(let flag): return .bool(flag)
    case .data(let bytes): return .data(bytes)
    case .date(let date): return .real(date.timeIntervalSinceReferenceDate)
    case .array(let elements), .set(let elements):
      return .array(try elements.map { try self.value($0, at: index, key: key) })
    case .dictionary:
      warnings.append("\(location(index, key: key)): an inline dictionary is not a keyed-archive value; read as nil")
      return .null
    }
  }

  /// A string written inline or as a plain `$objects` string.
  func plainString(_ value: Value?) -> String? {
    if case .string(let text)? = plainValue(value) { return text }
    return nil
  }

  /// A value written inline or as a plain (non-object) `$objects` entry; references to objects give `nil`.
  func plainValue(_ value: Value?) -> Value? {
    guard case .node(let target)? = value else { return value }
    switch entries[target] {
    case .string(let text): return target == 0 && text == "$null" ? .null : .string(text)
    case .data(let bytes): return .data(bytes)
    case .integer(let number): return .integer(number)
    case .real(let number): return .real(number)
    case .float(let number): return .real(Double(number))
    case .bool(let flag): return .bool(flag)
    default: return nil
    }
  }
}
