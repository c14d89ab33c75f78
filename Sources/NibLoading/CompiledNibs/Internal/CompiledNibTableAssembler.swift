import ArchiveCoding
import Foundation
import FoundationForms
import KeyedArchive

/// Turns a ``CompiledNibGraph`` into an ``ObjectTable`` (NIBA-044 to NIBA-050): decides which nodes are objects of
/// the document, which are placeholders and which only wire the graph, converts fields, and reads the connection
/// table and the runtime attributes.
struct CompiledNibTableAssembler {
  typealias Value = CompiledNibGraph.Value
  typealias Names = CompiledNibWireNames

  /// Nested arrays and dictionaries deeper than this are refused (NIBA-048).
  static let maxCollectionDepth = 256
  /// The most values all fields of a table may hold once shared collections are expanded (NIBA-048).
  static let maxExpandedValues = 1 << 22

  let graph: CompiledNibGraph
  let fileName: String

  /// Nodes that wire the graph and are never objects of the document: the root, `NSIBObjectData`, connection
  /// records, runtime-attribute records, accessibility and trait records.
  private var wiring: Set<Int> = []
  /// AppKit: `NSRoot`, the File's Owner.
  private var filesOwnerNode: Int?
  private var tableIndexByNode: [Int: Int] = [:]
  /// Table objects in table order, with their nodes; records are made for them by ``drain()``.
  private var pending: [(node: Int, object: CompiledNibGraph.Object)] = []
  private var records: [ObjectRecord] = []
  private var warnings: [String] = []
  /// Converted collections and dictionaries, with their expanded size.
  private var converted: [Int: (value: FieldValue, size: Int)] = [:]
  private var converting: Set<Int> = []
  private var expandedValues = 0

  init(graph: CompiledNibGraph, fileName: String) {
    self.graph = graph
    self.fileName = fileName
  }

  // MARK: Entry

  /// Builds the table for the root's flavour (NIBA-044).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` `.unsupportedFormat` when the root has neither `UINib…` keys nor `IB.objectdata`;
  ///   `.typeMismatch` or `.corruptData` for malformed lists; `.limitExceeded` for NIBA-048.
  mutating func build() throws -> ObjectTable {
    warnings = graph.warnings
    if let root = graph.rootNode { wiring.insert(root) }
    let uiKitKeys = [Names.uiTopLevelObjects, Names.uiObjects, Names.uiConnections]
    if uiKitKeys.contains(where: { graph.rootValue($0) != nil }) { return try buildUIKit() }
    if graph.rootValue(Names.objectData) != nil { return try buildAppKit() }
    let found = graph.root.prefix(8).map { "\"\($0.key)\"" }.joined(separator: ", ")
    throw ArchiveError(
      .unsupportedFormat,
      "expected the \(graph.containerName)'s root to hold UINib* keys (UIKit) or \"\(Names.objectData)\" (AppKit),"
        + " found keys [\(found)]",
      at: .init(file: fileName, objectIndex: graph.rootNode))
  }

  /// UIKit (NIBA-045): `UINibObjectsKey` in order, then every other object they reach.
  private mutating func buildUIKit() throws -> ObjectTable {
    let connectionNodes = try rootList(Names.uiConnections)
    let pairNodes = try rootList(Names.uiKeyValuePairs)
    let accessibility = try rootList(Names.uiAccessibilityConfigurations)
    let traits = try rootList(Names.uiTraitStorageLists)
    wiring.formUnion(connectionNodes + pairNodes + accessibility + traits)
    ignored(accessibility, "accessibility configurations (\(Names.uiAccessibilityConfigurations))")
    ignored(traits, "trait storage lists (\(Names.uiTraitStorageLists))")

    for node in try rootList(Names.uiObjects) { _ = tableIndex(node) }
    let topLevel = unique(try rootList(Names.uiTopLevelObjects).compactMap { tableIndex($0) })
    let windows = unique(try rootList(Names.uiVisibleWindows).compactMap { tableIndex($0) })
    var connections: [ConnectionRecord] = []
    var attributes: [RuntimeAttributeRecord] = []
    for node in connectionNodes { try connection(node, into: &connections, attributes: &attributes) }
    for node in pairNodes { try keyValuePair(node, into: &attributes) }
    try drain()
    return ObjectTable(
      objects: records, topLevel: topLevel, connections: connections, runtimeAttributes: attributes,
      visibleWindows: windows, platform: .uiKit, warnings: warnings)
  }

