import ArchiveCoding
import Foundation
import Testing

@testable import CompiledNib

/// Compares the Swift reader with Tests/Scripts/nibarchive_counts.py, a separate Python walk of the same files.
@Suite(
  "NIBArchive cross-check with Python",
  .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.absentMessage)),
  .enabled(if: Python.executable != nil, "python3 not found on PATH")
)
struct NIBArchiveCrossCheckTests {
  /// Runs the script over the corpus and returns its per-file JSON objects.
  static func pythonCounts() throws -> [String: [String: Any]] {
    let process = Process()
    guard let python = Python.executable else { return [:] }  // the suite is disabled without python3
    process.executableURL = python
    process.arguments = [Corpus.countsScript.path, Corpus.nibDirectory.path]
    let output = Pipe()
    // stderr goes to a file, so that neither stream can fill a pipe and block the script.
    let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("nibarchive_counts-\(UUID()).err")
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorURL) }
    let errorHandle = try FileHandle(forWritingTo: errorURL)
    process.standardOutput = output
    process.standardError = errorHandle
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try errorHandle.close()
    let errorText = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
    #expect(process.terminationStatus == 0, "nibarchive_counts.py failed: \(errorText)")
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(json["files"] as? [String: [String: Any]])
  }

  static func int(_ value: Any?) -> Int? { (value as? NSNumber)?.intValue }

  @Test("NIBA-002, NIBA-025: counts of objects, keys, values, classes and connections match the Python walk")
  func countsMatch() throws {
    let python = try Self.pythonCounts()
    let files = Corpus.nibArchiveFiles
    #expect(python.count == files.count, "Python saw \(python.count) files, Swift \(files.count)")
    for (path, url) in files {
      let expected = try #require(python[path], "\(path) missing from the Python output")
      let document = try NIBArchiveDocument(bytes: try Corpus.bytes(url))
      #expect(document.objectCount == Self.int(expected["objects"]), "\(path): objects")
      #expect(document.keyCount == Self.int(expected["keys"]), "\(path): keys")
      #expect(document.valueCount == Self.int(expected["values"]), "\(path): values")
      #expect(document.classNameCount == Self.int(expected["classNames"]), "\(path): class names")
      #expect(document.header.coderVersion == Self.int(expected["coderVersion"]), "\(path): coder version")
      #expect(document.trailingByteCount == Self.int(expected["trailingBytes"]), "\(path): trailing bytes")
      #expect(
        document.classes.filter { !$0.fallbackIndices.isEmpty }.count == Self.int(expected["classesWithFallbacks"]),
        "\(path): classes with fallbacks")

      var types: [String: Int] = [:]
      for index in 0..<document.valueCount { types[String(document.value(at: index).type.rawValue), default: 0] += 1 }
      let expectedTypes = (expected["valueTypes"] as? [String: Any] ?? [:]).compactMapValues(Self.int)
      #expect(types == expectedTypes, "\(path): value types")

      let pythonNib = try #require(expected["nib"] as? [String: Any], "\(path): Python found no nib structure")
      let nib = try document.nibStructure()
      #expect((nib.flavor == .uiKit ? "uiKit" : "appKit") == pythonNib["flavor"] as? String, "\(path): flavor")
      #expect(nib.topLevelObjects.count == Self.int(pythonNib["topLevel"]), "\(path): top-level objects")
      #expect(nib.objects.count == Self.int(pythonNib["documentObjects"]), "\(path): document objects")
      #expect(nib.visibleWindows.count == Self.int(pythonNib["visibleWindows"]), "\(path): visible windows")
      let tally = (pythonNib["connections"] as? [String: Any] ?? [:]).compactMapValues(Self.int)
      for kind in [NIBArchiveConnection.Kind.outlet, .outletCollection, .action, .binding, .other] {
        #expect(nib.connectionCount(of: kind) == tally[kind.name], "\(path): \(kind) connections")
      }
      let records = pythonNib["connectionRecords"] as? [[Any]] ?? []
      #expect(records.count == nib.connections.count, "\(path): connection records")
      for (record, connection) in zip(records, nib.connections) {
        #expect(record[0] as? String == connection.kind.name, "\(path): kind")
        #expect(Self.int(record[1]) == connection.objectIndex, "\(path): connection object")
        #expect(Self.int(record[2]) == connection.source, "\(path): source of #\(connection.objectIndex)")
        #expect(Self.int(record[3]) == connection.destination, "\(path): destination of #\(connection.objectIndex)")
        #expect(record[4] as? String == connection.label, "\(path): label of #\(connection.objectIndex)")
        #expect(Self.int(record[5]).map(Int64.init) == connection.eventMask, "\(path): mask")
      }
    }
  }
}
