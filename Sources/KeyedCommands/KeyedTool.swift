import ArchiveCoding
import ArchiveComparison
import Foundation
import KeyedArchive
import NibLoading
import PropertyList

/// The `keyed` command-line tool, as a library so tests can run it in-process (`Specs/CommandLineTool.md`).
public enum KeyedTool {
  /// The tool's version.
  public static let version = "0.1.0"

  /// Exit statuses (CLI-002).
  public enum ExitCode {
    /// Success.
    public static let success: Int32 = 0
    /// Any other failure (a missing file, an I/O error).
    public static let failure: Int32 = 1
    /// Bad arguments.
    public static let usage: Int32 = 64
    /// Malformed or unsupported input.
    public static let dataError: Int32 = 65
  }

  /// What a run printed and returned.
  public struct Result: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output.
    public var output: String
    /// Standard error.
    public var errors: String
  }

  /// Runs the tool with the given arguments (without the program name) on the real standard streams. A view
  /// `dump` prints is written as it is walked; the command runs on a thread whose stack holds the deepest nesting
  /// a view follows (``ExpansionBound/maxDepth``), so that the walk that writes finds no error the walk that checks
  /// did not.
  public static func main(_ arguments: [String]) -> Int32 {
    let progress = ProgressLine(arguments: arguments)
    progress.start()
    let outcome = Outcome()
    let thread = Thread {
      // Read as a pipe is (CLI-002): at most `Context.maxInputBytes`, so `keyed dump - < /dev/zero` ends in 65.
      let result = run(
        arguments, standardInput: { try Context.readToEnd(descriptor: 0, path: "<stdin>") },
        standardOutput: { FileHandle.standardOutput.write(Data($0)) })
      outcome.finish(result)
    }
    thread.stackSize = mainStackSize
    thread.start()
    let result = outcome.wait()
    progress.finish()
    FileHandle.standardOutput.write(Data(result.output.utf8))
    FileHandle.standardError.write(Data(result.errors.utf8))
    return result.status
  }

  /// The stack of the thread ``main(_:)`` runs a command on.
  static let mainStackSize = 64 << 20

  /// The result of a command run on another thread, handed back once.
  private final class Outcome: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result?

    func finish(_ result: Result) {
      self.result = result
      done.signal()
    }

    func wait() -> Result {
      done.wait()
      return result ?? Result(status: KeyedTool.ExitCode.failure, output: "", errors: "")
    }
  }

  /// Runs the tool in-process.
  /// - Parameters:
  ///   - arguments: the arguments, without the program name.
  ///   - standardInput: reads standard input when the file argument is `-` (called once at most); an error it
  ///     throws ends the command as a failed read would.
  ///   - standardOutput: where a view `dump` prints goes as it is walked; `nil` to have it in the result's output.
  /// - Returns: the status and what was printed (what went to `standardOutput` apart).
  public static func run(
    _ arguments: [String], standardInput: @escaping () throws -> Data = { Data() },
    standardOutput: (([UInt8]) -> Void)? = nil
  ) -> Result {
    var context = Context(standardInput: standardInput)
    context.standardOutput = standardOutput
    let status = context.dispatch(arguments)
    return Result(status: status, output: context.output, errors: context.errors)
  }
}

struct UsageError: Error {
  var message: String
}

struct Context {
  /// Standard input, read once: a verb may look at its input's format before reading it (as for ``streams``).
  var standardInput: () throws -> Data {
    { [streams, readStandardInput] in
      if let known = streams.standardInput { return try known.get() }
      let result = Result { try readStandardInput() }
      streams.standardInput = result
      return try result.get()
    }
  }
  private let readStandardInput: () throws -> Data
  var output = ""
  var errors = ""
  /// Where a view is written as it is walked (the tool's standard output), or `nil` to collect it in ``output``.
  var standardOutput: (([UInt8]) -> Void)?
  /// The bytes of each pipe, FIFO or device read so far: a stream can be read only once, and a verb may look at its
  /// input's format before reading it.
  let streams = StreamCache()

  final class StreamCache {
    /// What reading each stream gave, its failure included: a stream read again would give other bytes.
    var contents: [String: Result<Data, any Error>] = [:]
    /// What reading standard input gave, once read.
    var standardInput: Result<Data, any Error>?
  }

