import Foundation
import Synchronization

/// Maps archived class names (`NSArray`, `UILabel`, `MyApp.BookCardView`) to Swift types and back.
///
/// There is no Objective-C runtime on Linux to look classes up by name, so every ``Coding`` class that should
/// decode must be registered, under its archived name and any aliases. Lookups also try the name without its
/// module prefix (`MyApp.BookCardView` finds a class registered as `BookCardView`) and the other way round, so an
/// archive written by another module or app still decodes.
///
/// The registry is thread-safe. ``shared`` is the process-wide instance; unarchivers can also be given their own.
public final class ClassRegistry: Sendable {
  /// Metatypes are immutable and safe to share between threads.
  private struct TypeBox<T>: @unchecked Sendable { let type: T }

  private struct State {
    var types: [String: TypeBox<any Coding.Type>] = [:]
    var unqualified: [String: TypeBox<any Coding.Type>] = [:]
    var names: [ObjectIdentifier: String] = [:]
    var valueTypes: [(type: TypeBox<Any.Type>, classNames: Set<String>)] = []
    var superclasses: [String: String] = ClassRegistry.foundationSuperclasses
    /// `allowedClassNames(for:)` of single types, cleared by every registration in this registry, with the shared
    /// registry's generation they were computed at (a private registry's answers use the shared registry's names
    /// too, and are recomputed when that changes).
    var allowedCache: [ObjectIdentifier: (names: Set<String>, sharedGeneration: Int)] = [:]
    /// ``resolution(forClassName:)``'s answers, cleared by every registration in this registry (and stamped with
    /// the shared registry's generation, as `allowedCache`).
    var resolutions: [String: Resolution] = [:]
  }

  private let state = Mutex(State())
  /// Counts this registry's registrations, incremented inside the lock after the change. An answer of
  /// ``allowedClassNames(for:)`` or ``archivedName(of:)`` may change with it, and, for a registry other than
  /// ``shared``, with the shared registry's count too (a class's own name may come from there).
  private let changes = Atomic<Int>(0)

  /// A number that changes with every registration here, so that a coder may keep answers of
  /// ``allowedClassNames(for:)`` while it, and the shared registry's, stay the same (read both before asking, and
  /// keep the answer with the numbers read).
  package var generation: Int { changes.load(ordering: .acquiring) }

  /// This registry's generation and the shared registry's, read before computing an answer to remember: a
  /// registration in either may change it.
  private var generations: (own: Int, shared: Int) {
    let own = generation
    return (own, self === Self.shared ? own : Self.shared.generation)
  }

  /// The process-wide registry.
  public static let shared = ClassRegistry()

  /// Creates an empty registry (Foundation's class names are always known).
  public init() {}

  /// Registers a class.
  /// - Parameters:
  ///   - type: the class.
  ///   - name: its archived name; default `Module.Type`.
  ///   - aliases: more names that decode to it (old names, names from other apps).
  public func register(_ type: any Coding.Type, as name: String? = nil, aliases: [String] = []) {
    let primary = name ?? Self.defaultName(of: type)
    let box = TypeBox(type: type)
    let id = ObjectIdentifier(type)
    state.withLock { state in
      state.allowedCache = [:]
      state.resolutions = [:]
      state.names[id] = primary
      for key in [primary] + aliases {
        state.types[key] = box
        state.unqualified[Self.unqualified(key)] = box
      }
      changes.add(1, ordering: .releasing)
    }
  }

  /// Registers a Swift type that stands for archived Foundation classes (for example an ordered-set type for
  /// `NSOrderedSet`), so that `decodeObject(of: [type], …)` allows those classes.
  public func registerValueType(_ type: Any.Type, classNames: Set<String>) {
    let box = TypeBox(type: type)
    state.withLock {
      $0.allowedCache = [:]
      $0.resolutions = [:]
      $0.valueTypes.append((box, classNames))
      changes.add(1, ordering: .releasing)
    }
  }

  /// Declares the superclass of an archived class name that has no Swift type here (used by allowed-class checks
  /// and for `$classes` chains).
  public func registerSuperclass(_ superclass: String, of className: String) {
    state.withLock {
      $0.allowedCache = [:]
      $0.resolutions = [:]
      $0.superclasses[className] = superclass
      changes.add(1, ordering: .releasing)
    }
  }

