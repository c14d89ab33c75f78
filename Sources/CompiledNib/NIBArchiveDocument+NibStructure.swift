import ArchiveCoding

extension NIBArchiveDocument {
  /// Reads the nib structure from the root object: the top-level objects, the document's objects, the connection
  /// records and the visible windows (rules NIBA-024 to NIBA-027).
  /// - Returns: the structure, for UIKit (`UINib…` root keys) or AppKit (`IB.objectdata`) nibs.
  /// - Throws: `ArchiveError` `.unsupportedFormat` when the root has neither layout; `.corruptData` when the archive
  ///   has no objects or `NSObjectsKeys` and `NSObjectsValues` differ in length; `.typeMismatch` when one of the keys
  ///   read holds a value of the wrong type (the location names the object and key).
  public func nibStructure() throws(ArchiveError) -> NIBArchiveNibStructure {
    guard let root = rootObjectIndex else {
      throw .nibArchive(
        .corruptData, "expected a root object #0, found an archive without objects", byteOffset: nil)
    }
    let names = NIBArchiveWireNames.self
    // Strings read while building the structure, by object index (see cachedString).
    var strings: [Int: String?] = [:]
    let uiKitKeys = [names.topLevelObjectsKey, names.objectsKey, names.connectionsKey]
    if uiKitKeys.contains(where: { valueIndex(forKey: $0, inObject: root) != nil }) {
      let topLevel = try collection(forKey: names.topLevelObjectsKey, inObject: root)
      return NIBArchiveNibStructure(
        flavor: .uiKit, rootObjectIndex: root, objectDataIndex: nil, topLevelObjects: topLevel,
        objects: try collection(forKey: names.objectsKey, inObject: root),
        connections: try connections(try collection(forKey: names.connectionsKey, inObject: root), strings: &strings),
        visibleWindows: try collection(forKey: names.visibleWindowsKey, inObject: root),
        filesOwner: filesOwnerProxy(among: topLevel, strings: &strings))
    }
    if valueIndex(forKey: names.objectDataKey, inObject: root) != nil {
      guard let objectData = try optionalReference(forKey: names.objectDataKey, inObject: root) else {
        throw typeMismatch(
          "expected \"\(names.objectDataKey)\" to refer to an NSIBObjectData object, found nil", objectIndex: root,
          keyPath: names.objectDataKey)
      }
      let owner = try optionalReference(forKey: names.rootKey, inObject: objectData)
      let children = try collection(forKey: names.objectsKeysKey, inObject: objectData)
      let parents = try collection(forKey: names.objectsValuesKey, inObject: objectData)
      // The two arrays are parallel: child i has parent i.
      guard children.count == parents.count else {
        throw ArchiveError(
          .corruptData,
          "expected \"\(names.objectsKeysKey)\" and \"\(names.objectsValuesKey)\" of equal length, found"
            + " \(children.count) and \(parents.count)",
          at: .init(objectIndex: objectData, className: className(ofObject: objectData)))
      }
      let topLevel = owner.map { owner in zip(children, parents).filter { $0.1 == owner }.map(\.0) } ?? []
      return NIBArchiveNibStructure(
        flavor: .appKit, rootObjectIndex: root, objectDataIndex: objectData, topLevelObjects: topLevel,
        objects: children,
        connections: try connections(
          try collection(forKey: names.nsConnectionsKey, inObject: objectData), strings: &strings),
        visibleWindows: try collection(forKey: names.nsVisibleWindowsKey, inObject: objectData),
        filesOwner: owner)
    }
    let found = objectRecord(root).valueRange.prefix(8).map { "\"\(key(ofValueAt: $0))\"" }.joined(separator: ", ")
    throw ArchiveError(
      .unsupportedFormat,
      "expected the root object to hold UINib* keys (UIKit) or \"\(names.objectDataKey)\" (AppKit), found keys"
        + " [\(found)]",
      at: .init(objectIndex: root, className: className(ofObject: root)))
  }

  /// The kind of a connection class name, or `nil` when the name is not a known connection class.
  static func connectionKind(forClassName name: String) -> NIBArchiveConnection.Kind? {
    let names = NIBArchiveWireNames.self
    switch name {
    case names.outletConnectionClass, names.outletConnectorClass: return .outlet
    case names.outletCollectionConnectionClass: return .outletCollection
    case names.eventConnectionClass, names.controlConnectorClass: return .action
    case names.bindingConnectorClass: return .binding
    default: return nil
    }
  }

  // MARK: Internal

