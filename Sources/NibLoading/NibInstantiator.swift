import ArchiveCoding
import ArchiveSupport
import Foundation
import KeyedArchive
import Synchronization

/// The result of one instantiation: a fresh object graph.
public struct NibInstance {
  /// The top-level objects, placeholders excluded, in document order.
  public let topLevelObjects: [AnyObject]
  /// What was done.
  public let statistics: NibStatistics
  /// Warnings (unknown classes, runtime attributes that could not be set).
  public let warnings: [String]
  private let plan: NibPlan
  private let created: [Int]
  private let instances: [AnyObject?]
  /// The plain-field results kept by the plan's earlier instantiations when this one started (NIB-300).
  private let keptPlainFields: [KeptPlainFields?]

  init(
    topLevelObjects: [AnyObject], statistics: NibStatistics, warnings: [String], plan: NibPlan, created: [Int],
    instances: [AnyObject?], keptPlainFields: [KeptPlainFields?]
  ) {
    self.topLevelObjects = topLevelObjects
    self.statistics = statistics
    self.warnings = warnings
    self.plan = plan
    self.created = created
    self.instances = instances
    self.keptPlainFields = keptPlainFields
  }

  /// How many plain-field results earlier instantiations of the nib had kept for the objects this one created, which
  /// their initialisers took instead of reading the fields again (NIB-300).
  package var plainFieldsTaken: Int {
    guard !keptPlainFields.isEmpty else { return 0 }
    return created.reduce(0) { $0 + (keptPlainFields[$1]?.count ?? 0) }
  }

  /// Every created object by its document id (built when asked for: loading a nib does not need it).
  public var objectsByID: [String: AnyObject] {
    var byID: [String: AnyObject] = [:]
    byID.reserveCapacity(created.count)
    for index in created { if let object = instances[index] { byID[plan.objects[index].id] = object } }
    return byID
  }
}

/// Runs the pipeline over a prepared ``NibPlan``: decode every object through `init(coder:)`, link deferred
/// references, apply runtime attributes and outlets (through key-value coding, so observers see them), then
/// actions, then send `awakeFromNib()` to every created object and to no placeholder (NIB-001…NIB-006).
///
/// Each object's initialiser sees a ``NibObjectCoder`` over its fields, whatever format the table was built from.
/// Only what depends on the instance happens here; class resolution, field indexes and the connection lists come
/// from the plan.
final class NibInstantiator {
  let plan: NibPlan
  let owner: AnyObject?
  let options: NibOptions
  let registry: ClassRegistry
  /// Whether this instantiation keeps or takes the objects' plain-field results (NIB-300): the plan's second and
  /// later ones do.
  private let keepsPlainFields: Bool
  /// The plain-field results kept when this instantiation started, by object index, when it keeps or takes them:
  /// held for the run, so that each object's coder reads them without holding them.
  let keptPlainFields: [KeptPlainFields?]

  private enum State { case notStarted, inProgress, done }
  /// How deeply objects may nest through `init(coder:)` (a view hierarchy is rarely deeper than a few dozen).
  static let maxDepth = 1000
  private struct Link {
    /// What to set: a value through `Any`, or an object unboxed (no `FieldValue` box is made for it).
    enum Target {
      case value(FieldValue, (AnyObject, Any?) throws -> Void)
      /// An object of the table, handed over unboxed.
      case object(Int, (AnyObject, AnyObject?) throws -> Void)
    }
    /// The object whose initialiser asked for the link; the link applies to the instance that initialiser
    /// returned (``instances``), and to nothing when it threw (``isLive``).
    var ownerIndex: Int
    var key: String
    var target: Target
    /// `false` once the owner's initialiser threw: its instance never existed.
    var isLive = true
  }
  /// What the run has done so far, read and written by every object's decoding.
  private struct Progress {
    var states: [State]
    var instances: [AnyObject?]
    var created: [Int] = []
    /// Objects decoded as a stand-in for a class that is not registered (NIB-020).
    var fellBack: Set<Int> = []
    /// How many objects are inside their `init(coder:)` now.
    var depth = 0
    /// Stops nesting before the current thread's stack runs out.
    var stackGuard = StackGuard()
    var links: [Link] = []
    /// A coder per nesting depth, handed from one object to the next (``coder(for:)``); emptied when the run
    /// ends, since each holds this instantiator.
    var coders: [NibObjectCoder] = []
    var statistics = NibStatistics()
  }
  // Unchecked: private to this final class, and every access to it is a read or an in-place edit of one of its
  // fields that calls out to nothing that could reach it again (initialisers run between accesses, never inside
  // one).
  @exclusivity(unchecked) private var progress: Progress
  /// The last action target (held, so that its identity is not reused while it is compared with)
  /// (``verdict(of:onAction:from:)``).
  private var lastActionTarget: AnyObject?
  /// What ``lastActionTarget`` is as a responder, or `nil` when it is none.
  private var lastActionResponder: (any ActionResponding)?
  /// The last action ``lastActionTarget`` was asked about, the class of the sender it was asked for, and the answer.
  private var lastAction: (name: String, sender: ObjectIdentifier, verdict: ActionVerdict)?