  init(standardInput: @escaping () throws -> Data) { readStandardInput = standardInput }

  mutating func dispatch(_ arguments: [String]) -> Int32 {
    guard let verb = arguments.first else {
      errors += Help.overview
      return KeyedTool.ExitCode.usage
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
      guard let text = Help.verbs[verb] else { return usage("unknown command '\(verb)'") }
      output += text
      return KeyedTool.ExitCode.success
    }
    switch verb {
    case "--version", "version":
      output += "keyed \(KeyedTool.version)\n"
      return KeyedTool.ExitCode.success
    case "help", "--help", "-h":
      if let topic = rest.first {
        guard let text = Help.verbs[topic] else { return usage("unknown command '\(topic)'") }
        output += text
      } else {
        output += Help.overview
      }
      return KeyedTool.ExitCode.success
    case "dump": return run { try $0.dump(rest) }
    case "convert": return run { try $0.convert(rest) }
    case "validate": return run { try $0.validate(rest) }
    case "demo": return run { try $0.demo(rest) }
    case "instantiate": return run { try $0.instantiate(rest) }
    case "compile": return run { try $0.compile(rest) }
    case "diff":
      var status = KeyedTool.ExitCode.success
      let outcome = run { status = try $0.diff(rest) }
      return outcome == KeyedTool.ExitCode.success ? status : outcome
    case "render": return run { try $0.render(rest) }
    default:
      return usage("unknown command '\(verb)'")
    }
  }

  mutating func usage(_ message: String) -> Int32 {
    errors += "keyed: \(message)\nRun 'keyed help' for the list of commands.\n"
    return KeyedTool.ExitCode.usage
  }

  mutating func run(_ body: (inout Context) throws -> Void) -> Int32 {
    do {
      try body(&self)
      return KeyedTool.ExitCode.success
    } catch let error as UsageError {
      return usage(error.message)
    } catch let error as InputError {
      errors += "keyed: \(error.message)\n"
      return error.status
    } catch let error as ArchiveError {
      errors += "keyed: \(error.description.split(separator: "\n").first.map(String.init) ?? "")\n"
      return error.code == .fileIO ? KeyedTool.ExitCode.failure : KeyedTool.ExitCode.dataError
    } catch {
      errors += "keyed: \(error)\n"
      return KeyedTool.ExitCode.failure
    }
  }

  // MARK: Arguments

  struct Parsed {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positional: [String] = []
  }

