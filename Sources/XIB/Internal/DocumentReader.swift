import ArchiveCoding

private typealias E = XIBNames.Element
private typealias A = XIBNames.Attribute
private typealias V = XIBNames.Value

/// Builds an ``XIBDocument`` from the element tree of a XIB 3.0 (or 2.0) `<document>`: objects in document order,
/// connections with their source, storyboard scenes, warnings. References are resolved only after the whole tree
/// has been read, so forward references work (XIB-050).
struct DocumentReader {
  private let source: [UInt8]
  private let fileName: String?
  private let runtime: XIBTargetRuntime
  private let isStoryboard: Bool
  private var objects: [XIBObject] = []
  private var indexByID: [String: Int] = [:]
  private var offsetByID: [String: Int] = [:]
  private var connections: [XIBConnection] = []
  /// The byte offset of each connection's element, for diagnostics when its destination does not resolve.
  private var connectionOffsets: [Int] = []
  private var scenes: [XIBScene] = []
  private var warnings: [XIBDiagnostic] = []
  private var warnedNames: Set<String> = []
  /// Constraint item references to check once every id is known: the attribute, the id and where it was written.
  private var itemReferences: [(attribute: String, id: String, line: Int, column: Int)] = []

  init(source: [UInt8], fileName: String?, runtime: XIBTargetRuntime, isStoryboard: Bool) {
    self.source = source
    self.fileName = fileName
    self.runtime = runtime
    self.isStoryboard = isStoryboard
  }

  mutating func read(_ root: XMLElementNode) throws -> DocumentReadResult {
    for child in root.children {
      switch child.name {
      case E.objects:
        _ = try readObjectList(child, sceneID: nil)
      case E.scenes:
        for scene in child.children {
          guard scene.name == E.scene else {
            warnIfUnknown(scene)
            continue
          }
          try readScene(scene)
        }
      default:
        warnIfUnknown(child)
      }
    }
    try resolveReferences(initialViewController: root[attribute: A.initialViewController], root: root)
    return DocumentReadResult(
      objects: objects, indexByID: indexByID, connections: connections, scenes: scenes, warnings: warnings)
  }

  // MARK: - Scenes and object lists

  private mutating func readScene(_ scene: XMLElementNode) throws {
    let sceneID = scene[attribute: A.sceneID] ?? ""
    var ids: [String] = []
    for child in scene.children {
      if child.name == E.objects {
        ids += try readObjectList(child, sceneID: sceneID)
      } else {
        warnIfUnknown(child)
      }
    }
    var controllerID: String?
    for id in ids {
      if let index = indexByID[id], objects[index].attribute(A.sceneMemberID) == V.viewControllerMember {
        controllerID = id
        break
      }
    }
    let storyboardIdentifier = controllerID.flatMap { indexByID[$0] }.flatMap {
      objects[$0].attribute(A.storyboardIdentifier)
    }
    scenes.append(
      XIBScene(
        sceneID: sceneID, objectIDs: ids, controllerID: controllerID, storyboardIdentifier: storyboardIdentifier,
        line: scene.line, column: scene.column))
  }

  /// Reads the members of an `<objects>` element; returns the ids of the objects listed directly in it.
  private mutating func readObjectList(_ list: XMLElementNode, sceneID: String?) throws -> [String] {
    var ids: [String] = []
    for child in list.children {
      if child[attribute: A.id] != nil {
        ids.append(try readObject(child, parentID: nil, key: nil, listed: true, sceneID: sceneID))
      } else if child.name == E.connections {
        throw error("<connections> outside of any object: the connections have no source", at: child)
      } else {
        // An element without an id is not an object; objects nested in it still are, at the top of the graph.
        warnIfUnknown(child)
        _ = try readContent(of: child, ownerID: nil, ownerIsObject: false, sceneID: sceneID)
      }
    }
    return ids
  }

  // MARK: - Objects

