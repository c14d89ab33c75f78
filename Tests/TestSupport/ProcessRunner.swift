import Foundation

/// Runs an executable for a test, with its standard output captured in a file (a DOM or a dump can be larger than
/// a pipe holds while the process runs) and a time limit.
package enum ProcessRunner {
  /// What a run gave.
  package struct Result {
    /// The exit status (meaningless when the run did not finish).
    package var status: Int32
    /// Standard output.
    package var output: String
    /// `false` when the run outlived the time limit and was killed.
    package var finished: Bool
    /// Standard error.
    package var errors: String = ""
  }

  /// The first of `names` found as an executable in a directory of `PATH`, or `nil`.
  package static func program(named names: String...) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      for name in names {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      }
    }
    return nil
  }

  /// Runs `executable` with `arguments` in `directory` (the current one when `nil`), standard input discarded, for
  /// at most `timeout` seconds; a run still going then is killed with SIGKILL (a child of the test process may
  /// inherit a mask that blocks SIGTERM).
  package static func run(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 60
  ) throws -> Result {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("process-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    /// A new file of the scratch folder, open for the process to write.
    func capture(_ name: String) throws -> (url: URL, handle: FileHandle) {
      let url = scratch.appendingPathComponent(name)
      guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
      }
      return (url, try FileHandle(forWritingTo: url))
    }
    let output = try capture("stdout")
    defer { try? output.handle.close() }
    let errors = try capture("stderr")
    defer { try? errors.handle.close() }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    process.standardOutput = output.handle
    process.standardError = errors.handle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    let finished = !process.isRunning
    if !finished { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, output: String(decoding: try Data(contentsOf: output.url), as: UTF8.self),
      finished: finished, errors: String(decoding: try Data(contentsOf: errors.url), as: UTF8.self))
  }

  /// An executable product of the package, built next to the test bundle (or in `.build/debug` under
  /// `packageRoot`).
  package static func builtProduct(_ name: String, packageRoot: URL) -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return packageRoot.appendingPathComponent(".build/debug/\(name)")
  }
}
