import ArchiveCoding

private typealias N = XIBNames.Archive

/// Builds an ``XIBDocument`` from an older IBDocument archive (`<archive type=… version="7.10">`, Xcode 3 and early
/// Xcode 4): objects from the object records, connections from the connection records, custom classes from the
/// flattened properties (XIB-070 … XIB-076).
struct ArchiveDocumentReader {
  /// Where an archived element with an `id` was defined.
  private struct Definition {
    var element: XMLElementNode
    /// Its own `key`, or for an unkeyed member of a list, the list's key.
    var key: String?
  }

  private struct Record {
    var objectID: Int
    var archiveID: String
    var parentArchiveID: String?
    var element: XMLElementNode
  }

  private let source: [UInt8]
  private let fileName: String?
  private let runtime: XIBTargetRuntime
  private var definitions: [String: Definition] = [:]
  private var objectIDByArchiveID: [String: String] = [:]
  private var warnings: [XIBDiagnostic] = []
  private var warnedNames: Set<String> = []

  init(source: [UInt8], fileName: String?, runtime: XIBTargetRuntime) {
    self.source = source
    self.fileName = fileName
    self.runtime = runtime
  }

  mutating func read(_ root: XMLElementNode) throws -> DocumentReadResult {
    guard let data = root.children.first(where: { $0.name == N.data }) else {
      throw error("the archive has no <data> element", at: root)
    }
    try index(data)
    guard let rootObjects = keyedChild(data, N.rootObjects) else {
      throw error("the archive has no \(N.rootObjects)", at: data)
    }
    guard let container = keyedChild(data, N.documentObjects) else {
      throw error("the archive has no \(N.documentObjects)", at: data)
    }
    let rootMembers = Set(members(of: rootObjects).compactMap(archiveID(of:)))
    let customClasses = try readCustomClasses(container)
    let records = try readRecords(container)

    var rootArchiveIDs: Set<String> = []
    for record in records where record.objectID == 0 {
      rootArchiveIDs.insert(record.archiveID)
    }
    for record in records where record.objectID != 0 {
      objectIDByArchiveID[record.archiveID] = String(record.objectID)
    }

    // Objects, in the document order of their definitions.
    var placed: [(offset: Int, object: XIBObject)] = []
    var seen: [Int: XMLElementNode] = [:]
    for record in records where record.objectID != 0 {
      if let first = seen[record.objectID] {
        throw error(
          "duplicate object record \(record.objectID) (first at \(first.line):\(first.column))", at: record.element)
      }
      seen[record.objectID] = record.element
      guard let definition = definitions[record.archiveID] else {
        throw error(
          "object record \(record.objectID) refers to undefined archived object \"\(record.archiveID)\"",
          at: record.element)
      }
      let object = try makeObject(
        record: record, definition: definition, customClass: customClasses[String(record.objectID)],
        isRootMember: rootMembers.contains(record.archiveID), rootArchiveIDs: rootArchiveIDs)
      placed.append((definition.element.byteOffset, object))
    }
    placed.sort { $0.offset < $1.offset }
    let objects = placed.map(\.object)
    var indexByID: [String: Int] = [:]
    for (index, object) in objects.enumerated() {
      indexByID[object.id] = index
    }
    let connections = try readConnections(container)
    return DocumentReadResult(
      objects: objects, indexByID: indexByID, connections: connections, scenes: [], warnings: warnings)
  }

  // MARK: - Index

  private mutating func index(_ element: XMLElementNode) throws {
    let listKey = element[attribute: XIBNames.Attribute.key]
    for child in element.children {
      if !N.knownElements.contains(child.name) && !warnedNames.contains(child.name) {
        warnedNames.insert(child.name)
        warnings.append(
          XIBDiagnostic(
            file: fileName, line: child.line, column: child.column, message: "unknown element <\(child.name)>"))
      }
      if let id = child[attribute: XIBNames.Attribute.id] {
        if let first = definitions[id] {
          throw error(
            "duplicate archive id \"\(id)\" (first defined at \(first.element.line):\(first.element.column))",
            at: child)
        }
        definitions[id] = Definition(element: child, key: child[attribute: XIBNames.Attribute.key] ?? listKey)
      }
      try index(child)
    }
  }

  // MARK: - Records and flattened properties

