import ArchiveCoding
import Foundation
import FoundationForms
import KeyedArchive
import PropertyList

extension ValueSnapshot {
  /// Describes a class instance that is neither a ``/ArchiveCoding/Coding`` class nor a Foundation value: its archived
  /// class name and its fields. Return `nil` to fall back to the default (the class's stored properties via `Mirror`).
  public typealias ObjectDescriber = @Sendable (AnyObject) -> (className: String, fields: [(key: String, value: Any?)])?

  /// A snapshot of a value graph.
  ///
  /// - ``/ArchiveCoding/Coding`` instances are described by what their `encode(with:)` writes (class name = archived
  ///   class name), so an original and its decoded copy compare field by field; a conditional reference counts only
  ///   when the object is also reached unconditionally, as in an archive.
  /// - Foundation values and their Swift counterparts map to the same labels (`NSNumber` and `Int`, `NSString` and
  ///   `String`, `NSArray` and `[Any]`, `NSNotification` and `Notification`, `NSDecimalNumber` and `Decimal`, …).
  /// - ``/KeyedArchive/ArchivedObject`` (generic decoding) is an object with its class name and fields.
  /// - Other class instances go to `describe`, then to `Mirror`; other values to `Mirror`.
  ///
  /// - Parameters:
  ///   - value: the root.
  ///   - describe: a describer for classes of your own that are not ``/ArchiveCoding/Coding`` (for example a
  ///     Foundation-side `NSCoding` twin of a ``/ArchiveCoding/Coding`` class).
  public init(of value: Any?, describing describe: ObjectDescriber? = nil) {
    var builder = ValueSnapshotBuilder(describe: describe)
    let root = builder.node(for: value)
    builder.run()
    self.init(nodes: builder.nodes, root: root)
    sortUnorderedCollections()
  }
}

/// Builds a ``ValueSnapshot`` from values with a work list instead of recursion.
struct ValueSnapshotBuilder {
  let describe: ValueSnapshot.ObjectDescriber?
  var nodes: [ValueSnapshot.Node] = []
  private var pending: [(node: Int, value: Any)] = []
  private var identities: [ObjectIdentifier: Int] = [:]
  private var retained: [AnyObject] = []
  /// Conditional references: resolved after the walk to the object's node if it was reached unconditionally.
  private var conditionals: [(node: Int, child: Int, object: AnyObject)] = []

  init(describe: ValueSnapshot.ObjectDescriber?) { self.describe = describe }

  /// The node for a value: a new node, or the existing node of a class instance seen before.
  mutating func node(for value: Any?) -> Int {
    guard let value = Self.unwrapped(value) else { return add(.none) }
    if let back = value as? ArchivedObject.BackReference {
      // The edge that closes a cycle of generic objects: the object it refers to.
      return back.object.map { node(for: $0) } ?? add(.none)
    }
    if Self.isClassInstance(value) {
      let object = value as AnyObject
      let id = ObjectIdentifier(object)
      if let existing = identities[id] { return existing }
      let index = add(.none)
      identities[id] = index
      retained.append(object)
      pending.append((index, value))
      return index
    }
    let index = add(.none)
    pending.append((index, value))
    return index
  }

  private mutating func add(_ label: ValueSnapshot.Label) -> Int {
    nodes.append(ValueSnapshot.Node(label: label, children: [], hasIdentity: false))
    return nodes.count - 1
  }

  mutating func run() {
    var head = 0
    while head < pending.count {
      let (index, value) = pending[head]
      head += 1
      expand(index, value)
    }
    for (owner, child, object) in conditionals {
      nodes[owner].children[child].node = identities[ObjectIdentifier(object)] ?? add(.none)
    }
  }

  static func unwrapped(_ value: Any?) -> Any? {
    guard var current = value else { return nil }
    while true {
      let mirror = Mirror(reflecting: current)
      guard mirror.displayStyle == .optional else { return current }
      guard let wrapped = mirror.children.first?.value else { return nil }
      current = wrapped
    }
  }

  static func isClassInstance(_ value: Any) -> Bool { type(of: value) is AnyClass }

  private mutating func set(_ index: Int, _ label: ValueSnapshot.Label, children: [(String, Any?)] = []) {
    nodes[index].label = label
    nodes[index].children = children.map { (name: $0.0, node: node(for: $0.1)) }
  }

