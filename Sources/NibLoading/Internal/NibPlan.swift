import ArchiveCoding
import Synchronization

/// What instantiating an ``ObjectTable`` needs that does not depend on the instance, worked out once per parsed
/// nib and shared by every instantiation: each object's class (resolved in the registry), its fields prepared for
/// lookup, the decode order, and the connections sorted by phase with the File's Owner ends marked.
///
/// Immutable once built, so concurrent instantiations share it. A class that is not registered when the plan is
/// built is resolved again on every instantiation (it may be registered later; the fallback warns each time).
final class NibPlan: @unchecked Sendable {
  /// One object of the table.
  final class Object: @unchecked Sendable {
    let index: Int
    let id: String
    let className: String
    let baseClassName: String
    let placeholder: Placeholder?
    /// `placeholder != nil`, tested without copying the placeholder.
    let isPlaceholder: Bool
    let location: ArchiveError.Location
    let fields: FieldIndex
    /// The registered class for ``className``, or `nil` when it must be resolved on each instantiation.
    let type: (any Coding.Type)?
    /// ``type`` as a class that takes `awakeFromNib()`; `nil` when it does not (or is not resolved), so that the
    /// awake phase looks up no conformance per object (``awake(_:_:)``).
    let awakingType: (any NibAwaking.Type)?
    /// ``type`` as a class that sends actions; `nil` when it sends none or is not resolved
    /// (``asActionSender(_:)``).
    private let sendingType: (any ActionSending.Type)?

    init(index: Int, record: ObjectRecord, resolved: Resolved?, indexByID: [String: Int]) {
      self.index = index
      id = record.id
      className = record.className
      baseClassName = record.baseClassName
      placeholder = record.placeholder
      isPlaceholder = record.placeholder != nil
      location = record.location
      fields = FieldIndex(record.fields, indexByID: indexByID)
      type = resolved?.type
      awakingType = resolved?.awakingType
      sendingType = resolved?.sendingType
    }

    /// `instance as? any ActionSending`, for an instance of this object.
    func asActionSender(_ instance: AnyObject) -> (any ActionSending)? {
      if let sendingType { return Self.asActionSender(instance, sendingType) }
      return instance as? any ActionSending
    }

    /// A class name's registered class and awakener.
    struct Resolved {
      let type: any Coding.Type
      let awakingType: (any NibAwaking.Type)?
      let sendingType: (any ActionSending.Type)?

      init(_ type: any Coding.Type) {
        self.type = type
        awakingType = type as? any NibAwaking.Type
        sendingType = type as? any ActionSending.Type
      }
    }

    private static func asActionSender<T: ActionSending>(_ object: AnyObject, _ type: T.Type) -> (any ActionSending)? {
      // An instance of exactly `T` (what `T.init(coder:)` makes) needs no conformance lookup.
      if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self) {
        return unsafeDowncast(object, to: T.self)
      }
      return object as? any ActionSending
    }