  private func readRecords(_ container: XMLElementNode) throws -> [Record] {
    guard let recordSet = keyedChild(container, N.objectRecords),
      let ordered = keyedChild(recordSet, N.orderedObjects)
    else {
      throw error("the archive has no \(N.objectRecords).\(N.orderedObjects)", at: container)
    }
    var records: [Record] = []
    for member in members(of: ordered) {
      guard let idElement = keyedChild(member, N.objectID), let objectID = integer(idElement) else {
        throw error("object record without an integer \(N.objectID)", at: member)
      }
      guard let objectElement = keyedChild(member, N.recordObject), let archiveID = archiveID(of: objectElement) else {
        throw error("object record \(objectID) has no object reference", at: member)
      }
      let parent = keyedChild(member, N.parent).flatMap(archiveID(of:))
      records.append(Record(objectID: objectID, archiveID: archiveID, parentArchiveID: parent, element: objectElement))
    }
    return records
  }

  /// `"<objectID>.CustomClassName"` entries of the flattened properties, by object id.
  private func readCustomClasses(_ container: XMLElementNode) throws -> [String: String] {
    guard let properties = keyedChild(container, N.flattenedProperties) else { return [:] }
    var result: [String: String] = [:]
    for (key, value) in dictionaryEntries(properties) where key.hasSuffix(N.customClassNameSuffix) {
      if case .string(let name) = try archiveValue(value) {
        result[String(key.dropLast(N.customClassNameSuffix.count))] = name
      }
    }
    return result
  }

  /// The entries of an archived dictionary in any of its three spellings: parallel `dict.sortedKeys` /
  /// `dict.values` lists, `NS.key.N` / `NS.object.N` pairs, or (8.x `<dictionary>`) keyed children.
  private func dictionaryEntries(_ dictionary: XMLElementNode) -> [(String, XMLElementNode)] {
    if let keys = keyedChild(dictionary, N.sortedKeys), let values = keyedChild(dictionary, N.sortedValues) {
      return zip(members(of: keys), members(of: values)).map { (resolve($0.0).text, $0.1) }
    }
    var pairedKeys: [String: String] = [:]
    var pairedValues: [String: XMLElementNode] = [:]
    var direct: [(String, XMLElementNode)] = []
    for child in dictionary.children {
      guard let key = child[attribute: XIBNames.Attribute.key] else { continue }
      if key.hasPrefix(N.keyPrefix) {
        pairedKeys[String(key.dropFirst(N.keyPrefix.count))] = resolve(child).text
      } else if key.hasPrefix(N.objectPrefix) {
        pairedValues[String(key.dropFirst(N.objectPrefix.count))] = child
      } else {
        direct.append((key, child))
      }
    }
    for (suffix, key) in pairedKeys.sorted(by: { $0.key < $1.key }) {
      if let value = pairedValues[suffix] { direct.append((key, value)) }
    }
    return direct
  }

  // MARK: - Objects

  private mutating func makeObject(
    record: Record, definition: Definition, customClass flattenedClass: String?, isRootMember: Bool,
    rootArchiveIDs: Set<String>
  ) throws -> XIBObject {
    let element = definition.element
    let archivedClass = element[attribute: N.classAttribute] ?? element.name
    var (elementName, className) = ArchiveDocumentReader.elementAndClass(
      forArchivedClass: archivedClass, runtime: runtime)
    var customClass: String?
    var placeholder: XIBPlaceholder?
    if archivedClass == N.proxyObjectClass {
      switch keyedChild(element, N.proxiedObjectIdentifier).map({ resolve($0).text }) {
      case XIBNames.Value.filesOwner: placeholder = .filesOwner
      case XIBNames.Value.firstResponder: placeholder = .firstResponder
      case let identifier: placeholder = .external(identifier: identifier ?? "")
      }
      elementName = XIBNames.Element.placeholder
      className = runtime.defaultClassName(forElement: elementName)
    } else if record.objectID < 0 {
      placeholder = ArchiveDocumentReader.placeholder(forRecordID: record.objectID, runtime: runtime)
    }
    if archivedClass == N.customObjectClass || archivedClass == N.customViewClass,
      let named = keyedChild(element, N.className).map({ resolve($0).text }), named != className
    {
      customClass = named
    }
    if let flattenedClass, !flattenedClass.isEmpty { customClass = flattenedClass }

    var parentID: String?
    if let parent = record.parentArchiveID, !rootArchiveIDs.contains(parent) {
      parentID = objectIDByArchiveID[parent]
      if parentID == nil {
        warnings.append(
          XIBDiagnostic(
            file: fileName, line: record.element.line, column: record.element.column,
            message: "object record \(record.objectID) has a parent \"\(parent)\" that is not a recorded object"))
      }
    }
    var values: [XIBKeyedValue] = []
    for child in element.children {
      guard let key = child[attribute: XIBNames.Attribute.key] else { continue }
      values.append(XIBKeyedValue(key: key, value: try archiveValue(child)))
    }
    return XIBObject(
      id: String(record.objectID), elementName: elementName, className: className, customClass: customClass,
      placeholder: placeholder, parentID: parentID, key: isRootMember ? nil : definition.key,
      isTopLevel: isRootMember && placeholder == nil, attributes: element.attributes, values: values,
      line: element.line, column: element.column)
  }