  /// Whether a target takes an action from a sender.
  private enum ActionVerdict {
    case accepted
    /// The target has no such action.
    case missing
    /// The target has the action, but not from this sender (NIB-341), or declares it wrongly (NIB-342).
    case refused(String)
  }
  private var application: GenericNibObject?
  private var standIns: [String: GenericNibObject] = [:]
  private var warnings: [String] = []
  /// Whether the warning that the registry lacks the interface catalog was given (once per instantiation).
  private var catalogWarned = false

  private(set) var error: (any Error)?

  init(plan: NibPlan, owner: AnyObject?, options: NibOptions, registry: ClassRegistry) {
    self.plan = plan
    self.owner = owner
    self.options = options
    self.registry = registry
    keepsPlainFields = plan.instantiations.wrappingAdd(1, ordering: .relaxed).oldValue > 0
    keptPlainFields = keepsPlainFields ? plan.keptPlainFields() : []
    progress = Progress(
      states: Array(repeating: .notStarted, count: plan.objects.count),
      instances: Array(repeating: nil, count: plan.objects.count))
    progress.created.reserveCapacity(plan.decodeOrder.count)
    progress.links.reserveCapacity(plan.referenceFieldCount)
  }

  private func warn(_ message: String) {
    warnings.append(message)
    options.warning?(message)
  }

  private func id(_ index: Int) -> String { plan.objects[index].id }

  /// An action's target by its class, with the placeholder's name when it is one ("File's Owner (Card)").
  private func describeTarget(_ target: AnyObject, _ index: Int?) -> String {
    switch index.flatMap({ plan.objects[$0].placeholder }) {
    case .filesOwner: "File's Owner (\(type(of: target)))"
    default: "\(type(of: target))"
    }
  }

  /// An object as people know it: "File's Owner" and "First Responder" for those placeholders, else its class and
  /// document id (`NSImageView (12)`).
  private func describe(_ index: Int) -> String {
    let object = plan.objects[index]
    switch object.placeholder {
    case .filesOwner: return "File's Owner"
    case .firstResponder: return "First Responder"
    default: return "\(object.className) (\(object.id))"
    }
  }

  func failWithError(_ error: any Error) {
    if self.error == nil { self.error = error }
  }

  // MARK: The pipeline

