import ArchiveCoding
import Foundation
import KeyedArchive
import PropertyList

extension CompiledNibGraph {
  /// The Foundation value class a class chain stands for, decided by the first name of the chain that is one of
  /// them (NIBA-041).
  enum FoundationKind {
    case array, dictionary, string, data, number, null

    init?(chain: [String]) {
      let names = CompiledNibWireNames.self
      for name in chain {
        if names.arrayClasses.contains(name) {
          self = .array
          return
        }
        if names.dictionaryClasses.contains(name) {
          self = .dictionary
          return
        }
        if names.stringClasses.contains(name) {
          self = .string
          return
        }
        if names.dataClasses.contains(name) {
          self = .data
          return
        }
        if names.numberClasses.contains(name) {
          self = .number
          return
        }
        if names.nullClasses.contains(name) {
          self = .null
          return
        }
      }
      return nil
    }
  }

  /// Builds the graph of a keyed-archive nib (NIBA-042): validates the `$archiver`/`$version`/`$top`/`$objects`
  /// layout, then turns every `$objects` entry into a node.
  ///
  /// A binary property list is read in place through the validating lazy reader, without building a value tree;
  /// an XML one is parsed and re-encoded as binary first, so both take the same path (and keep their `$objects`
  /// indexes).
  /// - Parameters:
  ///   - data: a binary or XML property list.
  ///   - fileName: the name used in error locations.
  /// - Throws: ``ArchiveError`` from the property-list reader; `.unsupportedFormat` when the plist is not an
  ///   `NSKeyedArchiver` archive; `.corruptData` for a malformed class reference, a UID past `$objects`, or an entry
  ///   that cannot be an archived object. Every error's location names the file.
  static func keyedArchive(_ data: Data, fileName: String) throws -> CompiledNibGraph {
    do {
      let reader: BinaryPropertyListReader
      switch PropertyListReader.format(of: data) {
      case .binary?:
        reader = try BinaryPropertyListReader(data)
      case .xml?:
        reader = try BinaryPropertyListReader(BinaryPropertyListWriter.write(try PropertyListReader.read(data)))
      case nil:
        throw ArchiveError(
          .corruptData, "expected a keyed archive (a binary or XML property list)", at: .init(byteOffset: 0))
      }
      var builder = try KeyedGraphBuilder(reader: reader, fileName: fileName)
      var nodes: [Node] = []
      nodes.reserveCapacity(builder.count)
      for index in 0..<builder.count { nodes.append(try builder.node(index)) }
      let root = try builder.rootFields()
      return CompiledNibGraph(
        nodes: nodes, root: root, rootNode: nil, containerName: "keyed archive", warnings: builder.warnings)
    } catch let error as ArchiveError {
      throw error.located(in: .init(file: fileName))
    }
  }
}

/// Turns `$objects` entries into graph nodes, reading the binary property list in place.
private struct KeyedGraphBuilder {
  typealias Value = CompiledNibGraph.Value
  typealias Node = CompiledNibGraph.Node
  typealias Names = CompiledNibWireNames
  typealias Header = BinaryPropertyListReader.Header

  let reader: BinaryPropertyListReader
  let fileName: String
  let objects: Header
  let top: Header
  var warnings: [String] = []
  /// Class chains already read, by `$objects` index of the class description.
  private var classChains: [Int: [String]] = [:]
  /// `$classes` lists already read, by property-list object number: many class descriptions may share one.
  private var classNameLists: [Int: [String]] = [:]
  /// The most names a `$classes` list may hold: the keyed unarchiver's default limit.
  static let maxClassChainLength = KeyedUnarchiverOptions.default.maxClassChainLength
  /// Dictionary keys already read, by property-list object number (keys are shared strings).
  private var keyStrings: [Int: String] = [:]

  /// The number of `$objects` entries.
  var count: Int { objects.count }

