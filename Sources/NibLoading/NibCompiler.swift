import ArchiveCoding
import Foundation
import KeyedArchive
import PropertyList

/// The compiled-nib class and key names, shared with the reader.
private typealias Wire = CompiledNibWireNames

/// Compiles an ``/ArchiveCoding/ObjectTable`` into a keyed-archive nib with the root keys of Apple's iOS keyed-archive
/// nibs (NIB-070): `UINibObjectsKey` (every object, in table order), `UINibTopLevelObjectsKey`, `UINibConnectionsKey`
/// (`UIRuntimeOutletConnection`, `UIRuntimeOutletCollectionConnection`, `UIRuntimeEventConnection` with `UIEventMask`,
/// and `UIStoryboardSegueTemplate` for segues), `UINibVisibleWindowsKey`, `UINibKeyValuePairsKey` (`UINibKeyValuePair`)
/// and an empty `UINibAccessibilityConfigurationsKey`.
///
/// Placeholders become `UIProxyObject`s with their `UIProxiedObjectIdentifier`; objects whose class differs from
/// their element's class become `UIClassSwapper`s (`UIClassName`, `UIOriginalClassName`). Geometry is written as
/// `NSValue`s, and structured values (colours, fonts, button states) as `NibRecord` objects holding their element
/// name under `NibRecordName` and their fields. Loading the compiled nib gives the same graph as loading the table.
public enum NibCompiler {
  /// The keys under which a XIB names another object by its id: a constraint's items.
  private static let itemKeys: Set<String> = ["firstItem", "secondItem"]

  /// Compiles a table.
  /// - Parameters:
  ///   - table: the object table of a XIB document or a storyboard scene.
  ///   - format: binary (default) or XML.
  /// - Returns: the keyed-archive nib.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` when a value cannot be archived.
  public static func compile(_ table: ObjectTable, format: PropertyListFormat = .binary) throws -> Data {
    let objects = table.objects.map { record -> ArchivedObject in
      if let placeholder = record.placeholder {
        return ArchivedObject(
          className: Wire.proxyObjectClass, classChain: [Wire.proxyObjectClass, "NSObject"],
          fields: [.init(key: Wire.proxiedObjectIdentifier, value: .object(identifier(of: placeholder)))])
      }
      if record.className != record.baseClassName {
        return ArchivedObject(
          className: Wire.uiClassSwapperClass, classChain: [Wire.uiClassSwapperClass, "NSObject"],
          fields: [
            .init(key: Wire.uiClassName, value: .object(record.className)),
            .init(key: Wire.uiOriginalClassName, value: .object(record.baseClassName)),
          ])
      }
      return ArchivedObject(className: record.className, classChain: [record.className, "NSObject"])
    }
    func value(_ field: FieldValue) -> Any? {
      field.swiftValue(
        object: { objects[$0] },
        record: { name, fields in
          ArchivedObject(
            className: Wire.recordClass, classChain: [Wire.recordClass, "NSObject"],
            fields: [.init(key: Wire.recordName, value: .object(name))] + fields.map(entry))
        })
    }
    func entry(_ field: ObjectField) -> ArchivedObject.Entry {
      switch field.value {
      case .bool(let v): .init(key: KeyedArchiver.escape(field.key), value: .value(.bool(v)))
      case .integer(let v): .init(key: KeyedArchiver.escape(field.key), value: .value(.integer(v)))
      case .real(let v): .init(key: KeyedArchiver.escape(field.key), value: .value(.real(v)))
      default: .init(key: KeyedArchiver.escape(field.key), value: .object(value(field.value)))
      }
    }
    // A XIB names a constraint's items by id (`firstItem="lb0"`): the compiled nib refers to the objects, as Apple's
    // `NSFirstItem` does (NIB-070).
    var indexByID: [String: Int] = [:]
    for (index, record) in table.objects.enumerated() where indexByID[record.id] == nil { indexByID[record.id] = index }
    for (index, record) in table.objects.enumerated() where record.placeholder == nil {
      objects[index].fields += record.fields.map { field in
        guard Self.itemKeys.contains(field.key), case .string(let id) = field.value, let item = indexByID[id] else {
          return entry(field)
        }
        return .init(key: KeyedArchiver.escape(field.key), value: .object(objects[item]))
      }
    }
    var connections: [ArchivedObject] = []
    for connection in table.connections {
      let className: String
      switch connection.kind {
      case .outlet: className = Wire.uiOutletConnection
      case .outletCollection: className = Wire.uiOutletCollectionConnection
      case .action: className = Wire.uiEventConnection
      case .segue: className = Wire.uiSegueTemplateClass
      }
      var fields: [ArchivedObject.Entry] = [
        .init(key: "UILabel", value: .object(connection.label)),
        .init(key: "UISource", value: .object(objects[connection.source])),
        .init(key: "UIDestination", value: .object(connection.destination.map { objects[$0] })),
      ]
      if let mask = connection.eventMask {
        fields.append(.init(key: "UIEventMask", value: .value(.integer(unsigned: mask))))
      }
      if let name = connection.eventName { fields.append(.init(key: Wire.uiEventName, value: .object(name))) }
      if let action = connection.unwindAction {
        fields.append(.init(key: Wire.uiUnwindAction, value: .object(action)))
      }
      if let identifier = connection.destinationIdentifier {
        fields.append(.init(key: Wire.uiDestinationViewControllerIdentifier, value: .object(identifier)))
      }
      connections.append(ArchivedObject(className: className, classChain: [className, "NSObject"], fields: fields))
    }
    let pairs = table.runtimeAttributes.map { attribute in
      ArchivedObject(
        className: Wire.uiKeyValuePairClass, classChain: [Wire.uiKeyValuePairClass, "NSObject"],
        fields: [
          .init(key: "UIObject", value: .object(objects[attribute.object])),
          .init(key: "UIKeyPath", value: .object(attribute.keyPath)),
          .init(key: "UIValue", value: .object(value(attribute.value))),
        ])
    }
    let archiver = KeyedArchiver()
    archiver.outputFormat = format
    archiver.encodeObject(objects, forKey: Wire.uiObjects)
    archiver.encodeObject(table.topLevel.map { objects[$0] }, forKey: Wire.uiTopLevelObjects)
    archiver.encodeObject(connections, forKey: Wire.uiConnections)
    archiver.encodeObject(table.visibleWindows.map { objects[$0] }, forKey: Wire.uiVisibleWindows)
    archiver.encodeObject(pairs, forKey: Wire.uiKeyValuePairs)
    archiver.encodeObject([Any](), forKey: Wire.uiAccessibilityConfigurations)
    return try archiver.finishEncoding()
  }

