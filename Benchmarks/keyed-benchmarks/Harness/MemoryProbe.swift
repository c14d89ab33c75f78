import Foundation

/// Measures a side's peak memory in a child process: the executable runs itself as
/// `--child CASE --n N --side ours|peer [--peer LABEL] [--quick]`, and the child prints
/// `peak_kb=… setup_kb=… reset=yes|no` on its last line.
struct MemoryProbe {
  /// This executable.
  var executable: String
  /// Passed on so the child builds the same case registry.
  var quick: Bool

  /// This executable's path, from `/proc/self/exe` (or the first argument).
  static func currentExecutable() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }

  /// Runs one operation of `side` at size `n` in a child and reads its peak memory.
  /// - Parameter timeout: the child is terminated after this many seconds.
  func measure(caseName: String, side: Side, n: Int, timeout: Double) -> MemoryReading {
    var arguments = ["--child", caseName, "--n", String(n), "--side", side.role.rawValue]
    if side.role == .peer { arguments += ["--peer", side.label] }
    if quick { arguments.append("--quick") }
    let directory = FileManager.default.temporaryDirectory
    let output = directory.appendingPathComponent("keyed-benchmarks-child-\(getpid()).out")
    let errors = directory.appendingPathComponent("keyed-benchmarks-child-\(getpid()).err")
    defer {
      try? FileManager.default.removeItem(at: output)
      try? FileManager.default.removeItem(at: errors)
    }
    do {
      guard FileManager.default.createFile(atPath: output.path, contents: nil),
        FileManager.default.createFile(atPath: errors.path, contents: nil)
      else { return MemoryReading(note: "could not create the child's output files") }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      process.standardOutput = try FileHandle(forWritingTo: output)
      process.standardError = try FileHandle(forWritingTo: errors)
      try process.run()
      let deadline = ContinuousClock.now + .seconds(timeout)
      while process.isRunning {
        if ContinuousClock.now > deadline {
          process.terminate()
          process.waitUntilExit()
          return MemoryReading(note: "child timed out after \(Int(timeout)) s")
        }
        Thread.sleep(forTimeInterval: 0.005)
      }
      let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        let how =
          process.terminationReason == .uncaughtSignal
          ? "child crashed (signal \(process.terminationStatus))" : "child exited with \(process.terminationStatus)"
        let message = (try? String(contentsOf: errors, encoding: .utf8))?.split(separator: "\n").first ?? ""
        return MemoryReading(note: message.isEmpty ? how : "\(how): \(message)")
      }
      return Self.parse(text)
    } catch {
      return MemoryReading(note: "could not run the child: \(error)")
    }
  }

  /// Reads the child's `key=value` line.
  static func parse(_ text: String) -> MemoryReading {
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("peak_kb=") {
      for token in line.split(separator: " ") {
        let parts = token.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
      }
    }
    guard let peak = fields["peak_kb"].flatMap({ Double($0) }) else {
      return MemoryReading(note: "the child printed no reading")
    }
    return MemoryReading(
      peakMiB: peak / 1024, setupMiB: fields["setup_kb"].flatMap { Double($0) }.map { $0 / 1024 },
      note: fields["reset"] == "yes" ? nil : "peak includes the setup (the kernel did not allow resetting it)")
  }
}
