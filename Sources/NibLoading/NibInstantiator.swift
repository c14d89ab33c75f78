import ArchiveCoding
import Foundation
import KeyedArchive

/// The result of one instantiation: a fresh object graph.
public struct NibInstance {
  /// The top-level objects, placeholders excluded, in document order.
  public let topLevelObjects: [AnyObject]
  /// Every created object by its document id.
  public let objectsByID: [String: AnyObject]
  /// What was done.
  public let statistics: NibStatistics
  /// Warnings (unknown classes, runtime attributes that could not be set).
  public let warnings: [String]
}

/// Runs the pipeline over an ``ObjectTable``: decode every object through `init(coder:)`, link deferred
/// references, apply runtime attributes and outlets (through key-value coding, so observers see them), then
/// actions, then send `awakeFromNib()` to every created object and to no placeholder (NIB-001…NIB-006).
///
/// It is the ``DecodingCoder`` the objects' initialisers see: fields come from the table, whatever format the
/// table was built from.
final class NibInstantiator: DecodingCoder {
  let table: ObjectTable
  let owner: AnyObject?
  let options: NibOptions
  let registry: ClassRegistry

  private enum State { case notStarted, inProgress, done }
  private var states: [State]
  private var instances: [AnyObject?]
  private var created: [Int] = []
  private var fellBack: Set<Int> = []
  private var frames: [(index: Int, linkStart: Int)] = []
  /// Stops nesting before the current thread's stack runs out.
  private var stackGuard = StackGuard()
  /// How deeply objects may nest through `init(coder:)` (a view hierarchy is rarely deeper than a few dozen).
  static let maxDepth = 1000
  private struct Link {
    var owner: AnyObject?
    var ownerIndex: Int
    var value: FieldValue
    var key: String
    var assign: (AnyObject, Any?) throws -> Void
  }
  private var links: [Link] = []
  private var statistics = NibStatistics()
  private var application: GenericNibObject?
  private var standIns: [String: GenericNibObject] = [:]
  private var warnings: [String] = []

  var requiresSecureCoding: Bool { false }
  var decodingFailurePolicy: DecodingFailurePolicy { .throwError }
  private(set) var error: (any Error)?

  init(table: ObjectTable, owner: AnyObject?, options: NibOptions, registry: ClassRegistry) {
    self.table = table
    self.owner = owner
    self.options = options
    self.registry = registry
    states = Array(repeating: .notStarted, count: table.objects.count)
    instances = Array(repeating: nil, count: table.objects.count)
  }

  /// The class name of the object being decoded.
  var currentClassName: String? { frames.last.map { table.objects[$0.index].className } }

  private var current: ObjectRecord? { frames.last.map { table.objects[$0.index] } }

  private func warn(_ message: String) {
    warnings.append(message)
    options.warning?(message)
  }

  private func id(_ index: Int) -> String { table.objects[index].id }

  // MARK: The pipeline

  func run() throws -> NibInstance {
    statistics.placeholders = table.objects.filter { $0.placeholder != nil }.count
    // 1. Decode: every object, in document order; references pull objects in earlier.
    for index in table.objects.indices where table.objects[index].placeholder == nil {
      _ = try instantiate(index, key: nil)
    }
    if let error { throw error }
    // 2. Link: deferred references (back pointers, cycles).
    try runLinks()
    // 3. Runtime attributes and outlets, through key-value coding.
    for attribute in table.runtimeAttributes { applyRuntimeAttribute(attribute) }
    for connection in table.connections where connection.kind == .outlet || connection.kind == .outletCollection {
      try connectOutlet(connection)
    }
    // 4. Actions, then segues.
    for connection in table.connections where connection.kind == .action { try connectAction(connection) }
    for connection in table.connections where connection.kind == .segue { try connectSegue(connection) }
    // 5. Awake: every created object, never a placeholder.
    for index in created {
      if let object = instances[index] as? any NibAwaking {
        object.awakeFromNib()
        statistics.awakened += 1
        options.trace?(.awake(id: id(index)))
      }
    }
    var topLevel: [AnyObject] = []
    for index in table.topLevel where table.objects[index].placeholder == nil {
      if let object = instances[index] { topLevel.append(object) }
    }
    statistics.topLevel = topLevel.count
    var byID: [String: AnyObject] = [:]
    for index in created { if let object = instances[index] { byID[id(index)] = object } }
    return NibInstance(
      topLevelObjects: topLevel, objectsByID: byID, statistics: statistics, warnings: table.warnings + warnings)
  }