    /// Sends `awakeFromNib()` to an instance of a class that takes it (an object's ``awakingType``).
    ///
    /// The class is kept as a metatype rather than a closure that captures it: calling a stored closure retains
    /// and releases its context each time, opening the metatype does not.
    static func awake<T: NibAwaking>(_ object: AnyObject, _ type: T.Type) {
      // The instantiator hands this only instances that `type.init(coder:)` made, which are `T`s (a required
      // initialiser returns an instance of the class it is called on): an exact class test then needs no dynamic
      // cast; anything else takes the checked cast.
      if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self) {
        unsafeDowncast(object, to: T.self).awakeFromNib()
      } else {
        (object as? T)?.awakeFromNib()
      }
    }
  }

  /// One connection of the table.
  final class Connection: Sendable {
    let kind: ConnectionRecord.Kind
    let source: Int
    let destination: Int?
    let label: String
    let eventMask: UInt64?
    let eventName: String?
    let location: ArchiveError.Location
    /// The connection's document id (a segue's, which finds its destination when it has no identifier).
    let id: String?
    /// An unwind segue's action.
    let unwindAction: String?
    /// A segue's destination scene, when a compiled scene keeps it.
    let destinationIdentifier: String?
    /// The source or the destination is File's Owner.
    let touchesFilesOwner: Bool
    /// The destination is File's Owner.
    let targetsFilesOwner: Bool

    init(_ record: ConnectionRecord, objects: [ObjectRecord]) {
      kind = record.kind
      source = record.source
      destination = record.destination
      label = record.label
      eventMask = record.eventMask
      eventName = record.eventName
      location = record.location
      id = record.id
      unwindAction = record.unwindAction
      destinationIdentifier = record.destinationIdentifier
      func isFilesOwner(_ index: Int) -> Bool {
        objects.indices.contains(index) && objects[index].placeholder == .filesOwner
      }
      targetsFilesOwner = record.destination.map(isFilesOwner) ?? false
      touchesFilesOwner = isFilesOwner(record.source) || targetsFilesOwner
    }
  }

  let table: ObjectTable
  let objects: [Object]
  /// The objects to decode, in document order (placeholders excluded).
  let decodeOrder: [Int]
  /// The top-level objects to return, in document order (placeholders excluded).
  let topLevel: [Int]
  let placeholderCount: Int
  /// The index of each document id (the first object with it).
  let indexByID: [String: Int]
  /// How many fields refer to an object (a reference, or text naming an object): about as many links as an
  /// instantiation defers, so that its list of links is allocated once.
  let referenceFieldCount: Int
  /// Outlets and outlet collections, then actions, then segues, each in document order.
  let outlets: [Connection]
  let actions: [Connection]
  let segues: [Connection]
  /// How many instantiations have started: the second and later ones keep each object's plain-field results (the
  /// first may be the only one, as when a file is loaded to be instantiated once), and take them once kept.
  let instantiations = Atomic<Int>(0)
  /// What each object's initialisers made of its plain fields, once an instantiation has kept it (NIB-300): each
  /// set once, by the first instantiation that finishes the object, and read by the later ones, on whatever thread
  /// they run, all at once when they start.
  private let plainFields: Mutex<[KeptPlainFields?]>

  /// The kept plain-field results, by object index (`nil`: none kept yet).
  func keptPlainFields() -> [KeptPlainFields?] { plainFields.withLock { $0 } }

  /// Keeps `results` for the object at `index`, unless another instantiation kept its own first.
  func keep(_ results: KeptPlainFields, forObjectAt index: Int) {
    plainFields.withLock { kept in
      if kept[index] == nil { kept[index] = results }
    }
  }

  init(table: ObjectTable, registry: ClassRegistry) {
    self.table = table
    var indexByID: [String: Int] = [:]
    for (index, record) in table.objects.enumerated() where indexByID[record.id] == nil { indexByID[record.id] = index }
    self.indexByID = indexByID
    // Each class name is looked up once (a nib has many objects of few classes).
    var resolved: [String: Object.Resolved?] = [:]
    objects = table.objects.indices.map { index in
      let record = table.objects[index]
      var resolution: Object.Resolved?
      if record.placeholder == nil {
        if let known = resolved[record.className] {
          resolution = known
        } else {
          resolution = registry.type(forClassName: record.className).map(Object.Resolved.init)
          resolved[record.className] = resolution
        }
      }
      return Object(index: index, record: record, resolved: resolution, indexByID: indexByID)
    }
    decodeOrder = table.objects.indices.filter { table.objects[$0].placeholder == nil }
    topLevel = table.topLevel.filter { table.objects.indices.contains($0) && table.objects[$0].placeholder == nil }
    placeholderCount = table.objects.count - decodeOrder.count
    referenceFieldCount = objects.reduce(0) { count, object in
      object.fields.entries.reduce(count) { count, entry in
        if case .object = entry.value { return count + 1 }
        return entry.namedObject == nil ? count : count + 1
      }
    }
    let connections = table.connections.map { Connection($0, objects: table.objects) }
    outlets = connections.filter { $0.kind == .outlet || $0.kind == .outletCollection }
    actions = connections.filter { $0.kind == .action }
    segues = connections.filter { $0.kind == .segue }
    plainFields = Mutex(Array(repeating: nil, count: table.objects.count))
  }
}