  /// AppKit (NIBA-046): `NSRoot`, then `NSObjectsKeys` in order, then every other object they reach.
  private mutating func buildAppKit() throws -> ObjectTable {
    let rootValue = graph.rootValue(Names.objectData)
    guard let dataNode = graph.nodeIndex(rootValue), let objectData = graph.object(dataNode) else {
      throw ArchiveError(
        .typeMismatch, "expected \"\(Names.objectData)\" to refer to an NSIBObjectData object",
        at: .init(file: fileName, objectIndex: graph.rootNode, keyPath: Names.objectData))
    }
    wiring.insert(dataNode)
    let place = ArchiveError.Location(file: fileName, objectIndex: dataNode, className: objectData.className)
    func list(_ key: String) throws -> [Value] {
      guard let elements = graph.elements(objectData.value(key)) else {
        throw ArchiveError(.typeMismatch, "expected a collection", at: place.with(key: key))
      }
      return elements
    }
    let connectionNodes = objectNodes(try list(Names.nsConnections), at: place.with(key: Names.nsConnections))
    let accessibility = objectNodes(
      try list(Names.nsAccessibilityConnectors), at: place.with(key: Names.nsAccessibilityConnectors))
    wiring.formUnion(connectionNodes + accessibility)
    ignored(accessibility, "accessibility connectors (\(Names.nsAccessibilityConnectors))")

    let children = try list(Names.nsObjectsKeys)
    let parents = try list(Names.nsObjectsValues)
    guard children.count == parents.count else {
      throw ArchiveError(
        .corruptData,
        "expected \"\(Names.nsObjectsKeys)\" and \"\(Names.nsObjectsValues)\" of equal length, found \(children.count)"
          + " and \(parents.count)", at: place)
    }
    var topLevel: [Int] = []
    if let owner = graph.nodeIndex(objectData.value(Names.nsRoot)), graph.object(owner) != nil,
      !wiring.contains(owner)
    {
      filesOwnerNode = owner
      if let index = tableIndex(owner) { topLevel.append(index) }
    } else {
      warnings.append("\(place.with(key: Names.nsRoot)): no File's Owner object; no object is top-level")
    }
    for node in objectNodes(children, at: place.with(key: Names.nsObjectsKeys)) { _ = tableIndex(node) }
    if let owner = filesOwnerNode {
      for (child, parent) in zip(children, parents) where graph.nodeIndex(parent) == owner {
        if let node = graph.nodeIndex(child), let index = tableIndex(node) { topLevel.append(index) }
      }
    }
    let windows = objectNodes(try list(Names.nsVisibleWindows), at: place.with(key: Names.nsVisibleWindows))
      .compactMap { tableIndex($0) }
    var connections: [ConnectionRecord] = []
    var attributes: [RuntimeAttributeRecord] = []
    for node in connectionNodes { try connection(node, into: &connections, attributes: &attributes) }
    try drain()
    return ObjectTable(
      objects: records, topLevel: unique(topLevel), connections: connections, runtimeAttributes: attributes,
      visibleWindows: unique(windows), platform: .appKit, warnings: warnings)
  }

  // MARK: Objects

  /// The table index of an object node, giving it the next index on first use; `nil` for a node that is not an
  /// object of the document (a value, a collection, a wiring record).
  private mutating func tableIndex(_ node: Int) -> Int? {
    if let known = tableIndexByNode[node] { return known }
    guard !wiring.contains(node), let object = graph.object(node) else { return nil }
    let index = pending.count
    tableIndexByNode[node] = index
    pending.append((node, object))
    return index
  }