  /// The registered class for a name, trying the name, then the name without its module prefix.
  public func type(forClassName name: String) -> (any Coding.Type)? {
    let name = Self.demangledName(name) ?? name
    return state.withLock { state in
      (state.types[name] ?? state.unqualified[Self.unqualified(name)])
    }?.type
  }

  /// `Module.Class` for the runtime name Darwin gives a Swift class without an `@objc` name
  /// (`_TtC6uitest11AppDelegate` → `uitest.AppDelegate`), or `nil` for other names. Only the plain form (a class
  /// at the top level of its module) is decoded.
  public static func demangledName(_ name: String) -> String? {
    guard name.hasPrefix("_TtC") else { return nil }
    var rest = Substring(name.dropFirst(4))
    var parts: [String] = []
    while !rest.isEmpty {
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard let length = Int(digits), length > 0, length <= rest.count - digits.count else { return nil }
      rest = rest.dropFirst(digits.count)
      parts.append(String(rest.prefix(length)))
      rest = rest.dropFirst(length)
    }
    return parts.count == 2 ? parts.joined(separator: ".") : nil
  }

  /// The archived name of a class: the registered name, else `Module.Type`.
  public func className(for type: any Coding.Type) -> String {
    let id = ObjectIdentifier(type)
    return state.withLock { $0.names[id] } ?? Self.defaultName(of: type)
  }

  /// The name a class is archived under as seen by this registry: its registration here, else the class's own
  /// ``Coding/archivedClassName`` (its override, or its name in the shared registry), unless this registry gives
  /// that name to another class: then the class's `Module.Type` name. A name belongs to one class per registry,
  /// so allowed-class checks by name cannot confuse two classes (a substitution cannot widen an allowed set).
  public func archivedName(of type: any Coding.Type) -> String {
    let id = ObjectIdentifier(type)
    if let registered = state.withLock({ $0.names[id] }) { return registered }
    let name = type.archivedClassName
    if let owner = state.withLock({ $0.types[name] }), ObjectIdentifier(owner.type) != id {
      return Self.defaultName(of: type)
    }
    return name
  }

  /// The `$classes` chain of a class: its name, its superclasses' names, ending in `NSObject`.
  public func classChain(for type: any Coding.Type) -> [String] {
    var chain = [archivedName(of: type)]
    var current: AnyClass? = _getSuperclass(type)
    while let superclass = current {
      if let coding = superclass as? any Coding.Type {
        chain.append(archivedName(of: coding))
      } else {
        chain.append(String(reflecting: superclass))
      }
      current = _getSuperclass(superclass)
    }
    var name = chain.last ?? ""
    while let next = state.withLock({ $0.superclasses[name] }), !chain.contains(next) {
      chain.append(next)
      name = next
    }
    if chain.last != "NSObject" { chain.append("NSObject") }
    return chain
  }

  /// What an archived class name resolves to: the registered class (see ``type(forClassName:)``), if any, and the
  /// chain the allowed-class check uses for the name (``classChain(for:)`` of that class, else
  /// ``classChain(forClassName:)``).
  package struct Resolution: @unchecked Sendable {
    /// The registered class; `nil` when no class is registered under the name.
    package let type: (any Coding.Type)?
    /// `type` as a ``SecureCoding`` class, or `nil` when it is none: worked out once, as the conformance check
    /// costs a runtime lookup that secure decoding would otherwise make per archive.
    package let secureType: (any SecureCoding.Type)?
    /// The class chain, ending in `NSObject`.
    package let chain: [String]
    /// The shared registry's generation when the chain was worked out: a class's archived name may come from
    /// there (``archivedName(of:)``), so another registry's memo also goes stale with it.
    let sharedGeneration: Int
  }

  /// The most names ``resolution(forClassName:)`` remembers at once (it starts again empty when full), and the
  /// longest name it remembers, in UTF-8 bytes.
  static let maxRememberedResolutions = 1024
  static let maxRememberedNameLength = 1024

