import ArchiveCoding

/// What one typedstream object of a Foundation class holds, read from its sequential form (TS-071 to TS-079):
/// other objects are named by their ordinal (`$id`), fields the form passes on by their index, so that each
/// consumer (the typedstream's canonical view, the sequential unarchiver) follows, shares or cuts them as it needs.
package enum SequentialForm: Equatable, Sendable {
  /// `NSString`, `NSMutableString`: the UTF-8 bytes (TS-071).
  case string([UInt8])
  /// `NSNumber`: the field holding the value, typed as the stream typed it (TS-072).
  case number(field: Int)
  /// `NSData`, `NSMutableData`: the bytes (TS-073).
  case data([UInt8])
  /// `NSDate`: seconds since 2001-01-01 (TS-074).
  case date(Double)
  /// `NSURL`: its string, and the base URL object it is relative to (TS-075).
  case url(relative: String, base: Int?)
  /// `NSArray`, `NSMutableArray` (TS-076).
  case array([Int?])
  /// `NSSet`, `NSMutableSet` (TS-076).
  case set([Int?])
  /// `NSDictionary`, `NSMutableDictionary`: keys and values in stream order (TS-076).
  case dictionary([Pair])
  /// `NSAttributedString`, `NSMutableAttributedString`: the string object and the runs (TS-077).
  case attributedString(string: Int?, runs: [Run])
  /// `NSNull`.
  case null
  /// `NSValue`: its type encoding and the field holding its value (TS-078).
  case value(type: [UInt8], field: Int)

  /// A dictionary entry.
  package struct Pair: Equatable, Sendable {
    package var key: Int?
    package var value: Int?
  }

  /// An attributed string's run: where it starts, its length in UTF-16 units and its attribute dictionary.
  package struct Run: Equatable, Sendable {
    package var location: Int
    package var length: Int
    package var attributes: Int?
  }

  /// The classes whose form is ``string(_:)``.
  package static let stringClasses: Set<String> = [FoundationClass.string, FoundationClass.mutableString]

  /// Reads the sequential form of object `ordinal` of class `className`; `nil` for a class without one.
  /// - Throws: ``/ArchiveCoding/ArchiveError`` (`corruptData`, naming the object, its class and the field) when the fields do not
  ///   have the class's layout (TS-079).
  package static func read(
    className: String, ordinal: Int, from source: some SequentialFormSource
  ) throws -> SequentialForm? {
    var fields = Cursor(source: source, ordinal: ordinal, className: className)
    let form: SequentialForm
    switch className {
    case FoundationClass.string, FoundationClass.mutableString:
      form = .string(try fields.bytes())
    case FoundationClass.number:
      _ = try fields.cString()
      form = .number(field: try fields.skip())
    case FoundationClass.data, FoundationClass.mutableData:
      let count = try fields.integer()
      if count == 0, fields.isAtEnd {
        form = .data([])
      } else {
        guard case .byteArray(let raw) = try fields.next(), raw.count == count else {
          throw fields.error("expected \(count) bytes of data")
        }
        form = .data(raw)
      }
    case FoundationClass.date:
      guard case .double(let seconds) = try fields.next() else { throw fields.error("expected a double") }
      form = .date(seconds)
    case FoundationClass.url:
      let isRelative = try fields.integer() != 0
      let base = isRelative ? try fields.object() : nil
      guard let stringObject = try fields.object(), let text = try source.text(ofObject: stringObject) else {
        throw fields.error("expected the URL's string")
      }
      form = .url(relative: text, base: base)
    case FoundationClass.array, FoundationClass.mutableArray, FoundationClass.set, FoundationClass.mutableSet:
      let count = try fields.integer()
      guard count >= 0, count <= fields.remaining else { throw fields.error("expected \(count) members") }
      var members: [Int?] = []
      for _ in 0..<count { members.append(try fields.object()) }
      form = className.hasSuffix("Set") ? .set(members) : .array(members)
    case FoundationClass.dictionary, FoundationClass.mutableDictionary:
      let count = try fields.integer()
      guard count >= 0, count <= fields.remaining / 2 else { throw fields.error("expected \(count) entries") }
      var pairs: [Pair] = []
      for _ in 0..<count { pairs.append(Pair(key: try fields.object(), value: try fields.object())) }
      form = .dictionary(pairs)
    case FoundationClass.attributedString, FoundationClass.mutableAttributedString:
      let string = try fields.object()
      var runs: [Run] = []
      var dictionaries: [Int?] = []
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
    case FoundationClass.null:
      form = .null
    case FoundationClass.value:
      let type = try fields.cString()
      form = .value(type: type, field: try fields.skip())
    default:
      return nil
    }
    guard fields.isAtEnd else { throw fields.error("expected the end of the object's fields") }
    return form
  }

  /// The fields of one object, read in order.
  private struct Cursor<Source: SequentialFormSource> {
    let source: Source
    let ordinal: Int
    let className: String
    var index = 0

    var isAtEnd: Bool { index >= source.fieldCount }
    var remaining: Int { source.fieldCount - index }

    func error(_ message: String) -> ArchiveError {
      ArchiveError(.corruptData, message + ", field \(index)", at: .init(objectIndex: ordinal, className: className))
    }

    mutating func next() throws -> SequentialFormField {
      guard index < source.fieldCount else { throw error("expected another field, found the end of the object") }
      defer { index += 1 }
      return source.field(index)
    }

    /// Passes over a field the form keeps by its index.
    mutating func skip() throws -> Int {
      _ = try next()
      return index - 1
    }

    mutating func integer() throws -> Int {
      if case .integer(let value) = try next() { return value }
      index -= 1
      throw error("expected an integer")
    }

    mutating func bytes() throws -> [UInt8] {
      if case .bytes(let raw?) = try next() { return raw }
      index -= 1
      throw error("expected a string's bytes")
    }

    mutating func cString() throws -> [UInt8] {
      if case .cString(let raw?) = try next() { return raw }
      index -= 1
      throw error("expected a type string")
    }

    mutating func object() throws -> Int? {
      if case .object(let ordinal) = try next() { return ordinal }
      index -= 1
      throw error("expected an object")
    }
  }
}

extension SequentialForm {
  /// The geometry an `NSValue` of type encoding `type` holds (FORM-061): a structure whose name ends in `Point`,
  /// `Size`, `Rect` or `Range` (`{_NSPoint=ff}`, `{CGRect={CGPoint=dd}{CGSize=dd}}`, `{_NSRange=QQ}`), with the
  /// number of numbers that kind has (2, 2, 4, 2); `nil` for any other type.
  package static func geometryKind(ofType type: [UInt8], numberCount: Int) -> GeometryKind? {
    guard type.first == UInt8(ascii: "{") else { return nil }
    let name = String(decoding: type.dropFirst().prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
    for kind in [GeometryKind.point, .size, .rect, .range] where name.hasSuffix(kind.structureSuffix) {
      return numberCount == kind.numberCount ? kind : nil
    }
    return nil
  }

  /// The kinds of geometry an `NSValue` holds.
  package enum GeometryKind: String, Sendable {
    case point, size, rect, range

    /// How the names of the structures of this kind end.
    var structureSuffix: String {
      switch self {
      case .point: "Point"
      case .size: "Size"
      case .rect: "Rect"
      case .range: "Range"
      }
    }

    /// How many numbers the kind has.
    package var numberCount: Int { self == .rect ? 4 : 2 }
  }
}
