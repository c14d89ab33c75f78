import ArchiveCoding
import Foundation
import NibLoading

/// The base of the catalog, in the role of `NSObject` + `UIResponder`: archivable, key-value coding compliant
/// and observable, sent `awakeFromNib()`, able to receive actions, and part of a responder chain.
///
/// Subclasses declare outlets in one line each with ``Outlet`` (`@Outlet var title: Label?`) and actions with
/// ``actions`` (`[Action("close", close)]`), inherited by their subclasses; keys backed by plain properties can be
/// declared by overriding ``keyValueAccessors`` (merging `super`'s).
open class Responder: Coding, KeyValueObservable, NibAwaking, ActionResponding, UnknownClassAdopting {
  /// An action implementation: called with the receiver and the sender.
  public typealias ActionHandler = (Responder, Any?) -> Void

  /// The observers of this object's keys.
  public var keyValueObservers: KeyValueObservers { observers.madeOnFirstUse(KeyValueObservers.init) }
  /// Made when first asked for: most objects are never observed, and a nib makes many objects.
  private var observers: KeyValueObservers?

  /// The observers, or `nil` when none was ever asked for (setting a key then makes no set).
  public var existingKeyValueObservers: KeyValueObservers? { observers }

  /// The `willSet` of a property declared with ``KeyValueAccessor/observedProperty(_:)``: announces the change of
  /// its key when the object has observers (NIB-105).
  @inline(__always)
  final func propertyWillChange(_ key: String) {
    if observers != nil { willChangeValue(forKey: key) }
  }

  /// The `didSet` of a property declared with ``KeyValueAccessor/observedProperty(_:)``: ends the change announced
  /// by ``propertyWillChange(_:)`` (NIB-105).
  @inline(__always)
  final func propertyDidChange(_ key: String) {
    if observers != nil { didChangeValue(forKey: key) }
  }

  /// How many times `awakeFromNib()` reached this class's implementation (for tests).
  package var awakeFromNibCount: Int { awakenings }
  private var awakenings = 0

  /// The class a nib asked for when this object stands in for it (the class was not registered), or `nil`.
  public var unknownClassName: String? { unknownClass?.name }
  /// Outlets and attributes an unknown class would have had, kept by name.
  public var unknownClassValues: [String: Any] { unknownClass?.values ?? [:] }
  /// What standing in for an unknown class keeps; `nil` for every other object (one reference to make and release
  /// per object, rather than a string and a dictionary).
  private var unknownClass: UnknownClass?

  /// The name and values of the unknown class an object stands in for.
  private final class UnknownClass {
    var name: String
    var values: [String: Any] = [:]
    var actions: [(target: AnyObject?, action: String, events: UInt64?)] = []
    init(name: String) { self.name = name }
  }

  /// The targets and actions connected to this object while it stands in for an unknown class that is not a
  /// control here (NIB-091).
  public var unknownClassActions: [(target: AnyObject?, action: String, events: UInt64?)] {
    unknownClass?.actions ?? []
  }

  /// Keeps the action when standing in for an unknown class (NIB-091).
  public func keepAction(_ target: AnyObject?, action: String, for events: UInt64?) -> Bool {
    guard let unknownClass else { return false }
    unknownClass.actions.append((target, action, events))
    return true
  }

  /// The values of the ``Outlet`` properties, by name; made on the first outlet set.
  private var outletValues: [String: AnyObject]?

  /// Set while ``observedKey(for:)`` reads a key path, to learn which ``Outlet`` property it reads.
  private var outletProbe: OutletProbe?

  /// The name of the last ``Outlet`` property read while probing.
  private final class OutletProbe {
    var name: String?
  }

  /// The key observing a key path reports: the key declared with it in ``keyValueAccessors``, else the ``Outlet``
  /// property it reads (`observe(\.title)` for `@Outlet var title: Label?`), found by reading it once (NIB-104).
  open func observedKey(for keyPath: AnyKeyPath) -> String? {
    if let key = declaredKey(for: keyPath) { return key }
    let probe = OutletProbe()
    outletProbe = probe
    defer { outletProbe = nil }
    _ = self[keyPath: keyPath]
    return probe.name
  }

  /// The value of an ``Outlet`` property.
  func outletValue(_ name: String) -> AnyObject? {
    if let outletProbe { outletProbe.name = name }
    let stored = outletValues?[name]
    if let box = stored as? WeakOutletBox { return box.object }
    return stored
  }