  /// The object at an index: a placeholder's stand-in, or the object decoded (once) through `init(coder:)`.
  func instantiate(_ index: Int, key: String?) throws -> AnyObject? {
    let record = table.objects[index]
    if let placeholder = record.placeholder { return try resolve(placeholder, record: record) }
    switch states[index] {
    case .done: return instances[index]
    case .inProgress:
      throw ArchiveError(
        .referenceCycle,
        "reference cycle: object \(record.id) (\(record.className)) is still being decoded when \(key.map { "the key \"\($0)\"" } ?? "a reference") refers back to it; decode back references with decodeReference(forKey:into:)",
        at: record.location)
    case .notStarted: break
    }
    // Nesting stops at the depth limit or when the thread's stack runs low (measured per top-level decode).
    if frames.isEmpty { stackGuard = StackGuard() }
    guard frames.count < Self.maxDepth, stackGuard.hasRoom() else {
      throw ArchiveError(
        .limitExceeded,
        "objects nest deeper than the limit of \(Self.maxDepth) or than this thread's stack allows; "
          + "decode long chains with decodeReference(forKey:into:)",
        at: record.location)
    }
    let type = resolveClass(index)
    states[index] = .inProgress
    frames.append((index, links.count))
    let object: AnyObject
    do {
      object = try type.init(coder: self)
    } catch let error as ArchiveError {
      frames.removeLast()
      states[index] = .notStarted
      var location = record.location
      location.className = location.className ?? record.className
      throw error.located(in: location)
    }
    let frame = frames.removeLast()
    for i in frame.linkStart..<links.count where links[i].owner == nil { links[i].owner = object }
    if fellBack.contains(index) { (object as? any UnknownClassAdopting)?.adoptUnknownClass(record.className) }
    states[index] = .done
    instances[index] = object
    created.append(index)
    statistics.objects += 1
    options.trace?(.decode(id: record.id, className: record.className))
    return object
  }

  private func resolve(_ placeholder: Placeholder, record: ObjectRecord) throws -> AnyObject? {
    switch placeholder {
    case .filesOwner: return owner
    case .firstResponder: return nil
    case .other(let name):
      // Storyboard exits and objects of other scenes: a generic stand-in that takes their connections.
      if let standIn = standIns[name] { return standIn }
      let standIn = GenericNibObject(className: record.className)
      standIns[name] = standIn
      return standIn
    case .application:
      if let shared = options.externalObjects["NSApplication"] ?? options.externalObjects["UIApplication"] {
        return shared
      }
      // The shared application stands in as a generic object that accepts its outlets (delegate, menus).
      if application == nil { application = GenericNibObject(className: record.className) }
      return application
    case .external(let identifier):
      guard let object = options.externalObjects[identifier] else {
        throw ArchiveError(
          .connectionFailed, "the nib needs the external object \"\(identifier)\", but the options do not supply it",
          at: record.location)
      }
      return object
    }
  }

  /// The registered class, else the element's base class (with a warning), else a generic stand-in.
  private func resolveClass(_ index: Int) -> any Coding.Type {
    let record = table.objects[index]
    if let type = registry.type(forClassName: record.className) { return type }
    fellBack.insert(index)
    if record.baseClassName != record.className, let base = registry.type(forClassName: record.baseClassName) {
      warn("unknown class \(record.className) for object \(record.id): using \(record.baseClassName)")
      return base
    }
    warn("unknown class \(record.className) for object \(record.id): using a generic object")
    return GenericNibObject.self
  }

  // MARK: Link phase

  private func runLinks() throws {
    var i = 0
    while i < links.count {
      let link = links[i]
      i += 1
      guard let owner = link.owner else { continue }
      let record = table.objects[link.ownerIndex]
      do {
        try link.assign(owner, try value(of: link.value, key: link.key))
      } catch let error as ArchiveError {
        throw error.located(
          in: ArchiveError.Location(
            file: record.location.file, line: record.location.line,
            column: record.location.column, className: record.className, keyPath: link.key))
      }
    }
    links.removeAll()
  }

  // MARK: Connections

  private func applyRuntimeAttribute(_ attribute: RuntimeAttributeRecord) {
    let record = table.objects[attribute.object]
    do {
      guard let object = try instantiate(attribute.object, key: nil) else { return }
      guard let target = object as? any KeyValueCoding else {
        warn("cannot set runtime attribute \"\(attribute.keyPath)\" on \(record.className): no key-value coding")
        return
      }
      try target.setValue(try value(of: attribute.value, key: attribute.keyPath), forKeyPath: attribute.keyPath)
      options.trace?(.attribute(object: record.id, keyPath: attribute.keyPath))
    } catch {
      warn("failed to set runtime attribute \"\(attribute.keyPath)\" on \(record.className) \(record.id): \(error)")
    }
  }

  private func involvesMissingOwner(_ connection: ConnectionRecord) -> Bool {
    guard owner == nil else { return false }
    let ends = [connection.source] + (connection.destination.map { [$0] } ?? [])
    return ends.contains { table.objects[$0].placeholder == .filesOwner }
  }

  /// A connection failure: an error, or a warning when an end fell back from an unknown class (NIB-020).
  private func connectionFailure(_ connection: ConnectionRecord, _ message: String) throws {
    let ends = [connection.source] + (connection.destination.map { [$0] } ?? [])
    if ends.contains(where: { fellBack.contains($0) }) {
      warn(message)
      return
    }
    throw ArchiveError(.connectionFailed, message, at: connection.location)
  }

  private func skipForMissingOwner(_ connection: ConnectionRecord) throws -> Bool {
    guard involvesMissingOwner(connection) else { return false }
    if options.missingOwnerPolicy == .skipConnections { return true }
    throw ArchiveError(
      .connectionFailed,
      "the nib connects \(connection.kind.rawValue) \"\(connection.label)\" to File's Owner, but no owner was passed",
      at: connection.location)
  }

  private func connectOutlet(_ connection: ConnectionRecord) throws {
    if try skipForMissingOwner(connection) { return }
    let sourceRecord = table.objects[connection.source]
    guard let source = try instantiate(connection.source, key: nil) else {
      return try connectionFailure(connection, "outlet \"\(connection.label)\": the source \(sourceRecord.id) is nil")
    }
    let destination = try connection.destination.flatMap { try instantiate($0, key: nil) }
    guard let target = source as? any KeyValueCoding else {
      return try connectionFailure(
        connection, "outlet \"\(connection.label)\": \(type(of: source)) (\(sourceRecord.id)) has no key-value coding")
    }
    let destinationID = connection.destination.map(id) ?? "nil"
    do {
      if connection.kind == .outletCollection {
        var members = (KeyValueConversion.unwrap(try target.value(forKey: connection.label)) as? [Any]) ?? []
        if let destination { members.append(destination) }
        try target.setValue(members, forKey: connection.label)
        statistics.outletCollections += 1
        options.trace?(.collection(source: sourceRecord.id, key: connection.label, destination: destinationID))
      } else {
        try target.setValue(destination, forKey: connection.label)
        statistics.outlets += 1
        options.trace?(.outlet(source: sourceRecord.id, key: connection.label, destination: destinationID))
      }
    } catch let error as ArchiveError {
      try connectionFailure(connection, "outlet \"\(connection.label)\" of \(sourceRecord.id): \(error.message)")
    }
  }

  private func connectAction(_ connection: ConnectionRecord) throws {
    if try skipForMissingOwner(connection) { return }
    let sourceRecord = table.objects[connection.source]
    guard let control = try instantiate(connection.source, key: nil) as? any ActionSending else {
      return try connectionFailure(
        connection,
        "action \"\(connection.label)\": \(sourceRecord.className) (\(sourceRecord.id)) does not send actions")
    }
    let target = try connection.destination.flatMap { try instantiate($0, key: nil) }
    if let target {
      guard let responder = target as? any ActionResponding, responder.responds(toAction: connection.label) else {
        return try connectionFailure(
          connection, "action \"\(connection.label)\": the target \(type(of: target)) has no such action")
      }
    }
    control.addTarget(target, action: connection.label, for: connection.eventMask)
    statistics.actions += 1
    options.trace?(
      .action(
        source: sourceRecord.id, action: connection.label, target: connection.destination.map(id),
        event: connection.eventName))
  }

  private func connectSegue(_ connection: ConnectionRecord) throws {
    let sourceRecord = table.objects[connection.source]
    let source = try instantiate(connection.source, key: nil)
    let destination = try connection.destination.flatMap { try instantiate($0, key: nil) }
    if let segueSource = source as? any SegueSource {
      segueSource.addSegue(
        identifier: connection.label.isEmpty ? nil : connection.label, kind: connection.eventName ?? "show",
        destination: destination)
    } else {
      warn("segue from \(sourceRecord.id): \(sourceRecord.className) cannot record segues")
    }
    statistics.segues += 1
    options.trace?(
      .segue(
        source: sourceRecord.id, identifier: connection.label.isEmpty ? nil : connection.label,
        destination: connection.destination.map(id) ?? "nil"))
  }

  // MARK: DecodingCoder

  /// The current object's field, read in place (copying the record would retain and release all its fields).
  private func field(_ key: String) -> FieldValue? {
    guard let index = frames.last?.index else { return nil }
    return table.objects.withUnsafeBufferPointer { objects in
      for field in objects[index].fields where field.key == key { return field.value }
      return nil
    }
  }

  func containsValue(forKey key: String) -> Bool {
    guard let index = frames.last?.index else { return false }
    return table.objects.withUnsafeBufferPointer { objects in objects[index].fields.contains { $0.key == key } }
  }

  func decodeValue(forKey key: String) throws -> CodedValue? {
    guard let value = field(key) else { return nil }
    switch value {
    case .null: return nil
    case .bool(let v): return .bool(v)
    case .integer(let v): return .integer(v)
    case .real(let v): return .double(v)
    case .string(let v): return .string(v)
    case .data(let v): return .bytes(v)
    case .object, .array, .point, .size, .rect, .record:
      throw ArchiveError(
        .typeMismatch, "expected a primitive value, found \(Self.describe(value))", at: locationFor(key))
    }
  }

  func decodeObject(forKey key: String, allowedClasses: Set<String>?) throws -> Any? {
    guard let value = field(key) else { return nil }
    do {
      return try self.value(of: value, key: key)
    } catch let error as ArchiveError {
      throw error.located(in: locationFor(key))
    }
  }

  func decodeDeferred(
    forKey key: String, allowedClasses: Set<String>?, assign: @escaping (AnyObject, Any?) throws -> Void
  ) throws {
    guard let frame = frames.last, let value = field(key) else { return }
    links.append(Link(owner: nil, ownerIndex: frame.index, value: value, key: key, assign: assign))
  }

  func failWithError(_ error: any Error) {
    if self.error == nil { self.error = error }
  }

  private func locationFor(_ key: String) -> ArchiveError.Location {
    var location = current?.location ?? .init()
    location.className = current?.className
    location.keyPath = key
    return location
  }

  /// A field value as a Swift value: objects are instantiated, collections map element by element.
  func value(of field: FieldValue, key: String) throws -> Any? {
    switch field {
    case .null: return nil
    case .bool(let v): return v
    case .integer(let v): return Int(v)
    case .real(let v): return v
    case .string(let v): return v
    case .data(let v): return v
    case .object(let index): return try instantiate(index, key: key)
    case .array(let elements): return try elements.compactMap { try value(of: $0, key: key) }
    case .point(let x, let y): return ArchivedValue.point(x: x, y: y)
    case .size(let w, let h): return ArchivedValue.size(width: w, height: h)
    case .rect(let x, let y, let w, let h): return ArchivedValue.rect(x: x, y: y, width: w, height: h)
    case .record(let name, let fields): return NibRecord(name: name, fields: fields)
    }
  }

  static func describe(_ value: FieldValue) -> String {
    switch value {
    case .object: "an object reference"
    case .array: "a collection"
    case .point, .size, .rect: "a geometry value"
    case .record(let name, _): "a <\(name)> value"
    default: "a primitive"
    }
  }
}

