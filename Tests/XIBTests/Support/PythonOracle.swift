import Foundation
import TestSupport
import XIB

/// Runs `Tests/Scripts/xib_counts.py`, the independent counter written with Python's `xml.etree`, and returns its
/// counts as ``XIBStatistics``.
enum PythonOracle {
  /// The `python3` executable on the `PATH`, if any.
  static let python: URL? = ProcessRunner.program(named: "python3")

  /// `true` when `python3` is available.
  static var isAvailable: Bool { python != nil }

  /// The script's path.
  static let script: URL = Corpus.packageRoot.appendingPathComponent("Tests/Scripts/xib_counts.py")

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The counts for each absolute path (or the script's error text for that path).
  static func counts(for paths: [String]) throws -> [String: Result<XIBStatistics, Failure>] {
    guard let python else { throw Failure(description: "python3 not found") }
    let process = Process()
    process.executableURL = python
    process.arguments = [script.path] + paths
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(description: "xib_counts.py exited with status \(process.terminationStatus)")
    }
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else {
      throw Failure(description: "xib_counts.py printed something other than a JSON object")
    }
    var result: [String: Result<XIBStatistics, Failure>] = [:]
    for (path, counts) in object {
      if let error = counts["error"] as? String {
        result[path] = .failure(Failure(description: error))
        continue
      }
      func count(_ key: String) -> Int { (counts[key] as? NSNumber)?.intValue ?? -1 }
      result[path] = .success(
        XIBStatistics(
          objects: count("objects"), placeholders: count("placeholders"), topLevel: count("topLevel"),
          outlets: count("outlets"), outletCollections: count("outletCollections"), actions: count("actions"),
          segues: count("segues")))
    }
    return result
  }
}