  /// What a weak outlet stores.
  private final class WeakOutletBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
  }

  private func storeOutletValue(_ value: AnyObject?, _ name: String, weak: Bool) {
    let value = weak ? value.map(WeakOutletBox.init) : value
    if outletValues == nil {
      guard let value else { return }
      outletValues = [name: value]
    } else {
      outletValues?[name] = value
    }
  }

  /// Sets an ``Outlet`` property, posting will-change and did-change notifications to its observers.
  func setOutletValue(_ value: AnyObject?, _ name: String, weak: Bool) {
    let observers = existingKeyValueObservers
    guard let observers, observers.isObserving(name) else {
      storeOutletValue(value, name, weak: weak)
      return
    }
    let oldValue = outletValue(name)
    postChange(.willChange, key: name, oldValue: oldValue, newValue: value)
    storeOutletValue(value, name, weak: weak)
    postChange(.didChange, key: name, oldValue: oldValue, newValue: value)
  }

  /// Makes the object accept the unknown class's keys and actions (NIB-020).
  public func adoptUnknownClass(_ className: String) {
    if let unknownClass {
      unknownClass.name = className
    } else {
      unknownClass = UnknownClass(name: className)
    }
  }

  /// Sets an ``Outlet`` property of that name, or stores the value when standing in for an unknown class;
  /// otherwise throws, naming the class and key and saying how to declare it (COD-237).
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`typeMismatch`) for a value of the wrong class for the outlet, naming both
  ///   classes (NIB-094); (`connectionFailed`) for a key the class does not have.
  open func setValue(_ value: Any?, forUndefinedKey key: String) throws {
    if let outlet = OutletDeclarations.declaration(key, of: self) {
      let value = KeyValueConversion.unwrap(value)
      guard let object = try outlet.accept(value) else {
        return setOutletValue(nil, key, weak: outlet.isWeak)
      }
      return setOutletValue(object, key, weak: outlet.isWeak)
    }
    guard let unknownClass else { throw undefinedKey(key, hint: Self.outletHint(key)) }
    unknownClass.values[key] = value
  }

  /// The value of an ``Outlet`` property of that name, or the stored value when standing in for an unknown class;
  /// otherwise throws.
  open func value(forUndefinedKey key: String) throws -> Any? {
    if OutletDeclarations.declaration(key, of: self) != nil { return outletValue(key) }
    guard let unknownClass else { throw undefinedKey(key, hint: Self.outletHint(key)) }
    return unknownClass.values[key]
  }

  /// How to declare a key as an outlet, for the error of an undefined key (COD-237).
  private static func outletHint(_ key: String) -> String { "as an outlet (`@Outlet var \(key): View?`, of its class)" }

  /// The next responder (a view's superview or view controller; a view controller's parent view's responder).
  open var next: Responder? { nil }

  /// Creates an object in code.
  public init() {}

  /// Creates an object from a nib or archive. Subclasses call `super.init(coder:)` and read their own keys.
  public required init(coder: any DecodingCoder) throws {}

  /// Writes nothing at this level.
  open func encode(with coder: any EncodingCoder) {}

  /// Called once after every object of the nib exists and is connected. Overrides call `super.awakeFromNib()`
  /// first.
  open func awakeFromNib() { awakenings += 1 }

  /// The keys of this class: none at this level.
  open class var keyValueAccessors: [String: KeyValueAccessor] { [:] }

  /// The keys whose values depend on others (`["fullName": ["first", "last"]]`): none at this level (NIB-104).
  open class var dependentKeys: [String: Set<String>] { [:] }

  /// The actions of this class, by name (`"dismiss:"`), as a table that merges `super`'s: none at this level.
  /// ``actions`` declares them without the merging. Read once per class (the table is cached), so it must not
  /// change once used.
  open class var actionHandlers: [String: ActionHandler] { [:] }

  /// The actions this class declares, one line each (`[Action("close", close), Action("save:", save)]`); a
  /// subclass lists only its own and inherits its superclasses' (NIB-092). Read once per class.
  open class var actions: [Action] { [] }

  /// `true` when the class has the action (or declares it wrongly: ``refusal(ofAction:from:)`` says how).
  public func responds(toAction action: String) -> Bool {
    unknownClass != nil || ActionHandlerCache.action(action, of: self) != nil
      || ActionHandlerCache.mistake(action, of: self) != nil
  }

  /// Why `sender` may not send the action: the method takes a sender of another class (NIB-341), or the declaration's
  /// selector does not match its method (NIB-342); `nil` when it may.
  public func refusal(ofAction action: String, from sender: AnyObject) -> String? {
    if let found = ActionHandlerCache.action(action, of: self) { return found.refusal(from: sender, receiver: self) }
    return ActionHandlerCache.mistake(action, of: self)?.refusal(from: sender, receiver: self)
  }

  /// Runs an action on this object, or passes it up the responder chain.
  /// - Parameters:
  ///   - action: the selector (`"save:"`).
  ///   - sender: the object sending it.
  ///   - event: the event, for actions of the `name:forEvent:` form.
  /// - Returns: `true` when some responder handled it.
  @discardableResult
  public func perform(action: String, sender: Any?, event: ActionEvent? = nil) -> Bool {
    var responder: Responder? = self
    while let current = responder {
      if let found = ActionHandlerCache.action(action, of: current) {
        found.perform(current, sender, event)
        return true
      }
      responder = current.next
    }
    return false
  }

  /// Wraps a method as an action handler: `"dismiss:": action(Card.dismiss)`.
  public static func action<T: Responder>(_ method: @escaping (T) -> (Any?) -> Void) -> ActionHandler {
    { receiver, sender in
      if let typed = receiver as? T { method(typed)(sender) }
    }
  }
}