  /// The resolution of an archived class name, remembered until the next registration: every archive of a model
  /// names the same few classes, and working out a chain (superclass walks, a lock per step) cost more than
  /// decoding a small archive's fields.
  ///
  /// Only names that resolve to something (a registered class, or a name with a known superclass: Foundation's,
  /// declared ones) are remembered, and only short ones: an archive chooses the names it asks for, and names that
  /// match nothing must neither take the memo's room nor stay in memory after the archive.
  package func resolution(forClassName name: String) -> Resolution {
    let (generation, sharedGeneration) = generations
    if let known = state.withLock({ $0.resolutions[name] }), known.sharedGeneration == sharedGeneration {
      return known
    }
    let type = type(forClassName: name)
    let resolution = Resolution(
      type: type, secureType: type as? any SecureCoding.Type,
      chain: type.map { classChain(for: $0) } ?? classChain(forClassName: name), sharedGeneration: sharedGeneration)
    guard name.utf8.count <= Self.maxRememberedNameLength else { return resolution }
    state.withLock { state in
      // Kept only if no registration came in between (it would have made the answer stale).
      guard changes.load(ordering: .relaxed) == generation, type != nil || state.superclasses[name] != nil else {
        return
      }
      if state.resolutions.count >= Self.maxRememberedResolutions, state.resolutions[name] == nil {
        state.resolutions = [:]
      }
      state.resolutions[name] = resolution
    }
    return resolution
  }

  /// The chain of an archived class name known only by name (Foundation classes and declared superclasses).
  public func classChain(forClassName name: String) -> [String] {
    if let type = type(forClassName: name) { return classChain(for: type) }
    var chain = [name]
    var current = name
    while let next = state.withLock({ $0.superclasses[current] }), !chain.contains(next) {
      chain.append(next)
      current = next
    }
    if chain.last != "NSObject" { chain.append("NSObject") }
    return chain
  }

  /// The archived class names a list of Swift types allows: a ``Coding`` class allows its own name; `String`
  /// allows `NSString` and `NSMutableString`; numbers and `Bool` allow `NSNumber`; `Data`, `Date`, `URL`, `UUID`
  /// allow their Foundation classes; arrays, dictionaries and sets allow `NSArray`, `NSDictionary`, `NSSet` and
  /// their mutable subclasses.
  public func allowedClassNames(for types: [Any.Type]) -> Set<String> {
    guard types.count == 1, let type = types.first else {
      // Each type's names are its own (the computation is a union over the list), so a list is the union of its
      // types' memoised answers: a conformance check that fails scans every conformance record in the process.
      var names: Set<String> = []
      for type in types { names.formUnion(allowedClassNames(for: type)) }
      return names
    }
    return allowedClassNames(for: type)
  }

  /// ``allowedClassNames(for:)`` of one type, without the list: the same set (the same storage, while no
  /// registration is made) on every call.
  package func allowedClassNames(for type: Any.Type) -> Set<String> {
    let id = ObjectIdentifier(type)
    let (generation, sharedGeneration) = generations
    if let cached = state.withLock({ $0.allowedCache[id] }), cached.sharedGeneration == sharedGeneration {
      return cached.names
    }
    let names = computeAllowedClassNames(for: type)
    state.withLock { state in
      // Kept only if no registration came in between (it would have made the answer stale).
      guard changes.load(ordering: .relaxed) == generation else { return }
      state.allowedCache[id] = (names, sharedGeneration)
    }
    return names
  }

  private func computeAllowedClassNames(for type: Any.Type) -> Set<String> {
    if let coding = type as? any Coding.Type {
      return [archivedName(of: coding)]
    }
    if let optional = type as? any OptionalMarker.Type {
      return allowedClassNames(for: [optional.wrappedType])
    }
    var names = Self.foundationNames(for: type)
    // A typed collection allows its element types too (`[String: Int]` allows NSString and NSNumber).
    if let collection = type as? any CollectionMarker.Type {
      names.formUnion(allowedClassNames(for: collection.elementTypes))
    }
    // Value types registered process-wide (the archive modules register theirs in the shared registry) count
    // for private registries too.
    for registry in self === Self.shared ? [self] : [self, Self.shared] {
      for entry in registry.state.withLock({ $0.valueTypes }) where entry.type.type == type {
        names.formUnion(entry.classNames)
      }
    }
    return names
  }

  /// `true` when a class whose chain is `chain` is allowed by `allowed` (the class or any superclass is listed).
  public func isAllowed(chain: [String], by allowed: Set<String>) -> Bool {
    chain.contains { allowed.contains($0) && $0 != "NSObject" } || allowed.contains("NSObject")
  }

