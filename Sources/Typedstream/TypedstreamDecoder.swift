import ArchiveCoding
import FoundationForms

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

  /// The Foundation form of object `ordinal`, as `FoundationForms` reads its sequential layout (FORM-060).
  /// - Throws: `ArchiveError` naming the object when a Foundation class's fields do not have its layout.
  public func form(of ordinal: Int) throws -> Form {
    let values = fields[ordinal]
    let source = FormSource(decoder: self, values: values)
    switch try SequentialForm.read(className: className(of: ordinal), ordinal: ordinal, from: source) {
    case nil: return .other
    case .string(let raw): return .string(Self.text(raw))
    case .number(let field): return .number(values[field])
    case .data(let raw): return .data(raw)
    case .date(let seconds): return .date(seconds)
    case .url(let relative, let base): return .url(relative: relative, base: base)
    case .array(let members): return .array(members)
    case .set(let members): return .set(members)
    case .dictionary(let pairs): return .dictionary(pairs.map { Pair(key: $0.key, value: $0.value) })
    case .attributedString(let string, let runs):
      return .attributedString(
        string: string, runs: runs.map { Run(location: $0.location, length: $0.length, attributes: $0.attributes) })
    case .null: return .null
    case .value(let type, let field): return .value(type: type, values[field])
    }
  }

  /// An object's fields as the sequential forms read them.
  private struct FormSource: SequentialFormSource {
    let decoder: TypedstreamDecoder
    let values: [TypedstreamValue]

    var fieldCount: Int { values.count }

    func field(_ index: Int) -> SequentialFormField {
      switch values[index] {
      case .signed(_, let v): if let small = Int(exactly: v) { return .integer(small) }
      case .unsigned(_, let v): if let small = Int(exactly: v) { return .integer(small) }
      case .bytes(let raw): return .bytes(raw)
      case .cString(.literal(let raw)?): return .cString(raw)
      case .cString(nil): return .cString(nil)
      case .byteArray(_, let raw): return .byteArray(raw)
      case .double(let bits): return .double(Double(bitPattern: bits))
      case .object(nil): return .object(nil)
      case .object(.reference(let ordinal)?): return .object(ordinal)
      default: break
      }
      return .other
    }

    func text(ofObject ordinal: Int) throws -> String? {
      guard SequentialForm.stringClasses.contains(decoder.className(of: ordinal)),
        case .string(let text) = try decoder.form(of: ordinal)
      else { return nil }
      return text
    }
  }

  /// The classes whose form is ``Form/string(_:)``.
  public static let stringClasses: Set<String> = SequentialForm.stringClasses

  /// Text from bytes: UTF-8, invalid sequences replaced.
  public static func text(_ raw: [UInt8]) -> String { String(decoding: raw, as: UTF8.self) }
}