  /// The `UIProxiedObjectIdentifier` of a placeholder.
  public static func identifier(of placeholder: Placeholder) -> String {
    switch placeholder {
    case .filesOwner: "IBFilesOwner"
    case .firstResponder: "IBFirstResponder"
    case .application: "UIApplication"
    case .external(let identifier): identifier
    case .other(let name): name
    }
  }
}

extension ObjectTable {
  /// The part of the table made of the objects at `indexes` (a storyboard scene): references to objects outside
  /// become `nil`; connections keep both ends inside, except segues, whose destination outside becomes `nil` (it is
  /// resolved by identifier at run time).
  public func restricted(to indexes: [Int]) -> ObjectTable {
    restricted(toEach: [indexes])[0]
  }

  /// ``restricted(to:)`` for each of several parts at once (a storyboard's scenes), in one pass over the
  /// connections, runtime attributes and top-level objects: a pass per part was quadratic in the number of scenes
  /// (20,000 scenes took 22 s to compile). `parts` are indexes of this table (others are left out); an index given
  /// twice in one part belongs to its last place there. Parts that share objects (two scenes with one `sceneID`) are each cut on
  /// their own, as `restricted(to:)` cut them before.
  public func restricted(toEach parts: [[Int]]) -> [ObjectTable] {
    // An index that is no object of the table is left out (a caller's mistake, never a trap).
    let parts = parts.map { $0.filter(objects.indices.contains) }
    // For each object of the table: its part and its position there, or -1.
    var part = [Int](repeating: -1, count: objects.count)
    var position = [Int](repeating: -1, count: objects.count)
    for (p, indexes) in parts.enumerated() {
      for (place, index) in indexes.enumerated() {
        if part[index] >= 0, part[index] != p {
          return parts.map { restricted(toEach: [$0])[0] }
        }
        part[index] = p
        position[index] = place
      }
    }
    func local(_ index: Int, in p: Int) -> Int? {
      objects.indices.contains(index) && part[index] == p ? position[index] : nil
    }
    func remap(_ value: FieldValue, _ p: Int) -> FieldValue {
      switch value {
      case .object(let index): local(index, in: p).map(FieldValue.object) ?? .null
      case .array(let elements): .array(elements.map { remap($0, p) })
      case .record(let name, let fields):
        .record(name, fields.map { ObjectField(key: $0.key, value: remap($0.value, p)) })
      default: value
      }
    }
    /// The records whose object (`owner`) is in a part, by part, each moved there by `relocate` (given the record,
    /// its part and its object's position there), which may also leave it out.
    func grouped<Record>(
      _ records: [Record], owner: (Record) -> Int, _ relocate: (inout Record, _ part: Int, _ position: Int) -> Bool
    ) -> [[Record]] {
      var byPart = [[Record]](repeating: [], count: parts.count)
      for record in records {
        let index = owner(record)
        guard objects.indices.contains(index), part[index] >= 0 else { continue }
        var copy = record
        if relocate(&copy, part[index], position[index]) { byPart[part[index]].append(copy) }
      }
      return byPart
    }
    let connectionsByPart = grouped(connections, owner: \.source) { connection, p, place in
      connection.source = place
      guard let destination = connection.destination else { return true }
      connection.destination = local(destination, in: p)
      return connection.destination != nil || connection.kind == .segue
    }
    let attributesByPart = grouped(runtimeAttributes, owner: \.object) { attribute, p, place in
      attribute.object = place
      attribute.value = remap(attribute.value, p)
      return true
    }
    func byPart(_ list: [Int]) -> [[Int]] {
      var grouped = [[Int]](repeating: [], count: parts.count)
      for index in list where objects.indices.contains(index) && part[index] >= 0 {
        grouped[part[index]].append(position[index])
      }
      return grouped
    }
    let topLevelByPart = byPart(topLevel)
    let windowsByPart = byPart(visibleWindows)
    return parts.enumerated().map { p, indexes in
      let records = indexes.map { index -> ObjectRecord in
        var record = self.objects[index]
        record.fields = record.fields.map { ObjectField(key: $0.key, value: remap($0.value, p)) }
        return record
      }
      return ObjectTable(
        objects: records, topLevel: topLevelByPart[p], connections: connectionsByPart[p],
        runtimeAttributes: attributesByPart[p], visibleWindows: windowsByPart[p], platform: platform, warnings: [])
    }
  }
}
