import ArchiveCoding

/// Foundation's sequential forms read from a typedstream's objects (`Specs/Typedstream.md`, TS-070 to TS-079).
///
/// `NSArchiver` writes each Foundation class with its own `encodeWithCoder:` layout; this type knows those layouts
/// and turns an object into a ``Form`` whose members name other objects by their ordinal (`$id`), so that a
/// renderer can follow, share or cut them as it needs. Objects of other classes are ``Form/other``.
public struct TypedstreamDecoder {
  /// An object's value, as far as its class is a Foundation class whose layout is known.
  public enum Form: Equatable, Sendable {
    /// `NSString`, `NSMutableString`: the text (TS-071).
    case string(String)
    /// `NSNumber`: its value, as typed in the stream (TS-072).
    case number(TypedstreamValue)
    /// `NSData`, `NSMutableData`: the bytes (TS-073).
    case data([UInt8])
    /// `NSDate`: seconds since 2001-01-01 (TS-074).
    case date(Double)
    /// `NSURL`: its string and the base URL object it is relative to (TS-075).
    case url(relative: String, base: Member)
    /// `NSArray`, `NSMutableArray` (TS-076).
    case array([Member])
    /// `NSSet`, `NSMutableSet` (TS-076).
    case set([Member])
    /// `NSDictionary`, `NSMutableDictionary`: keys and values in stream order (TS-076).
    case dictionary([Pair])
    /// `NSAttributedString`, `NSMutableAttributedString`: the string object and the runs (TS-077).
    case attributedString(string: Member, runs: [Run])
    /// `NSNull`.
    case null
    /// `NSValue`: its type encoding and value (TS-078).
    case value(type: [UInt8], TypedstreamValue)
    /// Any other class: its fields as stored.
    case other
  }

  /// An object-valued member: an object's ordinal, or nil.
  public typealias Member = Int?

  /// A dictionary entry.
  public struct Pair: Equatable, Sendable {
    /// The key object.
    public var key: Member
    /// The value object.
    public var value: Member
  }

  /// An attributed string's run: where it starts, its length in UTF-16 units and its attribute dictionary.
  public struct Run: Equatable, Sendable {
    /// The run's first UTF-16 unit.
    public var location: Int
    /// The run's length in UTF-16 units.
    public var length: Int
    /// The attribute dictionary object.
    public var attributes: Member
  }

  /// Every literal object's fields by ordinal, with objects stored inline replaced by references to their
  /// ordinals, C string references by the strings and classes by their whole chains as literals, so that each
  /// field can be read on its own. An object's first reference in a walk of these values in order is where the
  /// stream stored it.
  public private(set) var fields: [[TypedstreamValue]] = []
  /// Every literal object's typed groups by ordinal, resolved as ``fields`` are: what a sequential coder reads
  /// group by group.
  public private(set) var groups: [[TypedstreamGroup]] = []
  /// The top-level values, resolved as ``fields`` are.
  public private(set) var topLevel: [TypedstreamValue] = []
  /// The top-level groups, resolved as ``fields`` are.
  public private(set) var topLevelGroups: [TypedstreamGroup] = []
  /// Each object's class chain, the object's class first, by ordinal.
  public private(set) var classChains: [[TypedstreamClass]] = []
  private var classes: [TypedstreamClass] = []
  private var cStrings: [[UInt8]] = []

  /// Collects the objects of an archive.
  /// - Throws: `ArchiveError` when a reference names an object, class or C string not stored before it.
  public init(_ archive: TypedstreamArchive) throws {
    for group in archive.groups {
      let resolved = try group.values.map { try resolve($0) }
      topLevel += resolved
      topLevelGroups.append(TypedstreamGroup(encoding: group.encoding, values: resolved))
    }
  }

  /// The number of literal objects.
  public var objectCount: Int { fields.count }