  // swift-format-ignore
  private mutating func expand(_ index: Int, _ value: Any) {
    switch value {
    case let v as Bool where type(of: value) == Bool.self: set(index, .bool(v))
    case let v as Int where type(of: value) == Int.self: set(index, .integer(Int64(v)))
    case let v as Int8 where type(of: value) == Int8.self: set(index, .integer(Int64(v)))
    case let v as Int16 where type(of: value) == Int16.self: set(index, .integer(Int64(v)))
    case let v as Int32 where type(of: value) == Int32.self: set(index, .integer(Int64(v)))
    case let v as Int64 where type(of: value) == Int64.self: set(index, .integer(v))
    case let v as UInt where type(of: value) == UInt.self: set(index, Self.unsigned(UInt64(v)))
    case let v as UInt8 where type(of: value) == UInt8.self: set(index, .integer(Int64(v)))
    case let v as UInt16 where type(of: value) == UInt16.self: set(index, .integer(Int64(v)))
    case let v as UInt32 where type(of: value) == UInt32.self: set(index, .integer(Int64(v)))
    case let v as UInt64 where type(of: value) == UInt64.self: set(index, Self.unsigned(v))
    case let v as Float where type(of: value) == Float.self: set(index, .float(v))
    case let v as Double where type(of: value) == Double.self: set(index, .double(v))
    case let v as Decimal where type(of: value) == Decimal.self: set(index, .decimal(v.description))
    case let v as NSDecimalNumber: set(index, .decimal(v.decimalValue.description))
    case is NSNull: set(index, .null)
    case let v as NSNumber: set(index, Self.label(of: v))
    case let v as String: set(index, .string(v))
    case let v as Substring: set(index, .string(String(v)))
    case let v as Data: set(index, .data(v))
    case let v as Date: set(index, .date(v.timeIntervalSinceReferenceDate))
    case let v as UUID: set(index, .uuid(v))
    case let v as URL: set(index, .url(relative: v.relativeString, base: v.baseURL?.absoluteString))
    case let v as Notification:
      set(index, .structure(typeName: "NSNotification"), children: [("name", v.name.rawValue), ("object", v.object), ("userInfo", v.userInfo)])
    case let v as NSAttributedString: expandAttributedString(index, v)
    case _ where FoundationValue(swiftValue: value) != nil:
      // Foundation's value types by what they mean, through their forms (FORM-070), never by private storage.
      set(index, ValueSnapshot.label(of: FoundationValue(swiftValue: value) ?? .null))
    case let v as PropertyListValue: expandPropertyListValue(index, v)
    case let v as ArchivedObject: expandArchivedObject(index, v)
    case let v as any Coding: expandCoding(index, v)
    case let v as NSOrderedSet: set(index, .orderedSet, children: v.array.enumerated().map { ("[\($0.offset)]", $0.element) })
    case let v as [Any]: set(index, .array, children: v.enumerated().map { ("[\($0.offset)]", $0.element) })
    case let v as Set<AnyHashable>: set(index, .set, children: v.map { ("", $0.base) })
    case let v as [AnyHashable: Any]: set(index, .dictionary, children: v.flatMap { [("", $0.key.base), ("", $0.value)] })
    default: expandOther(index, value)
    }
    if Self.isClassInstance(value), case .object = nodes[index].label { nodes[index].hasIdentity = true }
  }

  static func unsigned(_ value: UInt64) -> ValueSnapshot.Label {
    value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsignedInteger(value)
  }

  /// An `NSNumber` by its type: the boolean singletons, 32- and 64-bit reals, unsigned and signed integers.
  static func label(of number: NSNumber) -> ValueSnapshot.Label {
    if type(of: number) == type(of: NSNumber(value: true)) { return .bool(number.boolValue) }
    switch String(cString: number.objCType) {
    case "B": return .bool(number.boolValue)
    case "f": return .float(number.floatValue)
    case "d": return .double(number.doubleValue)
    case "Q", "L", "I", "S", "C": return unsigned(number.uint64Value)
    default: return .integer(number.int64Value)
    }
  }

  private mutating func expandAttributedString(_ index: Int, _ value: NSAttributedString) {
    var runs: [(String, Any?)] = []
    value.enumerateAttributes(in: NSRange(location: 0, length: value.length), options: []) { attributes, range, _ in
      var plain: [String: Any] = [:]
      for (key, value) in attributes { plain[key.rawValue] = value }
      runs.append(("{\(range.location), \(range.length)}", plain))
    }
    set(index, .attributedString(value.string), children: runs)
  }

