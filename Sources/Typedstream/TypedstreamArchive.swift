/// A typedstream (the sequential archive of `NSArchiver` and NeXTSTEP's `NXTypedStream`) as a value tree: the
/// header and the top-level typed groups, each value as the stream stored it (`Specs/Typedstream.md`, TS-001).
///
/// The tree keeps the stream's sharing: an object, class or C string that the stream wrote once and referred to
/// afterwards is a literal at its first appearance and a reference (by ordinal) after, so that writing the tree
/// back produces the same references.
public struct TypedstreamArchive: Equatable, Sendable {
  /// The order of multi-byte integers and reals.
  public var byteOrder: TypedstreamByteOrder
  /// The streamer version of the header (4).
  public var streamerVersion: Int
  /// The system version of the header (1000 for Mac OS X, 930 for NeXTSTEP 3.x nibs).
  public var systemVersion: Int64
  /// The top-level typed groups, in stream order.
  public var groups: [TypedstreamGroup]

  /// Creates an archive.
  public init(
    byteOrder: TypedstreamByteOrder = .little, streamerVersion: Int = 4, systemVersion: Int64 = 1000,
    groups: [TypedstreamGroup] = []
  ) {
    self.byteOrder = byteOrder
    self.streamerVersion = streamerVersion
    self.systemVersion = systemVersion
    self.groups = groups
  }

  /// Every top-level value, the groups flattened.
  public var values: [TypedstreamValue] { groups.flatMap(\.values) }
}

/// The byte order of a typedstream, given by its signature (TS-002).
public enum TypedstreamByteOrder: String, Equatable, Sendable {
  /// `streamtyped`: Intel and Apple silicon writers.
  case little
  /// `typedstream`: NeXT m68k and PowerPC writers.
  case big
}

/// One type encoding (such as `"i@"` or `"{_NSPoint=ff}"`) and a value for each type in it (TS-010).
public struct TypedstreamGroup: Equatable, Sendable {
  /// The encoding's bytes, as stored.
  public var encoding: [UInt8]
  /// The values, one for each type of the encoding.
  public var values: [TypedstreamValue]

  /// Creates a group; the values must match the encoding's types.
  public init(encoding: [UInt8], values: [TypedstreamValue]) {
    self.encoding = encoding
    self.values = values
  }

  /// Creates a group from the text of its encoding.
  public init(_ encoding: String, _ values: [TypedstreamValue]) {
    self.init(encoding: Array(encoding.utf8), values: values)
  }
}

/// One value of a typedstream, as its type code stored it (TS-020 to TS-032).
public indirect enum TypedstreamValue: Equatable, Sendable {
  /// `c s i l q`: a signed integer, sign-extended from its type's width. `c` is one raw byte.
  case signed(TypeCode, Int64)
  /// `C S I L Q`: an unsigned integer, wrapped to its type's width. `C` is one raw byte.
  case unsigned(TypeCode, UInt64)
  /// `B`: one raw byte (0 false, anything else true).
  case bool(UInt8)
  /// `f`, by its bit pattern (so that equal trees compare equal, NaN payloads included).
  case float(bits: UInt32)
  /// `d`, by its bit pattern.
  case double(bits: UInt64)
  /// `+`: unshared bytes (nil when the stream stored NIL).
  case bytes([UInt8]?)
  /// `*`: a C string, shared through the object table.
  case cString(TypedstreamCString?)
  /// `%`: an atom, a shared string.
  case atom([UInt8]?)
  /// `:`: a selector, a shared string.
  case selector([UInt8]?)
  /// `#`: a class.
  case classValue(TypedstreamClassReference?)
  /// `@`: an object.
  case object(TypedstreamObjectReference?)
  /// `[Nc]` or `[NC]`: N raw bytes.
  case byteArray(TypeNode, [UInt8])
  /// `[N t]` of any other element type: N values.
  case array(TypeNode, [TypedstreamValue])
  /// `{name=t...}`: the fields in order.
  case structure(TypeNode, [TypedstreamValue])
  /// `!`: nothing stored.
  case ignored

  /// A `float` value.
  public static func float(_ value: Float) -> TypedstreamValue { .float(bits: value.bitPattern) }
  /// A `double` value.
  public static func double(_ value: Double) -> TypedstreamValue { .double(bits: value.bitPattern) }
}

/// A one-character type code of a type encoding (`i`, `@`, `+`, ...).
public struct TypeCode: Hashable, Sendable, CustomStringConvertible {
  /// The code's byte.
  public let byte: UInt8
  /// Creates a code from its byte.
  public init(_ byte: UInt8) { self.byte = byte }
  /// Creates a code from its character (ASCII).
  public init(_ character: Unicode.Scalar) { self.byte = UInt8(truncatingIfNeeded: character.value) }
  /// The code as text.
  public var description: String { String(Unicode.Scalar(byte)) }
}

/// A C string (`*`): written out at its first appearance, referred to by ordinal afterwards.
public enum TypedstreamCString: Equatable, Sendable {
  /// A C string stored here; its ordinal is its position among the stream's literal C strings.
  case literal([UInt8])
  /// A reference to the literal C string with this ordinal.
  case reference(Int)
}

/// A class (`#`, or the class of an object): written out at its first appearance, referred to afterwards.
public indirect enum TypedstreamClassReference: Equatable, Sendable {
  /// A class stored here; its ordinal is its position among the stream's literal classes (a subclass comes
  /// before its superclass).
  case literal(TypedstreamClass)
  /// A reference to the literal class with this ordinal.
  case reference(Int)
}

/// A class as the stream stores it: name, version and superclass.
public struct TypedstreamClass: Equatable, Sendable {
  /// The class name's bytes.
  public var name: [UInt8]
  /// The class version.
  public var version: Int64
  /// The superclass, nil at the root.
  public var superclass: TypedstreamClassReference?

  /// Creates a class.
  public init(name: [UInt8], version: Int64, superclass: TypedstreamClassReference?) {
    self.name = name
    self.version = version
    self.superclass = superclass
  }

  /// Creates a class from its name's text.
  public init(_ name: String, version: Int64, superclass: TypedstreamClassReference? = nil) {
    self.init(name: Array(name.utf8), version: version, superclass: superclass)
  }
}

/// An object (`@`): written out at its first appearance, referred to by its ordinal (`$id`) afterwards.
public indirect enum TypedstreamObjectReference: Equatable, Sendable {
  /// An object stored here; its ordinal is its position among the stream's literal objects.
  case literal(TypedstreamObject)
  /// A reference to the literal object with this ordinal.
  case reference(Int)
}

/// An object: its class and the typed groups its `encodeWithCoder:` wrote.
public struct TypedstreamObject: Equatable, Sendable {
  /// The object's class.
  public var objectClass: TypedstreamClassReference
  /// The groups, in stream order.
  public var groups: [TypedstreamGroup]

  /// Creates an object.
  public init(objectClass: TypedstreamClassReference, groups: [TypedstreamGroup]) {
    self.objectClass = objectClass
    self.groups = groups
  }

  /// Every field value, the groups flattened.
  public var fields: [TypedstreamValue] { groups.flatMap(\.values) }
}