  /// Options and the file may come in any order (CLI-001).
  func parse(_ arguments: [String], flags: Set<String>, valued: Set<String>) throws -> Parsed {
    var parsed = Parsed()
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if flags.contains(argument) {
        parsed.flags.insert(argument)
      } else if valued.contains(argument) {
        guard index + 1 < arguments.count else { throw UsageError(message: "\(argument) needs a value") }
        parsed.values[argument] = arguments[index + 1]
        index += 1
      } else if argument.hasPrefix("-"), argument != "-" {
        throw UsageError(message: "unknown option '\(argument)'")
      } else {
        parsed.positional.append(argument)
      }
      index += 1
    }
    return parsed
  }

  func singleInput(_ parsed: Parsed) throws -> String {
    guard parsed.positional.count == 1, let file = parsed.positional.first else {
      throw UsageError(message: parsed.positional.isEmpty ? "missing FILE argument" : "expected one FILE argument")
    }
    return file
  }

  /// The `-o`/`--output` value, or a usage error with the message.
  func outputPath(_ parsed: Parsed, missing message: String) throws -> String {
    guard let out = parsed.values["-o"] ?? parsed.values["--output"] else { throw UsageError(message: message) }
    return out
  }

  struct InputError: Error {
    var message: String
    var status: Int32
  }

  /// Reads a file argument (`-` is standard input).
  func read(_ path: String) throws -> Data {
    if path == "-" { return try standardInput() }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw InputError(message: "\(path): no such file", status: KeyedTool.ExitCode.failure)
    }
    if isDirectory.boolValue {
      throw InputError(message: "\(path): is a directory, not a supported input", status: KeyedTool.ExitCode.dataError)
    }
    if !Self.isRegularFile(path) { return try readStream(path) }
    try Self.checkSize(path)
    do {
      // Mapped, not copied: a view is walked in place from the file's pages.
      return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    } catch {
      throw InputError(
        message: "\(path): cannot be read (\(error.localizedDescription))", status: KeyedTool.ExitCode.failure)
    }
  }

  /// The most bytes an input may hold: a pipe, FIFO, device or standard input is read up to this, a regular file
  /// larger than this is refused before it is read (its bytes are held, and a binary plist's copied once more).
  static let maxInputBytes = 1 << 30

  /// Refuses a regular file larger than `limit` bytes before reading it (exit 65).
  static func checkSize(_ path: String, limit: Int = maxInputBytes) throws {
    var status = stat()
    guard stat(path, &status) == 0, Int64(status.st_size) > Int64(limit) else { return }
    throw InputError(
      message: "\(path): \(status.st_size) bytes, more than the \(limit) an input may hold",
      status: KeyedTool.ExitCode.dataError)
  }
  /// How long a pipe, FIFO or device may stay silent before it is read: a FIFO's writer opening it.
  static let streamWaitMilliseconds = 5_000

  /// `true` for a regular file (or a link to one); `false` for pipes, FIFOs, devices, sockets and missing paths.
  static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  /// Reads a pipe, FIFO or device to its end, at most ``maxInputBytes``, once per invocation (``streams``). It is
  /// opened without blocking, then given ``streamWaitMilliseconds`` to have something to read or reach its end (a
  /// FIFO nobody opens for writing fails then, instead of blocking the open forever).
  func readStream(_ path: String) throws -> Data {
    if let known = streams.contents[path] { return try known.get() }
    let result = Result { try readStreamOnce(path) }
    streams.contents[path] = result
    return try result.get()
  }

  /// The failure of a system call on `path`, with `errno`'s text.
  private static func unreadable(_ path: String) -> InputError {
    InputError(
      message: "\(path): cannot be read (\(String(cString: strerror(errno))))", status: KeyedTool.ExitCode.failure)
  }

  private func readStreamOnce(_ path: String) throws -> Data {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK)
    guard descriptor >= 0 else { throw Self.unreadable(path) }
    defer { close(descriptor) }
    // A FIFO's writer may open it a moment after this process does; one that nobody opens within the wait is not
    // waited for forever (the open above did not block).
    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    var waited = 0
    while poll(&ready, 1, Int32(Self.streamWaitMilliseconds)) < 0 && errno == EINTR && waited < 100 { waited += 1 }
    guard ready.revents != 0 else {
      throw InputError(
        message: "\(path): nothing wrote to it within \(Self.streamWaitMilliseconds / 1000) seconds",
        status: KeyedTool.ExitCode.failure)
    }
    // Blocking reads from here on: a writer that is still writing is waited for.
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    return try Self.readToEnd(descriptor: descriptor, path: path)
  }

  /// Reads `descriptor` to its end, at most `limit` bytes (more is exit 65, naming `path`).
  static func readToEnd(descriptor: Int32, path: String, limit: Int = maxInputBytes) throws -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { readDescriptor(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return data }
      if count < 0 {
        if errno == EINTR { continue }
        throw Self.unreadable(path)
      }
      guard data.count + count <= limit else {
        throw InputError(
          message: "\(path): more than \(limit) bytes, more than an input may hold",
          status: KeyedTool.ExitCode.dataError)
      }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  func name(_ path: String) -> String { path == "-" ? "<stdin>" : path }

  func inputError(_ path: String, _ error: ArchiveError) -> InputError {
    let located = error.located(in: .init(file: name(path)))
    var text = located.description.split(separator: "\n").first.map(String.init) ?? located.message
    if !text.hasPrefix(name(path)) { text = "\(name(path)): \(text)" }
    return InputError(message: text, status: KeyedTool.ExitCode.dataError)
  }

  /// Reads a property list, turning its errors into one-line diagnostics naming the file.
  func readPropertyList(_ path: String, data: Data) throws -> PropertyListValue {
    do {
      return try PropertyListReader.read(data, fileName: name(path))
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
  }

  /// A dictionary with any of the archive's top-level keys is treated as a keyed archive, so a damaged archive
  /// (one key missing) is reported as such instead of passing as a plain property list.
  static func isKeyedArchive(_ value: PropertyListValue) -> Bool {
    KeyedArchiveContainer.looksLikeKeyedArchive(value)
  }

  // MARK: Verbs

  mutating func dump(_ arguments: [String]) throws {
    let parsed = try parse(arguments, flags: ["--json", "--raw", "--pretty", "--dot"], valued: [])
    let path = try singleInput(parsed)
    let pretty = parsed.flags.contains("--pretty")
    if isTypedstreamInput(path) {
      try dumpTypedstream(
        path, raw: parsed.flags.contains("--raw"), json: parsed.flags.contains("--json"), pretty: pretty)
      return
    }
    if isNibInput(path) && !parsed.flags.contains("--raw") || parsed.flags.contains("--dot") {
      let rendering = TableRendering(table: try readObjectTable(path))
      do {
        if parsed.flags.contains("--dot") {
          output += try rendering.dot()
        } else if parsed.flags.contains("--json") {
          output += try rendering.json(pretty: pretty) + "\n"
        } else {
          output += try rendering.tree()
        }
      } catch let error as ArchiveError {
        throw inputError(path, error)
      }
      return
    }
    try dumpPropertyList(
      path, raw: parsed.flags.contains("--raw"), json: parsed.flags.contains("--json"), pretty: pretty)
  }

  mutating func convert(_ arguments: [String]) throws {
    let parsed = try parse(arguments, flags: [], valued: ["-o", "--output", "--format"])
    let path = try singleInput(parsed)
    guard let out = parsed.values["-o"] ?? parsed.values["--output"] else {
      throw UsageError(message: "missing -o OUT")
    }
    if isTypedstreamInput(path) {
      try convertTypedstream(path, to: out, format: parsed.values["--format"])
      return
    }
    if parsed.values["--format"] == "typedstream" {
      try convertToTypedstream(path, to: out)
      return
    }
    let formatName = parsed.values["--format"] ?? "binary"
    guard let format = PropertyListFormat(rawValue: formatName) else {
      throw UsageError(message: "unknown format '\(formatName)' (expected binary or xml)")
    }
    let data = try read(path)
    let value = try readPropertyList(path, data: data)
    if Self.isKeyedArchive(value) {
      do {
        _ = try KeyedUnarchiver(forReadingFrom: data, requiringSecureCoding: false)
      } catch let error as ArchiveError {
        throw inputError(path, error)
      }
    }
    let encoded: Data
    do {
      try ExpansionBound.check(value)
      // Without loss: a set, which the XML form has no element for, is refused rather than written as an array.
      encoded =
        format == .xml
        ? try XMLPropertyListWriter.write(value, sets: .refuse) : try PropertyListWriter.write(value, format: format)
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
    try AtomicFile.write(encoded, to: URL(fileURLWithPath: out))
  }

  mutating func validate(_ arguments: [String]) throws {
    let parsed = try parse(arguments, flags: [], valued: [])
    let path = try singleInput(parsed)
    if isTypedstreamInput(path) {
      try validateTypedstream(path)
      return
    }
    if isNibInput(path) {
      try validateNib(try readObjectTable(path), path: path)
      return
    }
    try validatePropertyList(path)
  }

  /// Instantiates `table` with generic objects for every class (an empty registry), checking its references and
  /// connections, and prints the one-line summary.
  mutating func validateNib(_ table: ObjectTable, path: String) throws {
    do {
      let instance = try Nib(table: table, name: name(path), registry: ClassRegistry()).instantiateGraph(
        owner: GenericNibObject(className: "FilesOwner"),
        options: NibOptions(missingOwnerPolicy: .skipConnections, warning: nil))
      output += "\(name(path)): valid nib document, \(instance.statistics.objects) objects, "
      output += "\(table.connections.count) connections\n"
    } catch let error as ArchiveError {
      throw inputError(path, error)
    }
  }
}

/// The system's `read(2)` (inside the tool's types `read` names its own method).
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