  /// Checks the archive's top level (NIBA-042).
  init(reader: BinaryPropertyListReader, fileName: String) throws {
    self.reader = reader
    self.fileName = fileName
    let container = try reader.header(of: reader.topObject)
    guard container.kind == .dictionary else {
      throw ArchiveError(
        .unsupportedFormat, "expected a keyed archive's top-level dictionary, found a \(container.kind)")
    }
    func entry(_ key: String) -> Int? { reader.lookup(string: key, inDictionary: container) }
    let archiver = try entry(Names.archiver).map { try reader.value(of: $0) }
    guard archiver?.stringValue == Names.archiverName else {
      throw ArchiveError(
        .unsupportedFormat, "expected $archiver \"\(Names.archiverName)\", found \(Self.describe(archiver))")
    }
    let version = try entry(Names.version).map { try reader.value(of: $0) }
    guard version?.integerValue == Names.versionNumber else {
      throw ArchiveError(
        .unsupportedFormat, "expected $version \(Names.versionNumber), found \(Self.describe(version))")
    }
    guard let topRef = entry(Names.top), case let top = try reader.header(of: topRef), top.kind == .dictionary else {
      throw ArchiveError(.corruptData, "expected a $top dictionary", at: .init(keyPath: Names.top))
    }
    guard let objectsRef = entry(Names.objects), case let objects = try reader.header(of: objectsRef),
      objects.kind == .array
    else {
      throw ArchiveError(.corruptData, "expected an $objects array", at: .init(keyPath: Names.objects))
    }
    self.top = top
    self.objects = objects
  }

  static func describe(_ value: PropertyListValue?) -> String {
    switch value {
    case nil: "none"
    case .string(let text)?: "\"\(text)\""
    case .integer(let number)?: "\(number)"
    case let other?: "a \(other.typeName)"
    }
  }

  func location(_ index: Int?, _ className: String? = nil, key: String? = nil) -> ArchiveError.Location {
    ArchiveError.Location(file: fileName, objectIndex: index, className: className, keyPath: key)
  }

  /// The property-list object number of `$objects[index]`.
  func entry(_ index: Int) -> Int { reader.element(objects, index) }

  /// The root's fields: `$top`'s entries.
  mutating func rootFields() throws -> [CompiledNibGraph.Field] {
    try fields(of: top, index: nil).fields
  }

  /// The node of `$objects[index]`.
  mutating func node(_ index: Int) throws -> Node {
    let object = entry(index)
    let header = try reader.header(of: object)
    switch header.kind {
    case .dictionary:
      let (fields, classValue) = try fields(of: header, index: index)
      guard let classValue else {
        return .unusable("a dictionary without $class (a class description) is not an object")
      }
      return try self.object(fields, index: index, chain: try classChain(classValue, of: index))
    case .array, .set:
      return .collection(
        className: "NSArray",
        elements: try (0..<header.count).map { try value(reader.element(header, $0), at: index, key: nil) })
    case .uid:
      throw ArchiveError(
        .corruptData, "expected an archived object or value, found a UID", at: location(index, key: Names.objects))
    default:
      let plain = try scalar(header, object: object)
      // `$objects[0]` is the `$null` marker: UID 0 means nil.
      if index == 0, plain == .string("$null") { return .value(.null) }
      return .value(plain)
    }
  }

  /// A string, number, data or date object as a value.
  func scalar(_ header: Header, object: Int) throws -> Value {
    switch header.kind {
    case .asciiString, .utf16String: return .string(try reader.string(header, object: object))
    case .integer:
      switch try reader.integer(header, object: object) {
      case .integer(let number): return .integer(number)
      case .unsignedInteger(let number): return .real(Double(number))
      default: return .null
      }
    case .real:
      switch reader.real(header) {
      case .float(let number): return .real(Double(number))
      case .real(let number): return .real(number)
      default: return .null
      }
    case .bool: return .bool(header.count == 1)
    case .data: return .data(reader.data(header))
    case .date: return .real(reader.date(header).timeIntervalSinceReferenceDate)
    case .uid, .array, .set, .dictionary: return .null
    }
  }

