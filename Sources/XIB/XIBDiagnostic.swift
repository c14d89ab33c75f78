/// A problem found in a document that does not stop it from being read (an unknown element, a dangling constraint
/// item), in compiler style: `Main.xib:12:9: warning: unknown element <frobnicator>`.
public struct XIBDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// The file name given when reading, if any.
  public var file: String?
  /// The 1-based line.
  public var line: Int
  /// The 1-based column.
  public var column: Int
  /// What was found.
  public var message: String

  /// Creates a diagnostic.
  public init(file: String?, line: Int, column: Int, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  /// `File.xib:12:9: warning: message` (or `line 12, column 9: warning: message` without a file name).
  public var description: String {
    if let file { return "\(file):\(line):\(column): warning: \(message)" }
    return "line \(line), column \(column): warning: \(message)"
  }
}