  private mutating func resolve(_ value: TypedstreamValue) throws -> TypedstreamValue {
    switch value {
    case .classValue(let reference?):
      // The chain as nested literals, so that the value says its superclasses without the class table.
      var resolved: TypedstreamClassReference?
      for objectClass in try chain(reference).reversed() {
        resolved = .literal(
          TypedstreamClass(name: objectClass.name, version: objectClass.version, superclass: resolved))
      }
      return .classValue(resolved)
    case .cString(.literal(let raw)?):
      cStrings.append(raw)
      return value
    case .cString(.reference(let ordinal)?):
      guard ordinal >= 0, ordinal < cStrings.count else {
        throw ArchiveError(.corruptData, "a reference to C string #\(ordinal), which the stream has not stored before")
      }
      return .cString(.literal(cStrings[ordinal]))
    case .object(.literal(let object)?):
      let ordinal = fields.count
      fields.append([])
      groups.append([])
      classChains.append(try chain(object.objectClass))
      var resolved: [TypedstreamValue] = []
      var resolvedGroups: [TypedstreamGroup] = []
      for group in object.groups {
        let values = try group.values.map { try resolve($0) }
        resolved += values
        resolvedGroups.append(TypedstreamGroup(encoding: group.encoding, values: values))
      }
      fields[ordinal] = resolved
      groups[ordinal] = resolvedGroups
      return .object(.reference(ordinal))
    case .object(.reference(let ordinal)?):
      guard ordinal >= 0, ordinal < fields.count else {
        throw ArchiveError(.corruptData, "a reference to object #\(ordinal), which the stream has not stored before")
      }
      return value
    case .array(let type, let elements): return .array(type, try elements.map { try resolve($0) })
    case .structure(let type, let elements): return .structure(type, try elements.map { try resolve($0) })
    default: return value
    }
  }

  private mutating func chain(_ reference: TypedstreamClassReference) throws -> [TypedstreamClass] {
    var chain: [TypedstreamClass] = []
    var next: TypedstreamClassReference? = reference
    var throughReference = false
    while let current = next {
      let objectClass: TypedstreamClass
      switch current {
      case .literal(let literal):
        // A literal reached through a reference is the stored class's own superclass, registered already.
        if !throughReference { classes.append(literal) }
        objectClass = literal
      case .reference(let ordinal):
        guard ordinal >= 0, ordinal < classes.count else {
          throw ArchiveError(.corruptData, "a reference to class #\(ordinal), which the stream has not stored before")
        }
        objectClass = classes[ordinal]
        throughReference = true
      }
      chain.append(objectClass)
      guard chain.count <= classes.count else {
        throw ArchiveError(.corruptData, "class \(Self.text(objectClass.name)) is its own superclass")
      }
      next = objectClass.superclass
    }
    return chain
  }

  /// The class name of object `ordinal`.
  public func className(of ordinal: Int) -> String {
    classChains[ordinal].first.map { Self.text($0.name) } ?? ""
  }