  /// A dictionary's string-keyed entries as fields (keys `$$…` unescaped), and its `$class` value apart.
  mutating func fields(of header: Header, index: Int?) throws -> (fields: [CompiledNibGraph.Field], classValue: Value?)
  {
    var fields: [CompiledNibGraph.Field] = []
    fields.reserveCapacity(header.count)
    var classValue: Value?
    for position in 0..<header.count {
      let keyObject = reader.element(header, position)
      let key: String
      if let known = keyStrings[keyObject] {
        key = known
      } else {
        let keyHeader = try reader.header(of: keyObject)
        guard keyHeader.kind == .asciiString || keyHeader.kind == .utf16String else { continue }
        key = try reader.string(keyHeader, object: keyObject)
        keyStrings[keyObject] = key
      }
      let converted = try value(reader.dictionaryValue(header, position), at: index, key: key)
      if key == Names.classReference {
        classValue = converted
      } else {
        // NSKeyedArchiver escapes a key that starts with "$" by doubling the "$".
        fields.append(.init(key: key.hasPrefix("$$") ? String(key.dropFirst()) : key, value: converted))
      }
    }
    return (fields, classValue)
  }

  /// A value inside an object: a UID becomes a node reference, plist values are kept inline.
  mutating func value(_ object: Int, at index: Int?, key: String?) throws -> Value {
    let header = try reader.header(of: object)
    switch header.kind {
    case .uid:
      let raw = reader.uid(header)
      guard raw < UInt64(count) else {
        throw ArchiveError(
          .corruptData, "expected a UID below \(count) (the size of $objects), found \(raw)",
          at: location(index, key: key))
      }
      return .node(Int(raw))
    case .array, .set:
      // The reader checked at init that containers nest no deeper than its limit and never contain themselves.
      return .array(try (0..<header.count).map { try value(reader.element(header, $0), at: index, key: key) })
    case .dictionary:
      warnings.append("\(location(index, key: key)): an inline dictionary is not a keyed-archive value; read as nil")
      return .null
    default:
      return try scalar(header, object: object)
    }
  }

  /// The `$classname` + `$classes` of the class description a `$class` value refers to.
  mutating func classChain(_ reference: Value, of index: Int) throws -> [String] {
    guard case .node(let classIndex) = reference else {
      throw ArchiveError(
        .corruptData, "expected $class to be a UID", at: location(index, key: Names.classReference))
    }
    if let known = classChains[classIndex] { return known }
    let description = entry(classIndex)
    let header = try reader.header(of: description)
    func text(_ object: Int?) throws -> String? {
      guard let object, case let header = try reader.header(of: object),
        header.kind == .asciiString || header.kind == .utf16String
      else { return nil }
      return try reader.string(header, object: object)
    }
    guard header.kind == .dictionary,
      let name = try text(reader.lookup(string: Names.className, inDictionary: header))
    else {
      throw ArchiveError(
        .corruptData,
        "expected $class to refer to a class description with a $classname string, found object #\(classIndex)",
        at: location(index, key: Names.classReference))
    }
    var chain = [name]
    if let supersRef = reader.lookup(string: Names.classes, inDictionary: header),
      case let supers = try reader.header(of: supersRef), supers.kind == .array
    {
      // A list shared by many class descriptions is read once, and a list longer than any real hierarchy is
      // refused (ARC-043): read for each description, a small nib could make millions of names.
      guard supers.count <= Self.maxClassChainLength else {
        throw ArchiveError(
          .limitExceeded,
          "class description #\(classIndex) lists \(supers.count) class names, more than the limit of "
            + "\(Self.maxClassChainLength)", at: location(index, key: Names.classReference))
      }
      let strings: [String]
      if let known = classNameLists[supersRef] {
        strings = known
      } else {
        strings = try (0..<supers.count).compactMap { try text(reader.element(supers, $0)) }
        classNameLists[supersRef] = strings
      }
      if strings.first == name { chain = strings } else { chain += strings }
    }
    classChains[classIndex] = chain
    return chain
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
  func plainValue(_ value: Value?) throws -> Value? {
    guard case .node(let target)? = value else { return value }
    let object = entry(target)
    let header = try reader.header(of: object)
    switch header.kind {
    case .uid, .array, .set, .dictionary: return nil
    default:
      let plain = try scalar(header, object: object)
      return target == 0 && plain == .string("$null") ? .null : plain
    }
  }
}