  private mutating func readObject(
    _ element: XMLElementNode, parentID: String?, key: String?, listed: Bool, sceneID: String?
  ) throws -> String {
    let id = element[attribute: A.id] ?? ""
    if let first = offsetByID[id] {
      let firstPosition = position(ofByteOffset: first)
      throw error(
        "duplicate object id \"\(id)\" (first used at \(firstPosition.line):\(firstPosition.column))", at: element)
    }
    warnIfUnknown(element)
    let placeholder = placeholderRole(of: element, id: id)
    var customClass = element[attribute: A.customClass]
    if customClass?.isEmpty == true { customClass = nil }
    let index = objects.count
    indexByID[id] = index
    offsetByID[id] = element.byteOffset
    objects.append(
      XIBObject(
        id: id, elementName: element.name,
        className: runtime.defaultClassName(forElement: element.name), customClass: customClass,
        customModule: element[attribute: A.customModule],
        customModuleProvider: element[attribute: A.customModuleProvider], placeholder: placeholder,
        parentID: parentID, key: key, isTopLevel: listed && placeholder == nil, sceneID: sceneID,
        attributes: element.attributes, values: [], runtimeAttributes: [], line: element.line, column: element.column))
    if element.name == E.constraint {
      for attribute in [A.firstItem, A.secondItem] {
        if let item = element[attribute: attribute] {
          itemReferences.append((attribute, item, element.line, element.column))
        }
      }
    }
    let content = try readContent(of: element, ownerID: id, ownerIsObject: true, sceneID: sceneID)
    objects[index].values = content.values + content.items.map { XIBKeyedValue(key: $0.name, value: $0.value) }
    return id
  }

  /// XIB-030 … XIB-035: which elements are placeholders, and of what.
  private func placeholderRole(of element: XMLElementNode, id: String) -> XIBPlaceholder? {
    if element[attribute: A.sceneMemberID] == V.firstResponderMember { return .firstResponder }
    switch element.name {
    case E.placeholder:
      switch element[attribute: A.placeholderIdentifier] {
      case V.filesOwner: return .filesOwner
      case V.firstResponder: return .firstResponder
      case let identifier: return .external(identifier: identifier ?? "")
      }
    case E.exit:
      return .exit
    case E.viewControllerPlaceholder:
      return .storyboardReference(
        storyboardName: element[attribute: A.storyboardName],
        referencedIdentifier: element[attribute: A.referencedIdentifier])
    case E.application where isStoryboard:
      return .application
    case E.customObject where runtime == .macOS:
      switch id {
      case V.filesOwnerID: return .filesOwner
      case V.firstResponderID: return .firstResponder
      case V.applicationID: return .application
      default: return nil
      }
    default:
      return nil
    }
  }

  /// Reads the children of an object or value element: keyed values, unkeyed members (with their element names),
  /// nested objects, connections and runtime attributes (which attach to `ownerID`).
  private mutating func readContent(
    of element: XMLElementNode, ownerID: String?, ownerIsObject: Bool, sceneID: String?
  ) throws -> (values: [XIBKeyedValue], items: [(name: String, value: XIBValue)]) {
    var values: [XIBKeyedValue] = []
    var items: [(name: String, value: XIBValue)] = []
    for child in element.children {
      let value: XIBValue
      if child.name == E.connections {
        guard let ownerID else {
          throw error("<connections> outside of any object: the connections have no source", at: child)
        }
        try readConnections(child, sourceID: ownerID)
        continue
      } else if child.name == E.userDefinedRuntimeAttributes {
        let attributes = try readRuntimeAttributes(child, ownerID: ownerID, sceneID: sceneID)
        if let ownerID, let index = indexByID[ownerID] {
          objects[index].runtimeAttributes += attributes
        }
        continue
      } else if child[attribute: A.id] != nil {
        let key = child[attribute: A.key] ?? (ownerIsObject ? nil : element.name)
        value = .object(id: try readObject(child, parentID: ownerID, key: key, listed: false, sceneID: sceneID))
      } else {
        value = try readValue(child, ownerID: ownerID, sceneID: sceneID)
      }
      if let key = child[attribute: A.key] {
        values.append(XIBKeyedValue(key: key, value: value))
      } else {
        items.append((child.name, value))
      }
    }
    return (values, items)
  }