  /// The Foundation form of object `ordinal`.
  /// - Throws: `ArchiveError` naming the object when a Foundation class's fields do not have its layout.
  public func form(of ordinal: Int) throws -> Form {
    let name = className(of: ordinal)
    var fields = Fields(values: self.fields[ordinal], ordinal: ordinal, className: name)
    let form: Form
    switch name {
    case "NSString", "NSMutableString":
      form = .string(Self.text(try fields.bytes()))
    case "NSNumber":
      _ = try fields.cString()
      form = .number(try fields.next())
    case "NSData", "NSMutableData":
      let count = try fields.integer()
      if count == 0, fields.isAtEnd {
        form = .data([])
      } else {
        guard case .byteArray(_, let raw) = try fields.next(), raw.count == count else {
          throw fields.error("expected \(count) bytes of data")
        }
        form = .data(raw)
      }
    case "NSDate":
      guard case .double(let bits) = try fields.next() else { throw fields.error("expected a double") }
      form = .date(Double(bitPattern: bits))
    case "NSURL":
      let isRelative = try fields.integer() != 0
      let base: Member = isRelative ? try fields.object() : nil
      guard let stringObject = try fields.object(), Self.stringClasses.contains(className(of: stringObject)),
        case .string(let text) = try self.form(of: stringObject)
      else {
        throw fields.error("expected the URL's string")
      }
      form = .url(relative: text, base: base)
    case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet":
      let count = try fields.integer()
      guard count >= 0, count <= fields.remaining else { throw fields.error("expected \(count) members") }
      var members: [Member] = []
      for _ in 0..<count { members.append(try fields.object()) }
      form = name.hasSuffix("Set") ? .set(members) : .array(members)
    case "NSDictionary", "NSMutableDictionary":
      let count = try fields.integer()
      guard count >= 0, count <= fields.remaining / 2 else { throw fields.error("expected \(count) entries") }
      var pairs: [Pair] = []
      for _ in 0..<count { pairs.append(Pair(key: try fields.object(), value: try fields.object())) }
      form = .dictionary(pairs)
    case "NSAttributedString", "NSMutableAttributedString":
      let string = try fields.object()
      var runs: [Run] = []
      var dictionaries: [Member] = []
      var location = 0
      while !fields.isAtEnd {
        let index = try fields.integer()
        let length = try fields.integer()
        if index == dictionaries.count + 1 {
          dictionaries.append(try fields.object())
        } else if index < 1 || index > dictionaries.count {
          throw fields.error(
            "expected an attribute dictionary index from 1 to \(dictionaries.count + 1), found \(index)")
        }
        guard length >= 0 else { throw fields.error("expected a run length, found \(length)") }
        runs.append(Run(location: location, length: length, attributes: dictionaries[index - 1]))
        let (sum, overflow) = location.addingReportingOverflow(length)
        guard !overflow else { throw fields.error("run lengths overflow") }
        location = sum
      }
      form = .attributedString(string: string, runs: runs)
    case "NSNull":
      form = .null
    case "NSValue":
      let type = try fields.cString()
      form = .value(type: type, try fields.next())
    default:
      return .other
    }
    guard fields.isAtEnd else { throw fields.error("expected the end of the object's fields") }
    return form
  }

  /// The classes whose form is ``Form/string(_:)``.
  public static let stringClasses: Set<String> = ["NSString", "NSMutableString"]

  /// Text from bytes: UTF-8, invalid sequences replaced.
  public static func text(_ raw: [UInt8]) -> String { String(decoding: raw, as: UTF8.self) }

  /// The fields of one object, read in order.
  private struct Fields {
    let values: [TypedstreamValue]
    let ordinal: Int
    let className: String
    var index = 0

    init(values: [TypedstreamValue], ordinal: Int, className: String) {
      self.values = values
      self.ordinal = ordinal
      self.className = className
    }

    var isAtEnd: Bool { index >= values.count }
    var remaining: Int { values.count - index }

    func error(_ message: String) -> ArchiveError {
      ArchiveError(.corruptData, message + ", field \(index)", at: .init(objectIndex: ordinal, className: className))
    }

    mutating func next() throws -> TypedstreamValue {
      guard index < values.count else { throw error("expected another field, found the end of the object") }
      defer { index += 1 }
      return values[index]
    }

    mutating func integer() throws -> Int {
      switch try next() {
      case .signed(_, let v): if let small = Int(exactly: v) { return small }
      case .unsigned(_, let v): if let small = Int(exactly: v) { return small }
      default: break
      }
      index -= 1
      throw error("expected an integer")
    }

    mutating func bytes() throws -> [UInt8] {
      if case .bytes(let raw?) = try next() { return raw }
      index -= 1
      throw error("expected a string's bytes")
    }

    mutating func cString() throws -> [UInt8] {
      switch try next() {
      case .cString(.literal(let raw)?): return raw
      default:
        index -= 1
        throw error("expected a type string")
      }
    }

    mutating func object() throws -> Member {
      switch try next() {
      case .object(nil): return nil
      case .object(.reference(let ordinal)?): return ordinal
      default:
        index -= 1
        throw error("expected an object")
      }
    }
  }
}
