import ArchiveCoding
import ArchiveComparison
import ArchiveSupport
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
    // On a thread of its own; on this one when the system gives none (under a small limit of address space).
    let ran = SideBySide.onOwnThread(stackSize: mainStackSize) { () -> Result in
      // Read as a pipe is (CLI-002): at most `Context.maxInputBytes`, so `keyed dump - < /dev/zero` ends in 65.
      var context = Context(standardInput: { try Context.readToEnd(descriptor: 0, path: "<stdin>") })
      context.sink = writeStandardStreams
      context.standardOutput = { FileHandle.standardOutput.write(Data($0)) }
      let status = context.dispatch(arguments)
      return Result(status: status, output: context.output, errors: context.errors)
    }
    let result = (try? ran.get()) ?? Result(status: KeyedTool.ExitCode.failure, output: "", errors: "")
    progress.finish()
    writeStandardStreams(result.output, result.errors)
    return result.status
  }

  private static func writeStandardStreams(_ output: String, _ errors: String) {
    if !output.isEmpty { FileHandle.standardOutput.write(Data(output.utf8)) }
    if !errors.isEmpty { FileHandle.standardError.write(Data(errors.utf8)) }
  }

  /// The stack of the thread ``main(_:)`` runs a command on.
  static let mainStackSize = 64 << 20

  /// Runs the tool in-process.
  /// - Parameters:
  ///   - arguments: the arguments, without the program name.
  ///   - standardInput: reads standard input when the file argument is `-` (called once at most); an error it
  ///     throws ends the command as a failed read would.
  /// - Returns: the status and what was printed.
  public static func run(_ arguments: [String], standardInput: @escaping () throws -> Data = { Data() }) -> Result {
    var context = Context(standardInput: standardInput)
    let status = context.dispatch(arguments)
    return Result(status: status, output: context.output, errors: context.errors)
  }

  /// The verbs, in the order `keyed help` lists them.
  static var commands: [any Command.Type] {
    [
      DemoCommand.self, DumpCommand.self, ConvertCommand.self, ValidateCommand.self, InstantiateCommand.self,
      CompileCommand.self, DiffCommand.self, RenderCommand.self, HelpCommand.self,
    ]
  }

  /// The verb named `name`, if there is one.
  static func command(named name: String) -> (any Command.Type)? {
    commands.first { $0.configuration.name == name }
  }
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
  /// Where ``flush()`` sends what was printed (standard output, standard error); `nil` keeps it in ``output`` and
  /// ``errors``.
  var sink: ((String, String) -> Void)?
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
      errors += HelpText.overview(KeyedTool.commands)
      return KeyedTool.ExitCode.usage
    }
    let rest = Array(arguments.dropFirst())
    switch verb {
    case "--version", "version":
      output += "keyed \(KeyedTool.version)\n"
      return KeyedTool.ExitCode.success
    case "--help", "-h":
      return execute(HelpCommand.self, rest)
    default:
      guard let command = KeyedTool.command(named: verb) else {
        errors += "keyed: unknown command '\(verb)'\nRun 'keyed help' for the list of commands.\n"
        return KeyedTool.ExitCode.usage
      }
      return execute(command, rest)
    }
  }

  /// Parses `arguments` into a `C` and runs it: `--help` anywhere (before `--`) prints the verb's help, a usage
  /// error its usage line (CLI-001, CLI-003, CLI-130).
  mutating func execute<C: Command>(_ type: C.Type, _ arguments: [String]) -> Int32 {
    if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
      output += HelpText.help(type)
      return KeyedTool.ExitCode.success
    }
    do {
      let command = try CommandParser.parse(type, arguments)
      try command.run(&self)
      return KeyedTool.ExitCode.success
    } catch let error as UsageError {
      errors += HelpText.usageError(error.message, type)
      return KeyedTool.ExitCode.usage
    } catch let exit as CommandExit {
      return exit.status
    } catch {
      let (message, status) = Self.diagnostic(error)
      errors += "keyed: \(message)\n"
      return status
    }
  }

  /// The one-line diagnostic of a failed command (without the tool's name) and its exit status (CLI-002).
  static func diagnostic(_ error: any Error) -> (message: String, status: Int32) {
    switch error {
    case let error as InputError:
      return (error.message, error.status)
    case let error as ArchiveError:
      let line = error.description.split(separator: "\n").first.map(String.init) ?? ""
      return (line, error.code == .fileIO ? KeyedTool.ExitCode.failure : KeyedTool.ExitCode.dataError)
    default:
      return ("\(error)", KeyedTool.ExitCode.failure)
    }
  }

  /// Hands what was printed so far to ``sink`` (the process's standard streams), when there is one: a command
  /// that reads many files prints each file's result as it goes.
  mutating func flush() {
    guard let sink, !(output.isEmpty && errors.isEmpty) else { return }
    sink(output, errors)
    output = ""
    errors = ""
  }

  /// Runs `body` on an empty ``output`` and returns what it printed there; ``output`` is left as it was.
  mutating func captured(_ body: (inout Context) throws -> Void) throws -> String {
    let kept = output
    output = ""
    // What `body` prints is collected here, not streamed.
    let stream = standardOutput
    standardOutput = nil
    defer { standardOutput = stream }
    do {
      try body(&self)
    } catch {
      output = kept
      throw error
    }
    let printed = output
    output = kept
    return printed
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

  /// `keyed dump` of one file (CLI-010 to CLI-015), printed as the flags say.
  mutating func dump(_ path: String, json: Bool, raw: Bool, pretty: Bool, dot: Bool) throws {
    if isTypedstreamInput(path) {
      try dumpTypedstream(path, raw: raw, json: json, pretty: pretty)
      return
    }
    if isNibInput(path) && !raw || dot {
      let rendering = TableRendering(table: try readObjectTable(path))
      do {
        if dot {
          output += try rendering.dot()
        } else if json {
          output += try rendering.json(pretty: pretty) + "\n"
        } else {
          output += try rendering.tree()
        }
      } catch let error as ArchiveError {
        throw inputError(path, error)
      }
      return
    }
    try dumpPropertyList(path, raw: raw, json: json, pretty: pretty)
  }

  /// `keyed convert` (CLI-020): `path` re-encoded into `out` as `formatName` says (`nil`: the input's default).
  mutating func convert(_ path: String, to out: String, format formatName: String?) throws {
    if isTypedstreamInput(path) {
      try convertTypedstream(path, to: out, format: formatName)
      return
    }
    if formatName == "typedstream" {
      try convertToTypedstream(path, to: out)
      return
    }
    let formatName = formatName ?? "binary"
    guard let format = PropertyListFormat(rawValue: formatName) else {
      throw UsageError(message: "unknown format '\(formatName)' (expected binary or xml)")
    }
    let data = try read(path)
    if PropertyListReader.format(of: data) == .binary {
      try convertBinary(path, data: data, to: out, format: format)
      return
    }
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

  /// `keyed validate` of one file (CLI-021): its one-line summary.
  /// `convert` of a binary property list or keyed archive, re-encoded as it is read, without the value tree
  /// (CLI-134): checked as reading the tree checks it, then as the unarchiver checks an archive's container, then
  /// against the expansion bound, before anything is written.
  private func convertBinary(_ path: String, data: Data, to out: String, format: PropertyListFormat) throws {
    try data.withUnsafeBytes { bytes in
      do {
        let reader = try BinaryPropertyListReader(
          store: ByteStore(borrowing: bytes), options: .default, validation: .full)
        let transcoder = try PropertyListTranscoder(reader: reader)
        let expansion = try transcoder.measure()
        if KeyedArchiveContainer.looksLikeKeyedArchive(reader: reader) {
          _ = try KeyedArchiveContainer(reader: reader, maxObjectCount: KeyedUnarchiverOptions.default.maxObjectCount)
        }
        try ExpansionBound.check(expansion)
        try AtomicFile.write(to: URL(fileURLWithPath: out)) { write in
          // Without loss: a set, which the XML form has no element for, is refused rather than written as an array.
          if format == .xml {
            try transcoder.xml(sets: .refuse, into: write)
          } else {
            try transcoder.binary(into: write)
          }
        }
      } catch let error as ArchiveError where error.code != .fileIO {
        throw inputError(path, error)
      }
    }
  }

  mutating func validate(_ path: String) throws {
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