  /// Makes the records of every pending object; converting their fields may make more objects pending.
  private mutating func drain() throws {
    while records.count < pending.count {
      let (node, object) = pending[records.count]
      records.append(try record(node, object))
    }
  }

  /// The record of an object node: its identity (NIBA-045, NIBA-046) and its converted fields.
  private mutating func record(_ node: Int, _ object: CompiledNibGraph.Object) throws -> ObjectRecord {
    var className = object.className
    var baseClassName = object.classChain.dropFirst().first { $0 != Names.rootObjectBaseClass } ?? className
    var placeholder: Placeholder?
    var consumed: Set<String> = []
    let place = ArchiveError.Location(file: fileName, objectIndex: node, className: object.className)
    func text(_ key: String) -> String? { graph.string(object.value(key)) }

    if node == filesOwnerNode {
      placeholder = .filesOwner
      className = text(Names.nsClassName) ?? className
    } else {
      switch object.className {
      case Names.proxyObjectClass:
        let identifier = text(Names.proxiedObjectIdentifier)
        if identifier == nil {
          warnings.append("\(place.with(key: Names.proxiedObjectIdentifier)): a proxy without an identifier")
        }
        try checkName(identifier ?? "", "placeholder identifier", at: place)
        placeholder = Self.proxyPlaceholder(identifier ?? "")
      case Names.uiClassSwapperClass, Names.nsClassSwapperClass:
        let (classKey, originalKey) =
          object.className == Names.uiClassSwapperClass
          ? (Names.uiClassName, Names.uiOriginalClassName) : (Names.nsClassName, Names.nsOriginalClassName)
        let original = text(originalKey)
        guard let custom = text(classKey) ?? original else {
          warnings.append("\(place): a class swapper without \(classKey) or \(originalKey)")
          break
        }
        className = custom
        baseClassName = original ?? custom
        consumed = [classKey, originalKey]
      case Names.nsCustomObjectClass:
        let name = text(Names.nsClassName)
        let referenced = graph.object(graph.nodeIndex(object.value(Names.ibClassReference)) ?? -1)
          .flatMap { graph.string($0.value(Names.ibClassName)) }
        if name == Names.firstResponderClassName {
          placeholder = .firstResponder
        } else if name == Names.applicationClassName || referenced == Names.applicationClassName {
          placeholder = .application
        } else {
          if name == nil, referenced == nil {
            warnings.append("\(place.with(key: Names.nsClassName)): a custom object without a class")
          }
          // Newer nibs name the class only in IBClassReference (IBClassName).
          className = name ?? referenced ?? Names.rootObjectBaseClass
          baseClassName = Names.rootObjectBaseClass
          consumed = [Names.nsClassName, Names.ibClassReference]
        }
      case Names.externalPlaceholderClass:
        let identifier = text(Names.externalPlaceholderIdentifier) ?? ""
        try checkName(identifier, "placeholder identifier", at: place)
        placeholder = Self.proxyPlaceholder(identifier)
      case "NSCustomView":
        // ibtool compiles a custom view (`<customView customClass="X">`) to an NSCustomView naming X (NIBA-051).
        if let name = text(Names.nsClassName) {
          className = name
          baseClassName = "NSView"
          consumed = [Names.nsClassName]
        }
      case "NSWindowTemplate":
        // ibtool compiles a window to a template naming the window's class (NIBA-051).
        className = text("NSWindowClass") ?? "NSWindow"
        baseClassName = "NSWindow"
        consumed = ["NSWindowClass"]
      default:
        break
      }
    }
    var fields: [ObjectField] = []
    if placeholder == nil {
      fields.reserveCapacity(object.fields.count)
      for field in object.fields where !consumed.contains(field.key) {
        fields.append(ObjectField(key: field.key, value: try fieldValue(field.value, at: place.with(key: field.key))))
      }
    }
    try checkName(className, "class name", at: place)
    try checkName(baseClassName, "class name", at: place)
    return ObjectRecord(
      id: String(node), className: className, baseClassName: baseClassName, elementName: object.className,
      placeholder: placeholder, fields: fields, location: place)
  }