  func run() throws -> NibInstance {
    defer { progress.coders.removeAll() }
    progress.statistics.placeholders = plan.placeholderCount
    // 1. Decode: every object, in document order; references pull objects in earlier.
    // (Most are decoded already, as references of those before them: those are skipped without asking for them.)
    for index in plan.decodeOrder where progress.states[index] != .done { _ = try instantiate(index, key: nil) }
    if let error { throw error }
    // 2. Link: deferred references (back pointers, cycles).
    try runLinks()
    // 3. Runtime attributes and outlets, through key-value coding.
    for attribute in plan.table.runtimeAttributes { applyRuntimeAttribute(attribute) }
    for connection in plan.outlets { try connectOutlet(connection) }
    // 4. Actions, then segues.
    for connection in plan.actions { try connectAction(connection) }
    for connection in plan.segues { try connectSegue(connection) }
    // 5. Awake: every created object, never a placeholder.
    let trace = options.trace
    // The instances are read from a local copy of the list, which no `awakeFromNib()` can change, and only the
    // class of each plan object: neither is held a second time for the call.
    let instances = progress.instances
    for index in progress.created {
      guard let instance = instances[index] else { continue }
      if let awakingType = plan.objects[index].awakingType {
        NibPlan.Object.awake(instance, awakingType)
      } else if plan.objects[index].type == nil, let awaking = instance as? any NibAwaking {
        awaking.awakeFromNib()
      } else {
        continue
      }
      progress.statistics.awakened += 1
      trace?(.awake(id: plan.objects[index].id))
    }
    var topLevel: [AnyObject] = []
    topLevel.reserveCapacity(plan.topLevel.count)
    for index in plan.topLevel {
      if let object = progress.instances[index] { topLevel.append(object) }
    }
    progress.statistics.topLevel = topLevel.count
    return NibInstance(
      topLevelObjects: topLevel, statistics: progress.statistics,
      warnings: warnings.isEmpty ? plan.table.warnings : plan.table.warnings + warnings, plan: plan,
      created: progress.created, instances: progress.instances, keptPlainFields: keptPlainFields)
  }