  private static func foundationNames(for type: Any.Type) -> Set<String> {
    switch type {
    case is String.Type, is Substring.Type: ["NSString", "NSMutableString"]
    case is Bool.Type, is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type, is UInt.Type,
      is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type, is Float.Type, is Double.Type,
      is NSNumber.Type:
      ["NSNumber"]
    case is Data.Type: ["NSData", "NSMutableData"]
    case is Date.Type: ["NSDate"]
    case is NSNull.Type: ["NSNull"]
    case is NSOrderedSet.Type: ["NSOrderedSet", "NSMutableOrderedSet"]
    case is NSError.Type: ["NSError"]
    case is DateInterval.Type: ["NSDateInterval"]
    case is URL.Type: ["NSURL"]
    case is UUID.Type: ["NSUUID"]
    case is IndexSet.Type: ["NSIndexSet", "NSMutableIndexSet"]
    case is IndexPath.Type: ["NSIndexPath"]
    case is TimeZone.Type: ["NSTimeZone"]
    case is Locale.Type: ["NSLocale"]
    case is Calendar.Type: ["NSCalendar"]
    case is DateComponents.Type: ["NSDateComponents"]
    case is PersonNameComponents.Type: ["NSPersonNameComponents"]
    case is CharacterSet.Type: ["NSCharacterSet", "NSMutableCharacterSet"]
    case is any ArrayMarker.Type: ["NSArray", "NSMutableArray"]
    case is any DictionaryMarker.Type: ["NSDictionary", "NSMutableDictionary"]
    case is any SetMarker.Type: ["NSSet", "NSMutableSet"]
    case let convertible as any ArchivedValueConvertible.Type: convertible.archivedClassNames
    default: []
    }
  }

  /// Superclasses of the Foundation classes archives hold.
  static let foundationSuperclasses: [String: String] = [
    "NSMutableString": "NSString", "NSMutableData": "NSData", "NSMutableArray": "NSArray",
    "NSMutableDictionary": "NSDictionary", "NSMutableSet": "NSSet", "NSCountedSet": "NSMutableSet",
    "NSMutableOrderedSet": "NSOrderedSet", "NSDecimalNumber": "NSNumber", "NSNumber": "NSValue",
    "NSMutableAttributedString": "NSAttributedString", "NSMutableURLRequest": "NSURLRequest",
    "NSMutableIndexSet": "NSIndexSet", "NSMutableCharacterSet": "NSCharacterSet",
  ]

  static func defaultName(of type: any Coding.Type) -> String {
    String(reflecting: type)
  }

  static func unqualified(_ name: String) -> String {
    guard let dot = name.lastIndex(of: ".") else { return name }
    return String(name[name.index(after: dot)...])
  }
}

/// Lets the registry recognise any `Array`, `Dictionary`, `Set` or `Optional` type at run time.
protocol CollectionMarker { static var elementTypes: [Any.Type] { get } }
protocol ArrayMarker: CollectionMarker {}
protocol DictionaryMarker: CollectionMarker {}
protocol SetMarker: CollectionMarker {}
protocol OptionalMarker { static var wrappedType: Any.Type { get } }
extension Array: ArrayMarker { static var elementTypes: [Any.Type] { [Element.self] } }

/// Casts `[Any]` to a typed array element by element: a whole-array cast may bridge through `NSArray`.
public protocol ArrayElementCasting {
  /// The elements as this array type, or `nil` when one of them is of another type.
  static func castElements(_ elements: [Any]) -> Self?
}

extension Array: ArrayElementCasting {
  /// The elements as `[Element]`, or `nil`.
  public static func castElements(_ elements: [Any]) -> [Element]? {
    var result: [Element] = []
    result.reserveCapacity(elements.count)
    for element in elements {
      guard let typed = element as? Element else { return nil }
      result.append(typed)
    }
    return result
  }
}
extension Dictionary: DictionaryMarker { static var elementTypes: [Any.Type] { [Key.self, Value.self] } }
extension Set: SetMarker { static var elementTypes: [Any.Type] { [Element.self] } }
extension Optional: OptionalMarker { static var wrappedType: Any.Type { Wrapped.self } }
