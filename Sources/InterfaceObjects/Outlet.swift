import ArchiveCoding
import Synchronization

/// An outlet declared in one line, as `@IBOutlet` declares one: `@Outlet var title: Label?` in a ``Responder``
/// subclass. The declaration serves key-value coding (`setValue(_:forKey: "title")`, which a nib's outlet
/// connections use), observation (assigning the property or setting the key notifies the key's observers) and the
/// connection table; subclasses inherit it (NIB-093). A value of another class is an error naming both classes,
/// never `nil` (NIB-094). Decision 0029 has the design.
///
/// The outlet holds its object strongly, or weakly when declared `@Outlet(.weak)` (as `@IBOutlet weak var`).
@propertyWrapper
public struct Outlet<Value: AnyObject> {
  /// How an outlet holds its object.
  public enum Reference: Sendable {
    /// Strongly: the object lives at least as long as the outlet holds it.
    case strong
    /// Weakly: the outlet reads `nil` once the object is gone (delegates, objects owned elsewhere).
    case weak
  }

  /// Identifies this declaration among the properties of its instance, to find its name.
  let token: Int
  /// Whether the outlet holds its object weakly.
  let isWeak: Bool
  /// The property's name, found on first access.
  var name: String?

  /// Declares an outlet that holds its object strongly, `nil` until connected.
  public init() { self.init(.strong) }

  /// Declares an outlet that holds its object as `reference` says, `nil` until connected.
  public init(_ reference: Reference) {
    token = OutletDeclarations.nextToken()
    isWeak = reference == .weak
  }

  /// Not available: an outlet is a property of a ``Responder`` subclass, reached through its instance. Declaring
  /// one elsewhere is refused where it is written (NIB-343); the body never runs.
  @available(*, unavailable, message: "@Outlet declares properties of Responder subclasses only")
  public var wrappedValue: Value? {
    get { nil }
    // swift-format-ignore: NoAssignmentInExpressions
    set {}
  }

  /// The outlet's value in its instance.
  public static subscript<Instance: Responder>(
    _enclosingInstance instance: Instance, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Instance, Value?>,
    storage storageKeyPath: ReferenceWritableKeyPath<Instance, Outlet<Value>>
  ) -> Value? {
    get { instance.outletValue(name(in: instance, storageKeyPath)) as? Value }
    set {
      instance.setOutletValue(
        newValue, name(in: instance, storageKeyPath), weak: instance[keyPath: storageKeyPath].isWeak)
    }
  }

  private static func name<Instance: Responder>(
    in instance: Instance, _ storage: ReferenceWritableKeyPath<Instance, Outlet<Value>>
  ) -> String {
    if let name = instance[keyPath: storage].name { return name }
    let name = OutletDeclarations.name(of: storage, token: instance[keyPath: storage].token, in: instance)
    instance[keyPath: storage].name = name
    return name
  }
}

/// What key-value coding needs of an ``Outlet`` whatever its value's class.
protocol OutletDeclaring {
  /// The token of the declaration.
  var token: Int { get }
  /// Whether the outlet holds its object weakly.
  var isWeak: Bool { get }
  /// The value's class.
  static var valueType: Any.Type { get }
  /// `value` as the value's class, or `nil` when it is of another class.
  static func cast(_ value: Any) -> AnyObject?
}

extension Outlet: OutletDeclaring {
  static var valueType: Any.Type { Value.self }
  static func cast(_ value: Any) -> AnyObject? { value as? Value }
}

/// One declared outlet of a class.
struct OutletDeclaration {
  /// The value's class.
  let valueType: Any.Type
  /// The owning class, for messages.
  let className: String
  /// The outlet's name.
  let name: String
  /// Whether the outlet holds its object weakly.
  let isWeak: Bool
  /// The object to store for a value, `nil` for no value; a value of another class throws.
  let cast: (Any) -> AnyObject?

  /// The value as the outlet's class.
  /// - Throws: ``ArchiveError`` (`typeMismatch`) naming the outlet, its class and the value's class.
  func accept(_ value: Any?) throws -> AnyObject? {
    guard let value else { return nil }
    guard let object = cast(value) else {
      throw ArchiveError(
        .typeMismatch,
        "the outlet \"\(name)\" of \(className) holds \(valueType), but the object connected to it is a \(type(of: value))",
        at: .init(className: className, keyPath: name))
    }
    return object
  }
}

/// Each class's ``Outlet`` declarations, found by reflecting on the first instance of the class asked about
/// (its own properties and its superclasses'), once per class.
enum OutletDeclarations {
  private static let tables = ClassTableCache<[String: OutletDeclaration]>()
  private static let tokens = Atomic<Int>(0)

  static func nextToken() -> Int { tokens.add(1, ordering: .relaxed).newValue }

  /// The declared outlet of a name for an object's class, or `nil`.
  static func declaration(_ name: String, of object: Responder) -> OutletDeclaration? {
    tables.table(of: object) { gather($0) }[name]
  }

  /// The names of the outlet properties by their storage's key path, found once per declaration.
  private struct Names: @unchecked Sendable { var byKeyPath: [AnyKeyPath: String] = [:] }
  private static let names = Mutex(Names())

  /// The name of the outlet property stored at `storage`, whose declaration in `object` has `token`: found by
  /// reflection the first time the declaration is used, then by its key path.
  static func name(of storage: AnyKeyPath, token: Int, in object: Responder) -> String {
    if let name = names.withLock({ $0.byKeyPath[storage] }) { return name }
    let name = name(of: token, in: object) ?? name(of: storage)
    names.withLock { $0.byKeyPath[storage] = name }
    return name
  }

  /// The property a storage key path names (`\Card._title` is `title`).
  private static func name(of storage: AnyKeyPath) -> String {
    let last = "\(storage)".split(separator: ".").last.map(String.init) ?? "outlet"
    return last.hasPrefix("_") ? String(last.dropFirst()) : last
  }

  /// The name of the outlet property whose declaration has `token` in `object`, or `nil` when reflection does not
  /// show it.
  private static func name(of token: Int, in object: Responder) -> String? {
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      for child in current.children {
        if let outlet = child.value as? any OutletDeclaring, outlet.token == token, let label = child.label {
          return label.hasPrefix("_") ? String(label.dropFirst()) : label
        }
      }
      mirror = current.superclassMirror
    }
    // A class that hides its properties from reflection (a custom `customMirror`): the name comes from the storage's
    // key path (`\Card._title`), never a trap (NIB-343).
    return nil
  }

  private static func gather(_ object: AnyObject) -> [String: OutletDeclaration] {
    var outlets: [String: OutletDeclaration] = [:]
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      for child in current.children {
        guard let outlet = child.value as? any OutletDeclaring, let label = child.label else { continue }
        let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
        // The subclass's declaration of a name comes first and wins.
        if outlets[name] != nil { continue }
        outlets[name] = declaration(outlet, name: name, className: "\(current.subjectType)")
      }
      mirror = current.superclassMirror
    }
    return outlets
  }

  private static func declaration(
    _ outlet: some OutletDeclaring, name: String, className: String
  )
    -> OutletDeclaration
  {
    OutletDeclaration(
      valueType: type(of: outlet).valueType, className: className, name: name, isWeak: outlet.isWeak
    ) { type(of: outlet).cast($0) }
  }
}