  /// The longest class name, outlet, action or segue identifier a compiled nib may give (UTF-8 bytes). A file
  /// refers to one string object from any number of places, and each use hashes the name (class lookups,
  /// outlet keys): without a bound, many connections sharing one long label would hash it once each.
  static let maxNameLength = 1024

  private func checkName(_ name: String, _ what: String, at place: ArchiveError.Location) throws {
    guard name.utf8.count <= Self.maxNameLength else {
      throw ArchiveError(
        .limitExceeded, "a \(what) of \(name.utf8.count) bytes, more than the \(Self.maxNameLength) a name may have",
        at: place)
    }
  }

  /// The placeholder a `UIProxyObject` or `NSNibExternalObjectPlaceholder` identifier stands for (NIBA-045,
  /// NIBA-046).
  static func proxyPlaceholder(_ identifier: String) -> Placeholder {
    switch identifier {
    case Names.filesOwnerIdentifier: .filesOwner
    case Names.firstResponderIdentifier: .firstResponder
    case _
    where identifier == Names.storyboardPlaceholderIdentifier
      || identifier == Names.nsStoryboardPlaceholderIdentifier
      || identifier.hasPrefix(Names.upstreamPlaceholderPrefix) || identifier.isEmpty
      || identifier == Names.exitPlaceholderIdentifier || identifier.hasPrefix(Names.storyboardReferencePrefix):
      .other(identifier)
    default: .external(identifier)
    }
  }

  // MARK: Field values

  /// A field value as the table holds it (NIBA-048), charged against ``maxExpandedValues``.
  private mutating func fieldValue(_ value: Value, at place: ArchiveError.Location) throws -> FieldValue {
    let (result, size) = try convert(value, at: place, depth: 0)
    expandedValues += size
    try checkBudget(expandedValues, at: place)
    return result
  }

  private func checkBudget(_ count: Int, at place: ArchiveError.Location) throws {
    guard count <= Self.maxExpandedValues else {
      throw ArchiveError(
        .limitExceeded,
        "the fields hold more than \(Self.maxExpandedValues) values once shared collections are expanded",
        at: place)
    }
  }

  /// A value and the number of values it expands to.
  private mutating func convert(
    _ value: Value, at place: ArchiveError.Location, depth: Int
  ) throws -> (FieldValue, Int) {
    switch value {
    case .null: return (.null, 1)
    case .bool(let flag): return (.bool(flag), 1)
    case .integer(let number): return (.integer(number), 1)
    case .real(let number): return (.real(number), 1)
    case .string(let text): return (.string(text), 1)
    case .data(let bytes): return (.data(bytes), 1)
    case .array(let elements):
      return try convertSequence(elements, at: place, depth: depth)
    case .node(let node):
      return try convertNode(node, at: place, depth: depth)
    }
  }