  /// Decodes the connection objects listed in a connections array.
  func connections(
    _ indices: [Int], strings: inout [Int: String?]
  ) throws(ArchiveError) -> [NIBArchiveConnection] {
    let names = NIBArchiveWireNames.self
    var result: [NIBArchiveConnection] = []
    // A list may name one object many times; decode each object once so that the work stays bounded by the
    // values table (NIBA-015) whatever the list repeats.
    var decoded: [Int: NIBArchiveConnection] = [:]
    result.reserveCapacity(indices.count)
    for index in indices {
      if let known = decoded[index] {
        result.append(known)
        continue
      }
      let chain = classNameChain(ofObject: index)
      let kind = chain.lazy.compactMap { Self.connectionKind(forClassName: $0) }.first ?? .other
      let sourceKey =
        valueIndex(forKey: names.uiSourceKey, inObject: index) != nil ? names.uiSourceKey : names.nsSourceKey
      let destinationKey =
        valueIndex(forKey: names.uiDestinationKey, inObject: index) != nil
        ? names.uiDestinationKey : names.nsDestinationKey
      let labelKey = valueIndex(forKey: names.uiLabelKey, inObject: index) != nil ? names.uiLabelKey : names.nsLabelKey
      let connection =
        NIBArchiveConnection(
          kind: kind, objectIndex: index, className: chain[0],
          source: try optionalReference(forKey: sourceKey, inObject: index),
          destination: try optionalReference(forKey: destinationKey, inObject: index),
          label: try optionalString(forKey: labelKey, inObject: index, strings: &strings),
          eventMask: try optionalInteger(forKey: names.uiEventMaskKey, inObject: index))
      decoded[index] = connection
      result.append(connection)
    }
    return result
  }

  /// The first `UIProxyObject` of `candidates` whose identifier is `IBFilesOwner`.
  func filesOwnerProxy(among candidates: [Int], strings: inout [Int: String?]) -> Int? {
    var visited: Set<Int> = []
    for index in candidates where visited.insert(index).inserted {
      guard className(ofObject: index) == NIBArchiveWireNames.proxyObjectClass,
        let target = objectReference(forKey: NIBArchiveWireNames.proxiedObjectIdentifierKey, inObject: index)
      else { continue }
      if cachedString(ofObject: target, strings: &strings) == NIBArchiveWireNames.filesOwnerIdentifier {
        return index
      }
    }
    return nil
  }

  /// ``string(ofObject:)`` computed once per object: many records may share one (possibly large) string object.
  func cachedString(ofObject index: Int, strings: inout [Int: String?]) -> String? {
    if let known = strings[index] { return known }
    let text = string(ofObject: index)
    strings[index] = .some(text)
    return text
  }

  /// The elements of the inlined collection a key refers to; a missing key or a nil value is an empty collection.
  func collection(forKey key: String, inObject objectIndex: Int) throws(ArchiveError) -> [Int] {
    guard let target = try optionalReference(forKey: key, inObject: objectIndex) else { return [] }
    do throws(ArchiveError) {
      return try collectionElements(ofObject: target)
    } catch {
      // Name the key that led to the collection as well as the collection itself.
      var located = error
      located.message = "\"\(key)\" of object #\(objectIndex): \(error.message)"
      throw located
    }
  }

  /// An object reference; `nil` for a missing key or a nil value; a `.typeMismatch` for any other type.
  func optionalReference(forKey key: String, inObject objectIndex: Int) throws(ArchiveError) -> Int? {
    guard let record = record(forKey: key, inObject: objectIndex) else { return nil }
    switch record.type {
    case .objectReference: return Int(record.payload)
    case .null: return nil
    default:
      throw typeMismatch(
        "expected an object reference or nil, found \(record.type)", objectIndex: objectIndex, keyPath: key)
    }
  }

  /// The text of a referenced string object; `nil` for a missing key or a nil value; a `.typeMismatch` otherwise.
  func optionalString(
    forKey key: String, inObject objectIndex: Int, strings: inout [Int: String?]
  ) throws(ArchiveError) -> String? {
    guard let target = try optionalReference(forKey: key, inObject: objectIndex) else { return nil }
    guard let text = cachedString(ofObject: target, strings: &strings) else {
      throw typeMismatch(
        "expected a reference to a string object, found object #\(target) (\(className(ofObject: target))) without"
          + " UTF-8 \"\(NIBArchiveWireNames.bytesKey)\"",
        objectIndex: objectIndex, keyPath: key)
    }
    return text
  }

  /// An integer; `nil` for a missing key; a `.typeMismatch` for a non-integer type.
  func optionalInteger(forKey key: String, inObject objectIndex: Int) throws(ArchiveError) -> Int64? {
    guard let record = record(forKey: key, inObject: objectIndex) else { return nil }
    guard let value = makeValue(record).integerValue else {
      throw typeMismatch("expected an integer, found \(record.type)", objectIndex: objectIndex, keyPath: key)
    }
    return value
  }
}