  // MARK: - Values

  /// XIB-040 … XIB-042: a value element as an ``XIBValue``.
  private mutating func readValue(_ element: XMLElementNode, ownerID: String?, sceneID: String?) throws -> XIBValue {
    warnIfUnknown(element)
    switch element.name {
    case E.null:
      return .null
    case E.string:
      if element[attribute: A.base64UTF8] == V.yes {
        guard let decoded = Base64.decode(element.text), let text = String(validating: decoded, as: UTF8.self) else {
          throw error("<string> marked base64-UTF8 does not hold base64 of UTF-8 text", at: element)
        }
        return .string(text)
      }
      return .string(element.text)
    case E.real:
      if let text = element[attribute: A.value], let number = Double(text) { return .real(number) }
    case E.integer:
      if let text = element[attribute: A.value], let number = Int(text) { return .integer(number) }
    case E.bool, E.boolean:
      switch element[attribute: A.value] {
      case V.yes, "true": return .bool(true)
      case V.no, "false": return .bool(false)
      default: break
      }
    case E.rect:
      if let x = number(element, A.x), let y = number(element, A.y), let width = number(element, A.width),
        let height = number(element, A.height), element.children.isEmpty
      {
        return .rect(x: x, y: y, width: width, height: height)
      }
    case E.point:
      if let x = number(element, A.x), let y = number(element, A.y), element.children.isEmpty {
        return .point(x: x, y: y)
      }
    case E.size:
      if let width = number(element, A.width), let height = number(element, A.height), element.children.isEmpty {
        return .size(width: width, height: height)
      }
    default:
      break
    }
    let content = try readContent(of: element, ownerID: ownerID, ownerIsObject: false, sceneID: sceneID)
    if ElementCatalog.collections.contains(element.name) && content.values.isEmpty {
      return .array(content.items.map(\.value))
    }
    return .element(
      XIBElementValue(
        name: element.name, attributes: element.attributes.filter { $0.name != A.key }, values: content.values,
        items: content.items.map(\.value), text: element.text))
  }

  /// A geometry attribute; a missing one is 0 (IB omits nothing, but hand-written files do).
  private func number(_ element: XMLElementNode, _ name: String) -> Double? {
    guard let text = element[attribute: name] else { return 0 }
    return Double(text)
  }

  private mutating func readRuntimeAttributes(
    _ list: XMLElementNode, ownerID: String?, sceneID: String?
  ) throws -> [XIBRuntimeAttribute] {
    var result: [XIBRuntimeAttribute] = []
    for element in list.children {
      guard element.name == E.userDefinedRuntimeAttribute else {
        warnIfUnknown(element)
        continue
      }
      guard let keyPath = element[attribute: A.keyPath] else {
        throw error("<userDefinedRuntimeAttribute> needs a \"keyPath\" attribute", at: element)
      }
      let type = element[attribute: A.type] ?? ""
      var value = XIBValue.null
      let content = try readContent(of: element, ownerID: ownerID, ownerIsObject: false, sceneID: sceneID)
      if let keyed = content.values.first(where: { $0.key == V.userDefinedValueKey }) {
        value = keyed.value
      } else if let text = element[attribute: A.value] {
        switch type {
        case "boolean": value = .bool(text == V.yes)
        case "number": value = Int(text).map(XIBValue.integer) ?? Double(text).map(XIBValue.real) ?? .string(text)
        default: value = .string(text)
        }
      }
      result.append(
        XIBRuntimeAttribute(type: type, keyPath: keyPath, value: value, line: element.line, column: element.column))
    }
    return result
  }

  // MARK: - Connections