  private mutating func expandPropertyListValue(_ index: Int, _ value: PropertyListValue) {
    switch value {
    case .array(let elements):
      set(index, .array, children: elements.enumerated().map { ("[\($0.offset)]", $0.element) })
    case .set(let members): set(index, .set, children: members.map { ("", $0) })
    case .dictionary(let entries):
      set(index, .dictionary, children: entries.flatMap { [("", $0.key), ("", $0.value)] })
    case .uid(let uid): set(index, .structure(typeName: "UID(\(uid))"))
    default: set(index, ValueSnapshot.plainLabel(value))
    }
  }

  private mutating func expandArchivedObject(_ index: Int, _ object: ArchivedObject) {
    var children: [(String, Any?)] = []
    for entry in object.fields {
      switch entry.value {
      case .value(let v): children.append((entry.unescapedKey, v))
      case .object(let v): children.append((entry.unescapedKey, v))
      case .objects(let v): children.append((entry.unescapedKey, v))
      }
    }
    set(index, .object(className: object.className), children: children)
  }

  private mutating func expandCoding(_ index: Int, _ object: any Coding) {
    let recorder = FieldRecorder()
    object.encode(with: recorder)
    nodes[index].label = .object(className: type(of: object).archivedClassName)
    var children: [(name: String, node: Int)] = []
    for (key, field) in recorder.fields {
      switch field {
      case .value(let v): children.append((key, node(for: PlainValue(v))))
      case .object(let v): children.append((key, node(for: v)))
      case .conditional(let v?):
        children.append((key, -1))
        conditionals.append((index, children.count - 1, v))
      case .conditional(nil): children.append((key, node(for: nil)))
      }
    }
    nodes[index].children = children
  }

  private mutating func expandOther(_ index: Int, _ value: Any) {
    if let plain = value as? PlainValue {
      set(index, plain.label)
      return
    }
    if Self.isClassInstance(value), let described = describe?(value as AnyObject) {
      set(index, .object(className: described.className), children: described.fields.map { ($0.key, $0.value) })
      return
    }
    let mirror = Mirror(reflecting: value)
    var children: [(String, Any?)] = []
    var current: Mirror? = mirror
    var chain: [Mirror] = []
    while let m = current {
      chain.append(m)
      current = m.superclassMirror
    }
    for m in chain.reversed() {
      for (offset, child) in m.children.enumerated() { children.append((child.label ?? ".\(offset)", child.value)) }
    }
    var name = String(reflecting: type(of: value))
    if mirror.displayStyle == .enum {
      // An enum: its case name, then its payload's parts.
      if let only = mirror.children.first, mirror.children.count == 1 {
        name += "." + (only.label ?? "")
        let payload = Mirror(reflecting: only.value)
        children =
          payload.displayStyle == .tuple
          ? payload.children.enumerated().map { ($0.element.label ?? ".\($0.offset)", $0.element.value) }
          : [("payload", only.value)]
      } else {
        name += ".\(value)"
      }
    }
    set(index, Self.isClassInstance(value) ? .object(className: name) : .structure(typeName: name), children: children)
  }
}

/// An inline property-list primitive wrapped so the builder gives it its plain label.
struct PlainValue {
  let label: ValueSnapshot.Label

  init(_ value: CodedValue) {
    switch value {
    case .bool(let v): label = .bool(v)
    case .integer(let v): label = .integer(v)
    case .unsignedInteger(let v): label = .unsignedInteger(v)
    case .float(let v): label = .float(v)
    case .double(let v): label = .double(v)
    case .bytes(let v): label = .data(v)
    case .string(let v): label = .string(v)
    }
  }

}

/// Records what a ``Coding`` instance's `encode(with:)` writes.
final class FieldRecorder: EncodingCoder {
  enum Field {
    case value(CodedValue)
    case object(Any?)
    case conditional(AnyObject?)
  }
  private(set) var fields: [(key: String, field: Field)] = []

  func encodeValue(_ value: CodedValue, forKey key: String) { fields.append((key, .value(value))) }
  func encodeObject(_ object: Any?, forKey key: String) { fields.append((key, .object(object))) }
  func encodeConditionalObject(_ object: AnyObject?, forKey key: String) { fields.append((key, .conditional(object))) }
}