  /// XIB-072: the element name and Apple class of an archived class.
  static func elementAndClass(forArchivedClass archived: String, runtime: XIBTargetRuntime) -> (String, String) {
    switch archived {
    case N.uiCustomObjectClass, N.customObjectClass:
      return (XIBNames.Element.customObject, "NSObject")
    case N.customViewClass:
      return ("customView", runtime.usesUIKit ? "UIView" : "NSView")
    case N.windowTemplateClass:
      return ("window", "NSWindow")
    default:
      break
    }
    var className = archived
    if archived.hasPrefix("IBUI") {
      className = "UI" + archived.dropFirst(4)
    } else if archived.hasPrefix("IBNS") {
      className = String(archived.dropFirst(2))
    }
    var stem = Substring(className)
    if className.hasPrefix("UI") || className.hasPrefix("NS") { stem = className.dropFirst(2) }
    let elementName = ElementCatalog.lowercasingFirstLetter(String(stem))
    return (elementName, className)
  }

  /// XIB-073: negative record ids are placeholders (-1 and -2 swap meaning between iOS and macOS).
  static func placeholder(forRecordID id: Int, runtime: XIBTargetRuntime) -> XIBPlaceholder {
    switch (id, runtime.usesUIKit) {
    case (-1, true), (-2, false): return .filesOwner
    case (-2, true), (-1, false): return .firstResponder
    case (-3, _): return .application
    default: return .external(identifier: String(id))
    }
  }

  // MARK: - Connections

  private func readConnections(_ container: XMLElementNode) throws -> [XIBConnection] {
    guard let list = keyedChild(container, N.connectionRecords) else { return [] }
    var result: [XIBConnection] = []
    for record in members(of: list) {
      guard let element = keyedChild(record, N.connection).map(resolve) else {
        throw error("connection record without a connection", at: record)
      }
      let archivedClass = element[attribute: N.classAttribute] ?? ""
      let label = keyedChild(element, N.label).map { resolve($0).text }
      let connectionID = keyedChild(record, N.connectionID).flatMap(integer).map(String.init)
      var connection: XIBConnection
      if N.outletConnectionClasses.contains(archivedClass)
        || N.outletCollectionConnectionClasses.contains(archivedClass)
      {
        let kind: XIBConnection.Kind = N.outletConnectionClasses.contains(archivedClass) ? .outlet : .outletCollection
        connection = XIBConnection(
          kind: kind, id: connectionID, sourceID: try endpoint(N.source, of: element),
          destinationID: try endpoint(N.destination, of: element), property: label)
      } else if archivedClass == N.touchEventConnectionClass {
        let event = keyedChild(element, N.eventType).flatMap(integer).map { value in
          XIBNames.controlEventNames[value &- 1] ?? "event\(value)"
        }
        connection = XIBConnection(
          kind: .action, id: connectionID, sourceID: try endpoint(N.source, of: element),
          destinationID: try optionalEndpoint(N.destination, of: element), selector: label, eventType: event)
      } else if archivedClass == N.actionConnectionClass {
        // AppKit action records point from the target (source) to the control (destination).
        connection = XIBConnection(
          kind: .action, id: connectionID, sourceID: try endpoint(N.destination, of: element),
          destinationID: try optionalEndpoint(N.source, of: element), selector: label)
      } else if archivedClass == N.bindingConnectionClass {
        let connector = keyedChild(element, N.connector).map(resolve)
        let name = connector.flatMap { keyedChild($0, N.binding) }.map { resolve($0).text }
        let keyPath = connector.flatMap { keyedChild($0, N.bindingKeyPath) }.map { resolve($0).text }
        connection = XIBConnection(
          kind: .binding, id: connectionID, sourceID: try endpoint(N.source, of: element),
          destinationID: try endpoint(N.destination, of: element),
          property: name ?? label.map { String($0.prefix { $0 != ":" }) }, identifier: keyPath)
      } else {
        throw error("unknown connection kind \"\(archivedClass)\"", at: element)
      }
      connection.attributes = element.attributes
      connection.line = element.line
      connection.column = element.column
      result.append(connection)
    }
    return result
  }

  private func endpoint(_ key: String, of connection: XMLElementNode) throws -> String {
    guard let id = try optionalEndpoint(key, of: connection) else {
      throw error("connection has no \(key)", at: keyedChild(connection, key) ?? connection)
    }
    return id
  }