  /// Objects that are values rather than objects of the document (NIB-070): `NibRecord`s written by
  /// `NibCompiler` become records, and `NSValue`s holding a point, size or rectangle become geometry.
  private mutating func inlineValue(
    _ object: CompiledNibGraph.Object, at place: ArchiveError.Location, depth: Int
  ) throws -> (FieldValue, Int)? {
    switch object.className {
    case Names.recordClass:
      guard let name = graph.string(object.value(Names.recordName)) else { return nil }
      var fields: [ObjectField] = []
      var size = 1
      for field in object.fields where field.key != Names.recordName {
        let (value, fieldSize) = try convert(field.value, at: place, depth: depth + 1)
        fields.append(ObjectField(key: field.key, value: value))
        size += fieldSize
      }
      return (.record(name, fields), size)
    case FoundationClass.value:
      let special = graph.integer(object.value(FoundationKeys.nsSpecial))
      let keys: [Int64: String] = [
        1: FoundationKeys.nsPointValue, 2: FoundationKeys.nsSizeValue, 3: FoundationKeys.nsRectValue,
      ]
      guard let special, let key = keys[special], let text = graph.string(object.value(key)),
        let numbers = CompiledNibGeometry.numbers(from: text)
      else { return nil }
      switch (special, numbers.count) {
      case (1, 2): return (.point(x: numbers[0], y: numbers[1]), 1)
      case (2, 2): return (.size(width: numbers[0], height: numbers[1]), 1)
      case (3, 4): return (.rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]), 1)
      default: return nil
      }
    default:
      return nil
    }
  }

  private mutating func convertSequence(
    _ elements: [Value], at place: ArchiveError.Location, depth: Int
  ) throws -> (FieldValue, Int) {
    guard depth < Self.maxCollectionDepth else {
      throw ArchiveError(
        .limitExceeded, "collections nested more than \(Self.maxCollectionDepth) deep", at: place)
    }
    var converted: [FieldValue] = []
    converted.reserveCapacity(elements.count)
    var size = 1
    for element in elements {
      let (value, elementSize) = try convert(element, at: place, depth: depth + 1)
      converted.append(value)
      size += elementSize
      try checkBudget(size, at: place)
    }
    return (.array(converted), size)
  }

  private mutating func convertNode(
    _ node: Int, at place: ArchiveError.Location, depth: Int
  ) throws -> (FieldValue, Int) {
    switch graph.nodes[node] {
    case .value(let value):
      return try convert(value, at: place, depth: depth)
    case .object(let object):
      if let inline = try inlineValue(object, at: place, depth: depth) { return inline }
      if let index = tableIndex(node) { return (.object(index), 1) }
      warnings.append(
        "\(place): refers to object #\(node) (\(object.className)), which only wires the nib; read as nil")
      return (.null, 1)
    case .unusable(let reason):
      warnings.append("\(place): refers to object #\(node): \(reason); read as nil")
      return (.null, 1)
    case .collection, .dictionary:
      if let known = converted[node] { return known }
      guard converting.insert(node).inserted else {
        warnings.append("\(place): collection #\(node) contains itself; the inner reference reads as nil")
        return (.null, 1)
      }
      defer { converting.remove(node) }
      let result: (FieldValue, Int)
      if case .collection(_, let elements) = graph.nodes[node] {
        result = try convertSequence(elements, at: place, depth: depth)
      } else if case .dictionary(let className, let pairs) = graph.nodes[node] {
        result = try convertDictionary(className, pairs, at: place, depth: depth)
      } else {
        result = (.null, 1)
      }
      converted[node] = result
      return result
    }
  }

  /// A dictionary: a record of its entries when every key is a string, else an array of `[key, value]` pairs
  /// (NIBA-048).
  private mutating func convertDictionary(
    _ className: String, _ pairs: [(key: Value, value: Value)], at place: ArchiveError.Location, depth: Int
  ) throws -> (FieldValue, Int) {
    guard depth < Self.maxCollectionDepth else {
      throw ArchiveError(
        .limitExceeded, "collections nested more than \(Self.maxCollectionDepth) deep", at: place)
    }
    let keys = pairs.map { graph.string($0.key) }
    var size = 1
    if keys.allSatisfy({ $0 != nil }) {
      var fields: [ObjectField] = []
      fields.reserveCapacity(pairs.count)
      for (key, pair) in zip(keys, pairs) {
        let (value, valueSize) = try convert(pair.value, at: place, depth: depth + 1)
        fields.append(ObjectField(key: key ?? "", value: value))
        size += valueSize
        try checkBudget(size, at: place)
      }
      return (.record(className, fields), size)
    }
    var entries: [FieldValue] = []
    entries.reserveCapacity(pairs.count)
    for pair in pairs {
      let (key, keySize) = try convert(pair.key, at: place, depth: depth + 2)
      let (value, valueSize) = try convert(pair.value, at: place, depth: depth + 2)
      entries.append(.array([key, value]))
      size += 1 + keySize + valueSize
      try checkBudget(size, at: place)
    }
    return (.array(entries), size)
  }

  // MARK: Lists

  /// The object nodes of a root list (`UINib…Key`); a missing or nil list is empty (NIBA-045).
  private mutating func rootList(_ key: String) throws -> [Int] {
    let place = ArchiveError.Location(file: fileName, objectIndex: graph.rootNode, keyPath: key)
    guard let elements = graph.elements(graph.rootValue(key)) else {
      throw ArchiveError(.typeMismatch, "expected a collection", at: place)
    }
    return objectNodes(elements, at: place)
  }

  /// The object nodes among list elements; nil elements are skipped, other values skipped with a warning.
  private mutating func objectNodes(_ elements: [Value], at place: ArchiveError.Location) -> [Int] {
    var nodes: [Int] = []
    nodes.reserveCapacity(elements.count)
    for (position, element) in elements.enumerated() {
      if let node = graph.nodeIndex(element), graph.object(node) != nil {
        nodes.append(node)
      } else if element != .null, graph.nodeIndex(element).map({ graph.nodes[$0].isNull }) != true {
        warnings.append("\(place): element \(position) is not an object; ignored")
      }
    }
    return nodes
  }

  private mutating func ignored(_ nodes: [Int], _ what: String) {
    guard !nodes.isEmpty else { return }
    warnings.append("\(ArchiveError.Location(file: fileName)): \(nodes.count) \(what) not applied")
  }

  private func unique(_ indices: [Int]) -> [Int] {
    var seen: Set<Int> = []
    return indices.filter { seen.insert($0).inserted }
  }

  // MARK: Connections

  /// What a connection-list element does (NIBA-047).
  enum ConnectorKind: Equatable {
    case outlet, outletCollection, action, segue, binding, help, runtimeAttributes, ordering, other
  }

  /// The kind of a connection object from its class chain: the first name that is a known connection class, or
  /// that contains "Segue"; the plain `NSNibConnector` (decode ordering only) when it is the class itself.
  static func connectorKind(_ chain: [String]) -> ConnectorKind {
    if chain.first == Names.nsConnector { return .ordering }
    for name in chain {
      switch name {
      case Names.uiOutletConnection, Names.nsOutletConnector: return .outlet
      case Names.uiOutletCollectionConnection: return .outletCollection
      case Names.uiEventConnection, Names.nsControlConnector: return .action
      case Names.nsBindingConnector: return .binding
      case Names.nsHelpConnector: return .help
      case Names.nsRuntimeAttributesConnector: return .runtimeAttributes
      case _ where name.contains(Names.segueMarker): return .segue
      default: continue
      }
    }
    return .other
  }

  /// The segue kind a template class name spells: `UIStoryboardShowSegueTemplate` → `show` (NIBA-047).
  static func segueKind(_ className: String) -> String? {
    var core = Substring(className)
    if let prefix = Names.segueClassPrefixes.first(where: { core.hasPrefix($0) }) {
      core = core.dropFirst(prefix.count)
    }
    if let suffix = Names.segueClassSuffixes.first(where: { core.hasSuffix($0) }) { core = core.dropLast(suffix.count) }
    guard let first = core.first else { return nil }
    return first.lowercased() + core.dropFirst()
  }

  /// The records of one connection-list element.
  private mutating func connection(
    _ node: Int, into connections: inout [ConnectionRecord], attributes: inout [RuntimeAttributeRecord]
  ) throws {
    guard let object = graph.object(node) else { return }
    let place = ArchiveError.Location(file: fileName, objectIndex: node, className: object.className)
    for name in object.classChain { try checkName(name, "class name", at: place) }
    let kind = Self.connectorKind(object.classChain)
    let ui = object.has(Names.uiSource) || object.has(Names.uiDestination) || object.has(Names.uiLabel)
    let sourceKey = ui ? Names.uiSource : Names.nsSource
    let destinationKey = ui ? Names.uiDestination : Names.nsDestination
    let labelKey = ui ? Names.uiLabel : Names.nsLabel
    let label = graph.string(object.value(labelKey))
    if let label { try checkName(label, "connection label", at: place.with(key: labelKey)) }

    switch kind {
    case .ordering:
      return
    case .binding:
      warnings.append("\(place): Cocoa bindings are not supported; binding \"\(label ?? "?")\" ignored")
      return
    case .help:
      warnings.append("\(place): help and tool-tip connectors are not supported; ignored")
      return
    case .other:
      warnings.append("\(place): unknown connection class \(object.className); ignored")
      return
    case .runtimeAttributes:
      try runtimeAttributes(object, at: place, into: &attributes)
      return
    case .outlet, .outletCollection, .action, .segue:
      break
    }
    guard let source = endpoint(object.value(sourceKey), required: true, at: place.with(key: sourceKey)) ?? nil else {
      return
    }
    let id = String(node)
    switch kind {
    case .segue:
      let graph = self.graph
      let identifier = [Names.uiIdentifier, Names.nsIdentifier, labelKey].lazy
        .compactMap { graph.string(object.value($0)) }.first
      if let identifier { try checkName(identifier, "segue identifier", at: place) }
      guard
        let destination = endpoint(object.value(destinationKey), required: false, at: place.with(key: destinationKey))
      else { return }
      let unwindAction = graph.string(object.value(Names.uiUnwindAction))
      if let unwindAction { try checkName(unwindAction, "unwind action", at: place) }
      let kind = Self.segueKind(object.className) ?? graph.string(object.value(Names.uiEventName))
      if let kind { try checkName(kind, "segue kind", at: place) }
      let scene = graph.string(object.value(Names.uiDestinationViewControllerIdentifier))
      if let scene { try checkName(scene, "segue destination identifier", at: place) }
      var record = ConnectionRecord(
        kind: .segue, source: source, destination: destination, label: identifier ?? "", eventName: kind,
        id: identifier, location: place, unwindAction: unwindAction)
      record.destinationIdentifier = scene
      connections.append(record)
    case .outletCollection:
      guard let label else { return missingLabel(labelKey, at: place) }
      let value = object.value(destinationKey)
      let members: [Value]
      if let node = graph.nodeIndex(value), graph.object(node) != nil {
        members = [value ?? .null]
      } else if let elements = graph.elements(value) {
        members = elements
      } else {
        warnings.append("\(place.with(key: destinationKey)): expected a collection of objects; ignored")
        return
      }
      // One record per member: connections that share one large collection must not multiply past the budget
      // the fields have (NIBA-048; 5,000 connections to one 5,000-view collection would be 25 million records).
      expandedValues += members.count
      try checkBudget(expandedValues, at: place)
      for member in members {
        guard let destination = endpoint(member, required: false, at: place.with(key: destinationKey)),
          let destination
        else { continue }
        connections.append(
          ConnectionRecord(
            kind: .outletCollection, source: source, destination: destination, label: label, id: id, location: place))
      }
    case .outlet, .action:
      guard let label else { return missingLabel(labelKey, at: place) }
      guard
        let destination = endpoint(object.value(destinationKey), required: false, at: place.with(key: destinationKey))
      else { return }
      if kind == .outlet {
        connections.append(
          ConnectionRecord(
            kind: .outlet, source: source, destination: destination, label: label, id: id, location: place))
      } else {
        let mask = graph.integer(object.value(Names.uiEventMask)).map { UInt64(bitPattern: $0) }
        connections.append(
          ConnectionRecord(
            kind: .action, source: source, destination: destination, label: label, eventMask: mask,
            eventName: mask.flatMap(CompiledNibControlEvents.name(forMask:)), id: id, location: place))
      }
    default:
      return
    }
  }

  private mutating func missingLabel(_ key: String, at place: ArchiveError.Location) {
    warnings.append("\(place.with(key: key)): a connection without a name; ignored")
  }

  /// The table index of a connection end: `.some(nil)` for a missing or nil end that is not required, `.some(index)`
  /// for an object, `nil` (with a warning) when the end cannot be used and the connection is dropped.
  private mutating func endpoint(_ value: Value?, required: Bool, at place: ArchiveError.Location) -> Int?? {
    switch value {
    case nil, .null?:
      if required {
        warnings.append("\(place): a connection without this end; ignored")
        return nil
      }
      return .some(nil)
    case .node(let node)?:
      if let index = tableIndex(node) { return .some(index) }
      if graph.nodes.indices.contains(node), graph.nodes[node].isNull, !required { return .some(nil) }
      warnings.append("\(place): refers to object #\(node), which is not an object of the document; ignored")
      return nil
    default:
      warnings.append("\(place): expected an object reference; the connection is ignored")
      return nil
    }
  }

  /// `UINibKeyValuePair`: `UIObject`, `UIKeyPath`, `UIValue` (NIBA-047).
  private mutating func keyValuePair(_ node: Int, into attributes: inout [RuntimeAttributeRecord]) throws {
    guard let object = graph.object(node) else { return }
    let place = ArchiveError.Location(file: fileName, objectIndex: node, className: object.className)
    guard
      let target = endpoint(
        object.value(Names.uiKeyValuePairObject), required: true,
        at: place.with(key: Names.uiKeyValuePairObject)) ?? nil
    else { return }
    guard let keyPath = graph.string(object.value(Names.uiKeyValuePairKeyPath)) else {
      return missingLabel(Names.uiKeyValuePairKeyPath, at: place)
    }
    try checkName(keyPath, "key path", at: place)
    let value = try fieldValue(
      object.value(Names.uiKeyValuePairValue) ?? .null, at: place.with(key: Names.uiKeyValuePairValue))
    attributes.append(RuntimeAttributeRecord(object: target, keyPath: keyPath, value: value, location: place))
  }

  /// `NSIBUserDefinedRuntimeAttributesConnector`: `NSObject`, parallel `NSKeyPaths` and `NSValues` (NIBA-047).
  private mutating func runtimeAttributes(
    _ object: CompiledNibGraph.Object, at place: ArchiveError.Location, into attributes: inout [RuntimeAttributeRecord]
  ) throws {
    guard
      let target = endpoint(
        object.value(Names.nsRuntimeAttributesObject), required: true,
        at: place.with(key: Names.nsRuntimeAttributesObject)) ?? nil
    else { return }
    guard let keyPaths = graph.elements(object.value(Names.nsRuntimeAttributesKeyPaths)),
      let values = graph.elements(object.value(Names.nsRuntimeAttributesValues))
    else {
      warnings.append(
        "\(place): expected \(Names.nsRuntimeAttributesKeyPaths) and \(Names.nsRuntimeAttributesValues) collections; ignored"
      )
      return
    }
    if keyPaths.count != values.count {
      warnings.append("\(place): \(keyPaths.count) key paths but \(values.count) values; the extra entries are ignored")
    }
    for (keyPath, value) in zip(keyPaths, values) {
      guard let path = graph.string(keyPath) else {
        missingLabel(Names.nsRuntimeAttributesKeyPaths, at: place)
        continue
      }
      try checkName(path, "key path", at: place)
      let converted = try fieldValue(value, at: place.with(key: path))
      attributes.append(RuntimeAttributeRecord(object: target, keyPath: path, value: converted, location: place))
    }
  }
}

extension CompiledNibGraph.Node {
  /// `true` for a node that reads as nil (`$null`, `NSNull`).
  var isNull: Bool {
    if case .value(.null) = self { return true }
    return false
  }
}

extension ArchiveError.Location {
  /// The same location with a key.
  fileprivate func with(key: String) -> ArchiveError.Location {
    var copy = self
    copy.keyPath = key
    return copy
  }
}