  /// The object at an index: a placeholder's stand-in, or the object decoded (once) through `init(coder:)`.
  func instantiate(_ index: Int, key: String?) throws -> AnyObject? {
    // An object decoded already (the link and connection phases ask for most objects again). Placeholders are
    // never marked done.
    if progress.states[index] == .done { return progress.instances[index] }
    // The plan's object is read where it is needed rather than held across the initialiser, which would count a
    // reference to it for every object decoded.
    if plan.objects[index].isPlaceholder, let placeholder = plan.objects[index].placeholder {
      return try resolve(placeholder, object: plan.objects[index])
    }
    switch progress.states[index] {
    case .done: return progress.instances[index]
    case .inProgress:
      let object = plan.objects[index]
      throw ArchiveError(
        .referenceCycle,
        "reference cycle: object \(object.id) (\(object.className)) is still being decoded when \(key.map { "the key \"\($0)\"" } ?? "a reference") refers back to it; decode back references with decodeReference(forKey:into:)",
        at: object.location)
    case .notStarted: break
    }
    // Nesting stops at the depth limit or when the thread's stack runs low (measured per top-level decode).
    if progress.depth == 0 { progress.stackGuard = StackGuard() }
    guard progress.depth < Self.maxDepth, progress.stackGuard.hasRoom() else {
      throw ArchiveError(
        .limitExceeded,
        "objects nest deeper than the limit of \(Self.maxDepth) or than this thread's stack allows; "
          + "decode long chains with decodeReference(forKey:into:)",
        at: plan.objects[index].location)
    }
    let type = plan.objects[index].type ?? resolveUnregisteredClass(plan.objects[index])
    progress.states[index] = .inProgress
    let linkStart = progress.links.count
    let instance: AnyObject
    progress.depth += 1
    defer { progress.depth -= 1 }
    do {
      // The coder is handed over to the initialiser, which takes its argument as its own; it is read back from
      // ``Progress/coders`` only when it kept plain-field results to publish (the second instantiations).
      instance = try type.init(coder: coder(for: index))
      if keepsPlainFields, keptPlainFields[index] == nil, progress.depth <= progress.coders.count {
        progress.coders[progress.depth - 1].publishPlainFields()
      }
    } catch let error as ArchiveError {
      progress.states[index] = .notStarted
      // The links the failed initialiser asked for have no owner (those of objects it decoded keep theirs).
      for i in linkStart..<progress.links.count where progress.links[i].ownerIndex == index {
        progress.links[i].isLive = false
      }
      let object = plan.objects[index]
      var location = object.location
      location.className = location.className ?? object.className
      throw error.located(in: location)
    }
    if plan.objects[index].type == nil, progress.fellBack.contains(index) {
      (instance as? any UnknownClassAdopting)?.adoptUnknownClass(plan.objects[index].className)
    }
    progress.states[index] = .done
    // The instance is moved into the list and read back from there: returning it beside the store would hold it
    // once more and then release the initialiser's reference.
    progress.instances[index] = consume instance
    progress.created.append(index)
    progress.statistics.objects += 1
    if let trace = options.trace {
      let object = plan.objects[index]
      trace(.decode(id: object.id, className: object.className))
    }
    return progress.instances[index]
  }

  /// A coder for the object at `index` at the current depth: the one the previous object at this depth used, unless
  /// its initialiser kept a reference to it (an object may keep its coder; it then keeps it to itself).
  private func coder(for index: Int) -> NibObjectCoder {
    let level = progress.depth - 1
    if level < progress.coders.count {
      if isKnownUniquelyReferenced(&progress.coders[level]) {
        // Read out once: a method called on the array's element would hold it a second time.
        let coder = progress.coders[level]
        coder.reuse(for: index)
        return coder
      }
      let coder = NibObjectCoder(instantiator: self, object: plan.objects[index], keepsPlainFields: keepsPlainFields)
      progress.coders[level] = coder
      return coder
    }
    let coder = NibObjectCoder(instantiator: self, object: plan.objects[index], keepsPlainFields: keepsPlainFields)
    if level == progress.coders.count { progress.coders.append(coder) }
    return coder
  }

  private func resolve(_ placeholder: Placeholder, object: NibPlan.Object) throws -> AnyObject? {
    switch placeholder {
    case .filesOwner: return owner
    case .firstResponder: return nil
    case .other(let name):
      // An object the options supply under the placeholder's name (a scene's view nib's upstream objects, NIB-311);
      // else storyboard exits and objects of other scenes: a generic stand-in that takes their connections.
      if let supplied = options.externalObjects[name] { return supplied }
      if let standIn = standIns[name] { return standIn }
      let standIn = GenericNibObject(className: object.className)
      standIns[name] = standIn
      return standIn
    case .application:
      if let shared = options.externalObjects["NSApplication"] ?? options.externalObjects["UIApplication"] {
        return shared
      }
      // The shared application stands in as a generic object that accepts its outlets (delegate, menus).
      if application == nil { application = GenericNibObject(className: object.className) }
      return application
    case .external(let identifier):
      guard let object = options.externalObjects[identifier] else {
        throw ArchiveError(
          .connectionFailed, "the nib needs the external object \"\(identifier)\", but the options do not supply it",
          at: object.location)
      }
      return object
    }
  }

  /// A class the plan could not resolve: the registered class (registered since), else the element's base class
  /// (with a warning), else a generic stand-in.
  private func resolveUnregisteredClass(_ object: NibPlan.Object) -> any Coding.Type {
    if let type = registry.type(forClassName: object.className) { return type }
    progress.fellBack.insert(object.index)
    if object.baseClassName != object.className, let base = registry.type(forClassName: object.baseClassName) {
      warn("unknown class \(object.className) for object \(object.id): using \(object.baseClassName)")
      return base
    }
    if !catalogWarned, registry.type(forClassName: "UIView") == nil, registry.type(forClassName: "NSView") == nil {
      catalogWarned = true
      warn(
        "the class registry has no interface classes (UIView, NSView): every object of the nib is a generic object; "
          + "call InterfaceCatalog.register() before loading")
    }
    let message = "unknown class \(object.className) for object \(object.id): using a generic object"
    if catalogWarned {
      // Without the catalog every object falls back: the one warning above says so, and the list keeps each.
      warnings.append(message)
    } else {
      warn(message)
    }
    return GenericNibObject.self
  }

  // MARK: Link phase

  /// Records a reference to decode in the link phase, for the object at `index`.
  func `defer`(_ value: FieldValue, key: String, of index: Int, assign: @escaping (AnyObject, Any?) throws -> Void) {
    progress.links.append(Link(ownerIndex: index, key: key, target: .value(value, assign)))
  }

  /// Records a reference to the object at `target` to set in the link phase, for the object at `index`.
  func `defer`(
    _ target: Int, key: String, of index: Int, objectAssign: @escaping (AnyObject, AnyObject?) throws -> Void
  ) {
    progress.links.append(Link(ownerIndex: index, key: key, target: .object(target, objectAssign)))
  }

  private func runLinks() throws {
    // Links asked for during this phase (by an object first decoded here) run after the batch before them.
    while !progress.links.isEmpty {
      var batch: [Link] = []
      swap(&batch, &progress.links)
      try batch.withUnsafeBufferPointer { batch in
        for i in batch.indices {
          guard batch[i].isLive, let owner = progress.instances[batch[i].ownerIndex] else { continue }
          do {
            switch batch[i].target {
            case .object(let index, let assign):
              try assign(owner, try instantiate(index, key: batch[i].key))
            case .value(let value, let assign):
              try assign(owner, try self.value(of: value, key: batch[i].key))
            }
          } catch let error as ArchiveError {
            throw linkFailure(error, owner: batch[i].ownerIndex, key: batch[i].key)
          }
        }
      }
    }
  }

  /// A link's error, located at its owner's element and key (an error located already keeps its place).
  private func linkFailure(_ error: ArchiveError, owner: Int, key: String) -> ArchiveError {
    let object = plan.objects[owner]
    return error.located(
      in: ArchiveError.Location(
        file: object.location.file, line: object.location.line, column: object.location.column,
        className: object.className, keyPath: key))
  }

  // MARK: Connections

  private func applyRuntimeAttribute(_ attribute: RuntimeAttributeRecord) {
    let record = plan.objects[attribute.object]
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

  /// A connection failure: an error, or a warning when an end fell back from an unknown class (NIB-020).
  private func connectionFailure(_ connection: NibPlan.Connection, _ message: String) throws {
    if !progress.fellBack.isEmpty,
      progress.fellBack.contains(connection.source) || connection.destination.map(progress.fellBack.contains) == true
    {
      warn(message)
      return
    }
    throw ArchiveError(.connectionFailed, message, at: connection.location)
  }

  private func skipForMissingOwner(_ connection: NibPlan.Connection) throws -> Bool {
    guard owner == nil, connection.touchesFilesOwner else { return false }
    if options.missingOwnerPolicy == .skipConnections { return true }
    throw ArchiveError(
      .connectionFailed,
      "the nib connects \(connection.kind.rawValue) \"\(connection.label)\" to File's Owner, but no owner was passed",
      at: connection.location)
  }

  private func connectOutlet(_ connection: NibPlan.Connection) throws {
    if try skipForMissingOwner(connection) { return }
    let sourceID = id(connection.source)
    guard let source = try instantiate(connection.source, key: nil) else {
      return try connectionFailure(
        connection, "outlet \"\(connection.label)\": the source \(describe(connection.source)) is nil")
    }
    let destination = try connection.destination.flatMap { try instantiate($0, key: nil) }
    guard let target = source as? any KeyValueCoding else {
      return try connectionFailure(
        connection, "outlet \"\(connection.label)\": \(type(of: source)) (\(sourceID)) has no key-value coding")
    }
    do {
      if connection.kind == .outletCollection {
        var members = (KeyValueConversion.unwrap(try target.value(forKey: connection.label)) as? [Any]) ?? []
        // Each member sets the whole array (NIB-002), so a collection of n members costs time quadratic in n.
        guard members.count < options.maxOutletCollectionCount else {
          throw ArchiveError(
            .limitExceeded,
            "outlet collection \"\(connection.label)\" of \(sourceID) would have more than "
              + "\(options.maxOutletCollectionCount) members (NibOptions.maxOutletCollectionCount)",
            at: connection.location)
        }
        if let destination { members.append(destination) }
        try target.setValue(members, forKey: connection.label)
        progress.statistics.outletCollections += 1
        options.trace?(
          .collection(source: sourceID, key: connection.label, destination: connection.destination.map(id) ?? "nil"))
      } else {
        try target.setValue(destination, forKey: connection.label)
        progress.statistics.outlets += 1
        options.trace?(
          .outlet(source: sourceID, key: connection.label, destination: connection.destination.map(id) ?? "nil"))
      }
    } catch let error as ArchiveError {
      if error.code == .limitExceeded { throw error }
      try connectionFailure(
        connection, "outlet \"\(connection.label)\" of \(describe(connection.source)): \(error.message)")
    }
  }

  private func connectAction(_ connection: NibPlan.Connection) throws {
    if try skipForMissingOwner(connection) { return }
    guard let instance = try instantiate(connection.source, key: nil) else {
      return try connectionFailure(
        connection, "action \"\(connection.label)\": the source \(describe(connection.source)) is nil")
    }
    // The File's Owner (most actions' target) is handed on as the instantiator holds it, with no reference of the
    // call's own: the owner is held weakly by its controls, so each of its references goes through its side table.
    if connection.targetsFilesOwner {
      try connectAction(connection, source: instance, target: owner)
    } else {
      try connectAction(
        connection, source: instance, target: try connection.destination.flatMap { try instantiate($0, key: nil) })
    }
  }

  /// Connects an action from `instance`, the connection's source, to `target`.
  private func connectAction(_ connection: NibPlan.Connection, source instance: AnyObject, target: AnyObject?) throws {
    let source = plan.objects[connection.source]
    if let target {
      switch verdict(of: target, onAction: connection.label, from: instance) {
      case .accepted: break
      case .missing:
        return try connectionFailure(
          connection,
          "action \"\(connection.label)\": the target \(describeTarget(target, connection.destination)) has no such action"
        )
      case .refused(let reason):
        return try connectionFailure(
          connection, "action \"\(connection.label)\" from \(describe(connection.source)): \(reason)")
      }
    }
    // Every object that takes a target and an action is a sender, as Apple's loaders connect them (NIB-090); an
    // object standing in for an unknown class keeps the action instead (NIB-091).
    if let control = source.asActionSender(instance) {
      control.addTarget(target, action: connection.label, for: connection.eventMask)
    } else if let adopting = instance as? any UnknownClassAdopting,
      adopting.keepAction(target, action: connection.label, for: connection.eventMask)
    {
      // Kept by the stand-in.
    } else {
      return try connectionFailure(
        connection,
        "action \"\(connection.label)\": \(describe(connection.source)) takes no target and action")
    }
    progress.statistics.actions += 1
    options.trace?(
      .action(
        source: id(connection.source), action: connection.label, target: connection.destination.map(id),
        event: connection.eventName))
  }

  /// Whether `target` is an ``ActionResponding`` that takes `action` from `sender`. What the target is as a
  /// responder is remembered for the last target (a nib's actions mostly go to one object, the File's Owner), and it
  /// is asked in place: copying the pair out retained and released the target twice an action, each through its side
  /// table once a control holds it weakly. The answer for the last action and sender class is remembered too, so that
  /// controls of one class that send one action to one target (a cell's buttons) ask once per instantiation.
  private func verdict(of target: AnyObject, onAction action: String, from sender: AnyObject) -> ActionVerdict {
    let senderClass = ObjectIdentifier(type(of: sender))
    if lastActionTarget !== target {
      lastActionResponder = target as? any ActionResponding
      lastActionTarget = target
      lastAction = nil
    } else if let lastAction, lastAction.sender == senderClass, lastAction.name == action {
      return lastAction.verdict
    }
    let verdict: ActionVerdict
    if let responder = lastActionResponder, responder.responds(toAction: action) {
      verdict = responder.refusal(ofAction: action, from: sender).map(ActionVerdict.refused) ?? .accepted
    } else {
      verdict = .missing
    }
    lastAction = (action, senderClass, verdict)
    return verdict
  }

  private func connectSegue(_ connection: NibPlan.Connection) throws {
    let source = try instantiate(connection.source, key: nil)
    let destination = try connection.destination.flatMap { try instantiate($0, key: nil) }
    if let segueSource = source as? any SegueSource {
      let template = SegueTemplate(
        identifier: connection.label.isEmpty ? nil : connection.label, kind: connection.eventName ?? "show",
        unwindAction: connection.unwindAction, id: connection.id,
        destinationIdentifier: connection.destinationIdentifier)
      segueSource.addSegue(template, destination: template.isUnwind ? nil : destination)
    } else {
      let record = plan.objects[connection.source]
      warn("segue from \(record.id): \(record.className) cannot record segues")
    }
    progress.statistics.segues += 1
    options.trace?(
      .segue(
        source: id(connection.source), identifier: connection.label.isEmpty ? nil : connection.label,
        destination: connection.destination.map(id) ?? "nil"))
  }

  // MARK: Values

  /// A field value as a Swift value: objects are instantiated, collections map element by element.
  func value(of field: FieldValue, key: String) throws -> Any? {
    if case .object(let index) = field { return try instantiate(index, key: key) }
    return try field.nibValue { try instantiate($0, key: key) }
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