/// A colour as an archived object (`UIColor`, `NSColor` in compiled nibs and archives).
public final class ColorObject: Responder {
  /// The colour.
  public var color: Color

  /// Wraps a colour.
  public init(_ color: Color) {
    self.color = color
    super.init()
  }

  /// Reads `UIRed`/`UIGreen`/`UIBlue`/`UIAlpha`, `UIWhite`, `UISystemColorName`, or AppKit's `NSRGB`/`NSWhite`;
  /// from a typedstream, `NSColor`'s sequential form (COD-125).
  public required init(coder: any DecodingCoder) throws {
    if !coder.allowsKeyedCoding {
      color = try Self.sequentialColor(from: coder)
    } else if let name = try coder.string(["UISystemColorName", "NSColorName"]) {
      color = Color(red: 0, green: 0, blue: 0, alpha: 1, name: name)
    } else if coder.containsValue(forKey: "UIWhite") {
      color = Color(white: try coder.decodeDouble(forKey: "UIWhite"), alpha: try coder.number(["UIAlpha"]) ?? 1)
    } else if coder.containsValue(forKey: "UIRed") {
      color = Color(
        red: try coder.decodeDouble(forKey: "UIRed"), green: try coder.decodeDouble(forKey: "UIGreen"),
        blue: try coder.decodeDouble(forKey: "UIBlue"), alpha: try coder.number(["UIAlpha"]) ?? 1)
    } else if let bytes = try coder.decodeBytes(forKey: "NSRGB") {
      let numbers = String(decoding: bytes.filter { $0 != 0 }, as: UTF8.self).split(separator: " ").compactMap {
        Double($0)
      }
      color = Color(
        red: numbers.first ?? 0, green: numbers.count > 1 ? numbers[1] : 0, blue: numbers.count > 2 ? numbers[2] : 0,
        alpha: numbers.count > 3 ? numbers[3] : 1)
    } else {
      color = .black
    }
    try super.init(coder: coder)
  }

  /// Writes UIKit's keys; to a typedstream, `NSColor`'s sequential form.
  public override func encode(with coder: any EncodingCoder) {
    guard coder.allowsKeyedCoding else {
      encodeSequentially(with: coder)
      return
    }
    coder.encode(color.red, forKey: "UIRed")
    coder.encode(color.green, forKey: "UIGreen")
    coder.encode(color.blue, forKey: "UIBlue")
    coder.encode(color.alpha, forKey: "UIAlpha")
    if let name = color.name { coder.encode(name, forKey: "UISystemColorName") }
  }
}

/// A font as an archived object (`UIFont`, `NSFont`).
public final class FontObject: Responder {
  /// The font.
  public var font: Font

  /// Reads `UIFontName`/`UIFontPointSize` or AppKit's `NSName`/`NSSize`; from a typedstream, `NSFont`'s
  /// sequential form (COD-125).
  public required init(coder: any DecodingCoder) throws {
    if !coder.allowsKeyedCoding {
      font = try Self.sequentialFont(from: coder)
    } else {
      font = Font(
        name: try coder.string(["UIFontName", "NSName"]),
        pointSize: try coder.number(["UIFontPointSize", "NSSize"]) ?? 17)
    }
    try super.init(coder: coder)
  }

  /// Writes nothing to a keyed archive (a nib names its fonts); to a typedstream, `NSFont`'s sequential form.
  public override func encode(with coder: any EncodingCoder) {
    if !coder.allowsKeyedCoding { encodeSequentially(with: coder) }
  }
}