/// A structured value of a document that is not an object: `<color>`, `<fontDescription>`, `<state>`,
/// `<autoresizingMask>`, `<inset>`. Interface classes read it in `init(coder:)`.
public struct NibRecord: Sendable, Hashable {
  /// The element name (`"color"`).
  public let name: String
  /// Its fields (attributes and keyed children).
  public let fields: [ObjectField]

  /// Creates a record.
  public init(name: String, fields: [ObjectField]) {
    self.name = name
    self.fields = fields
  }

  /// A field's value.
  public subscript(key: String) -> FieldValue? { fields.first { $0.key == key }?.value }

  /// A field as a string.
  public func string(_ key: String) -> String? {
    if case .string(let v)? = self[key] { return v }
    return nil
  }

  /// A field as a number (`"0.5"`, `0.5`, `3`).
  public func number(_ key: String) -> Double? {
    switch self[key] {
    case .string(let v)?: Double(v)
    case .real(let v)?: v
    case .integer(let v)?: Double(v)
    default: nil
    }
  }

  /// A field as a boolean (`"YES"`, `true`).
  public func bool(_ key: String) -> Bool? {
    switch self[key] {
    case .string(let v)?: v == "YES" || v == "true" || v == "1"
    case .bool(let v)?: v
    case .integer(let v)?: v != 0
    default: nil
    }
  }
}