  /// The object id at the end of a connection's `source` or `destination` reference; `nil` when it is nil.
  private func optionalEndpoint(_ key: String, of connection: XMLElementNode) throws -> String? {
    guard let reference = keyedChild(connection, key), let archiveID = archiveID(of: reference) else { return nil }
    if let objectID = objectIDByArchiveID[archiveID] { return objectID }
    if definitions[archiveID] != nil {
      throw error("connection \(key) \"\(archiveID)\" is an archived object without an object record", at: reference)
    }
    throw error("connection \(key) refers to unknown archived object \"\(archiveID)\"", at: reference)
  }

  // MARK: - Values

  /// XIB-075: an archived element as an ``XIBValue``.
  private func archiveValue(_ element: XMLElementNode) throws -> XIBValue {
    switch element.name {
    case N.null:
      return .null
    case N.string, N.characters:
      if element[attribute: XIBNames.Attribute.type] == N.typeBase64UTF8 {
        guard let bytes = Base64.decode(element.text), let text = String(validating: bytes, as: UTF8.self) else {
          throw error("<\(element.name)> marked base64-UTF8 does not hold base64 of UTF-8 text", at: element)
        }
        return .string(text)
      }
      return .string(element.text)
    case N.int, N.integer:
      if let value = integer(element) { return .integer(value) }
      return .string(scalarText(element))
    case N.float, N.double, N.real:
      if let value = Double(scalarText(element)) { return .real(value) }
      return .string(scalarText(element))
    case N.bool, N.boolean:
      switch scalarText(element) {
      case XIBNames.Value.yes: return .bool(true)
      case XIBNames.Value.no: return .bool(false)
      case let text: return .string(text)
      }
    case N.bytes:
      guard let bytes = Base64.decode(element.text) else {
        throw error("<bytes> does not hold base64", at: element)
      }
      return .data(bytes)
    case N.reference:
      guard let archiveID = element[attribute: N.ref] else { return .null }
      if let objectID = objectIDByArchiveID[archiveID] { return .object(id: objectID) }
      return .archivedReference(archiveID)
    default:
      break
    }
    if let id = element[attribute: XIBNames.Attribute.id], let objectID = objectIDByArchiveID[id] {
      return .object(id: objectID)
    }
    let archivedClass = element[attribute: N.classAttribute]
    if element.name == N.array || archivedClass.map(N.arrayClasses.contains) == true {
      return .array(try members(of: element).map(archiveValue))
    }
    if element.name == N.dictionary || archivedClass.map(N.dictionaryClasses.contains) == true {
      let entries = try dictionaryEntries(element).map { XIBKeyedValue(key: $0.0, value: try archiveValue($0.1)) }
      return .element(XIBElementValue(name: archivedClass ?? element.name, values: entries))
    }
    var values: [XIBKeyedValue] = []
    var items: [XIBValue] = []
    for child in element.children {
      if let key = child[attribute: XIBNames.Attribute.key] {
        values.append(XIBKeyedValue(key: key, value: try archiveValue(child)))
      } else {
        items.append(try archiveValue(child))
      }
    }
    return .element(
      XIBElementValue(
        name: archivedClass ?? element.name,
        attributes: element.attributes.filter { $0.name != XIBNames.Attribute.key }, values: values, items: items,
        text: element.text))
  }

  // MARK: - Helpers

  private func keyedChild(_ element: XMLElementNode, _ key: String) -> XMLElementNode? {
    element.children.first { $0[attribute: XIBNames.Attribute.key] == key }
  }

  /// The members of an archived list: its unkeyed children except the `EncodedWithXMLCoder` marker.
  private func members(of list: XMLElementNode) -> [XMLElementNode] {
    list.children.filter { child in
      let key = child[attribute: XIBNames.Attribute.key]
      return key == nil
    }
  }

  /// The archive id an element defines (`id=`) or refers to (`<reference ref=>`).
  private func archiveID(of element: XMLElementNode) -> String? {
    if element.name == N.reference { return element[attribute: N.ref] }
    return element[attribute: XIBNames.Attribute.id]
  }

  /// The element itself, or for a `<reference ref=>` the element it refers to (when defined).
  private func resolve(_ element: XMLElementNode) -> XMLElementNode {
    if element.name == N.reference, let id = element[attribute: N.ref], let definition = definitions[id] {
      return definition.element
    }
    return element
  }

  private func scalarText(_ element: XMLElementNode) -> String {
    element[attribute: XIBNames.Attribute.value] ?? element.text
  }

  private func integer(_ element: XMLElementNode) -> Int? {
    Int(scalarText(element))
  }

  private func error(_ message: String, at element: XMLElementNode) -> ArchiveError {
    SourceLocator.error(.corruptData, message, atByteOffset: element.byteOffset, in: source, fileName: fileName)
  }
}
