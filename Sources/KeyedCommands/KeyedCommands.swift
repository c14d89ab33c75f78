/// The `keyed` command-line tool, as a library so tests can run it in-process.
public enum KeyedTool {
  /// Runs the tool with the given arguments (without the program name) and returns the exit status.
  public static func main(_ arguments: [String]) -> Int32 {
    0
  }
}