  /// XIB-050 … XIB-054: the members of a `<connections>` element, each with `sourceID` as its source.
  private mutating func readConnections(_ list: XMLElementNode, sourceID: String) throws {
    for element in list.children {
      let kind: XIBConnection.Kind
      switch element.name {
      case E.outlet: kind = .outlet
      case E.outletCollection: kind = .outletCollection
      case E.action: kind = .action
      case E.segue: kind = .segue
      case E.binding where runtime == .macOS: kind = .binding
      default:
        throw error("unknown connection kind \"\(element.name)\"", at: element)
      }
      var connection = XIBConnection(
        kind: kind, id: element[attribute: A.id], sourceID: sourceID, destinationID: nil,
        attributes: element.attributes, line: element.line, column: element.column)
      switch kind {
      case .outlet, .outletCollection:
        connection.property = try required(A.property, of: element)
        connection.destinationID = try required(A.destination, of: element)
      case .action:
        connection.selector = try required(A.selector, of: element)
        connection.destinationID = element[attribute: A.target] ?? element[attribute: A.destination]
        connection.eventType = element[attribute: A.eventType]
      case .segue:
        connection.destinationID = try required(A.destination, of: element)
        connection.segueKind = element[attribute: A.kind]
        connection.identifier = element[attribute: A.identifier]
        connection.unwindAction = element[attribute: A.unwindAction]
      case .binding:
        connection.property = try required(A.name, of: element)
        connection.destinationID = try required(A.destination, of: element)
        connection.identifier = element[attribute: A.keyPath]
      }
      connections.append(connection)
      connectionOffsets.append(element.byteOffset)
    }
  }

  private func required(_ attribute: String, of element: XMLElementNode) throws -> String {
    guard let value = element[attribute: attribute] else {
      throw error("<\(element.name)> needs a \"\(attribute)\" attribute", at: element)
    }
    return value
  }

  // MARK: - Resolution

  private mutating func resolveReferences(initialViewController: String?, root: XMLElementNode) throws {
    for (index, connection) in connections.enumerated() {
      guard let destination = connection.destinationID, indexByID[destination] == nil else { continue }
      let what: String
      switch connection.kind {
      case .outlet: what = "outlet \"\(connection.property ?? "")\" refers to"
      case .outletCollection: what = "outlet collection \"\(connection.property ?? "")\" refers to"
      case .action: what = "action \"\(connection.selector ?? "")\" targets"
      case .segue: what = "segue refers to"
      case .binding: what = "binding \"\(connection.property ?? "")\" refers to"
      }
      throw SourceLocator.error(
        .corruptData, "\(what) unknown object id \"\(destination)\"", atByteOffset: connectionOffsets[index],
        in: source, fileName: fileName)
    }
    for reference in itemReferences where indexByID[reference.id] == nil {
      warnings.append(
        XIBDiagnostic(
          file: fileName, line: reference.line, column: reference.column,
          message: "constraint \(reference.attribute) refers to unknown object id \"\(reference.id)\""))
    }
    if let initialViewController, indexByID[initialViewController] == nil {
      warnings.append(
        XIBDiagnostic(
          file: fileName, line: root.line, column: root.column,
          message: "initialViewController refers to unknown object id \"\(initialViewController)\""))
    }
  }

  // MARK: - Diagnostics

  /// XIB-043: the first element of each unknown name gets a warning.
  private mutating func warnIfUnknown(_ element: XMLElementNode) {
    guard !ElementCatalog.isKnown(element.name), !warnedNames.contains(element.name) else { return }
    warnedNames.insert(element.name)
    warnings.append(
      XIBDiagnostic(
        file: fileName, line: element.line, column: element.column, message: "unknown element <\(element.name)>"))
  }

  private func error(_ message: String, at element: XMLElementNode) -> ArchiveError {
    SourceLocator.error(.corruptData, message, atByteOffset: element.byteOffset, in: source, fileName: fileName)
  }

  private func position(ofByteOffset offset: Int) -> (line: Int, column: Int) {
    source.withUnsafeBufferPointer { buffer in
      var locator = SourceLocator(origin: SourceLocator.byteOrderMarkLength(buffer))
      let position = locator.locate(offset, in: buffer)
      return (position.line, position.column)
    }
  }
}
