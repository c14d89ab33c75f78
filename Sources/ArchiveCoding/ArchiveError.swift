/// The one public error type of the KeyedArchive family of modules.
///
/// Every failure, whatever the layer (property list bytes, keyed archive structure, class lookup, XIB XML,
/// compiled nibs, file I/O), is reported as an `ArchiveError` whose ``description`` says where the problem is,
/// what was expected and what was found:
///
///     object #12 (UIButton), key "UITitle": expected a string, found an integer
///     Main.xib:41:17: error: unknown connection kind "binding"
///
/// The type is a struct with an open-ended ``Code`` so that new kinds of failure can be added without breaking
/// clients that switch over codes.
public struct ArchiveError: Error, CustomStringConvertible, Sendable {
  /// A stable, extensible identifier for a kind of failure.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `"corruptData"`.
    public let name: String
    /// Creates a code with the given name.
    public init(_ name: String) { self.name = name }
    /// The code's name.
    public var description: String { name }

    /// The input is not well formed (bad magic, offsets out of range, a reference past the end, malformed XML).
    public static let corruptData = Code("corruptData")
    /// The input is well formed but of a kind or version this library does not read.
    public static let unsupportedFormat = Code("unsupportedFormat")
    /// A decoding limit (depth, object count, length, total size) was exceeded.
    public static let limitExceeded = Code("limitExceeded")
    /// A value had another type than the one asked for.
    public static let typeMismatch = Code("typeMismatch")
    /// A required value was absent.
    public static let valueNotFound = Code("valueNotFound")
    /// An archived class name has no registered Swift type.
    public static let classNotFound = Code("classNotFound")
    /// A class is not in the allowed set of a secure decode, or does not support secure coding.
    public static let classNotAllowed = Code("classNotAllowed")
    /// A reference cycle that cannot be resolved where it was met.
    public static let referenceCycle = Code("referenceCycle")
    /// A value cannot be encoded (for example a class that does not support secure coding).
    public static let invalidValue = Code("invalidValue")
    /// A connection (outlet, action, key path) could not be made.
    public static let connectionFailed = Code("connectionFailed")
    /// Reading or writing a file failed.
    public static let fileIO = Code("fileIO")
    /// Any other failure.
    public static let other = Code("other")
  }

  /// Where a failure happened. Every field is optional; the description shows the ones that are set.
  public struct Location: Hashable, Sendable, CustomStringConvertible {
    /// The file being read, when known.
    public var file: String?
    /// A 1-based line in a text input.
    public var line: Int?
    /// A 1-based column in a text input.
    public var column: Int?
    /// A byte offset in a binary input.
    public var byteOffset: Int?
    /// An index in the input's object table (`$objects` index, bplist object number, nib object index).
    public var objectIndex: Int?
    /// The archived class name of the object being decoded.
    public var className: String?
    /// The key or dotted key path being decoded.
    public var keyPath: String?

    /// Creates a location; every field defaults to unknown.
    public init(
      file: String? = nil, line: Int? = nil, column: Int? = nil, byteOffset: Int? = nil,
      objectIndex: Int? = nil, className: String? = nil, keyPath: String? = nil
    ) {
      self.file = file
      self.line = line
      self.column = column
      self.byteOffset = byteOffset
      self.objectIndex = objectIndex
      self.className = className
      self.keyPath = keyPath
    }

    /// `true` when no field is set.
    public var isEmpty: Bool {
      file == nil && line == nil && column == nil && byteOffset == nil && objectIndex == nil && className == nil
        && keyPath == nil
    }

    /// The location as text: `file:line:column`, then `byte N`, `object #N (Class)`, `key "k"`.
    public var description: String {
      var parts: [String] = []
      if let file {
        var head = file
        if let line {
          head += ":\(line)"
          if let column { head += ":\(column)" }
        }
        parts.append(head)
      } else if let line {
        parts.append(column.map { "line \(line), column \($0)" } ?? "line \(line)")
      }
      // A line and column already say where in a text input; the byte offset is for binary inputs.
      if let byteOffset, line == nil { parts.append("byte \(byteOffset)") }
      if let objectIndex {
        parts.append(className.map { "object #\(objectIndex) (\($0))" } ?? "object #\(objectIndex)")
      } else if let className {
        parts.append("class \(className)")
      }
      if let keyPath { parts.append("key \"\(keyPath)\"") }
      return parts.joined(separator: ", ")
    }
  }

  /// The kind of failure.
  public var code: Code
  /// What was expected and what was found, without the location.
  public var message: String
  /// Where the failure happened.
  public var location: Location
  /// An error that caused this one, if any.
  public var underlying: (any Error & Sendable)?
  /// For text inputs: the offending source line, shown under the message with a caret at ``Location/column``.
  public var sourceLine: String?

  /// Creates an error.
  /// - Parameters:
  ///   - code: the kind of failure.
  ///   - message: what was expected and what was found.
  ///   - location: where it happened.
  ///   - underlying: the error that caused this one.
  ///   - sourceLine: for text inputs, the line the failure is on.
  public init(
    _ code: Code, _ message: String, at location: Location = Location(), underlying: (any Error & Sendable)? = nil,
    sourceLine: String? = nil
  ) {
    self.code = code
    self.message = message
    self.location = location
    self.underlying = underlying
    self.sourceLine = sourceLine
  }

  /// The full text: location, message and, for text inputs, the source line with a caret.
  ///
  /// Text inputs use compiler style (`Main.xib:41:17: error: ...`); other inputs put the location first
  /// (`object #12 (UIButton), key "UITitle": expected a string, found an integer`).
  public var description: String {
    var text: String
    if location.isEmpty {
      text = message
    } else if location.file != nil, location.line != nil {
      text = "\(location): error: \(message)"
    } else {
      text = "\(location): \(message)"
    }
    if let underlying { text += " (\(underlying))" }
    if let sourceLine, let column = location.column, column >= 1 {
      text += "\n\(sourceLine)\n" + String(repeating: " ", count: column - 1) + "^"
    }
    return text
  }

  /// The same error with the location fields that are unset in it filled from `outer`.
  ///
  /// Inner layers know the byte offset or key; outer layers add the object index or file name.
  public func located(in outer: Location) -> ArchiveError {
    var copy = self
    if copy.location.file == nil { copy.location.file = outer.file }
    if copy.location.line == nil { copy.location.line = outer.line }
    if copy.location.column == nil { copy.location.column = outer.column }
    if copy.location.byteOffset == nil { copy.location.byteOffset = outer.byteOffset }
    if copy.location.objectIndex == nil { copy.location.objectIndex = outer.objectIndex }
    if copy.location.className == nil { copy.location.className = outer.className }
    if copy.location.keyPath == nil { copy.location.keyPath = outer.keyPath }
    return copy
  }
}
