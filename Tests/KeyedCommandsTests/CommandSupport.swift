import Foundation
import KeyedCommands
import TestSupport
import Testing

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

let corpusRoot: URL? = {
  let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
  return FileManager.default.fileExists(atPath: url.path) ? url : nil
}()

/// Files under a corpus folder whose names end in one of the extensions, sorted.
func corpusFiles(_ folder: String, extensions: Set<String>) -> [URL] {
  guard let root = corpusRoot?.appendingPathComponent(folder),
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
  else { return [] }
  var files: [URL] = []
  for case let url as URL in enumerator where extensions.contains(url.pathExtension) { files.append(url) }
  return files.sorted { $0.path < $1.path }
}

/// A new, empty directory under the system's temporary directory, named `prefix-UUID`; the caller removes it.
func makeTemporaryDirectory(_ prefix: String) throws -> URL {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory
}

/// Runs `keyed` in-process.
func keyed(_ arguments: String..., input: Data = Data()) -> KeyedTool.Result {
  KeyedTool.run(arguments, standardInput: { input })
}

/// The built `keyed` executable next to the test bundle.
let keyedExecutable = ProcessRunner.builtProduct("keyed", packageRoot: packageRoot)

/// Runs the built executable and returns its status and output.
func runExecutable(_ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, output: String, errors: String)
{
  let process = Process()
  process.executableURL = keyedExecutable
  process.arguments = arguments
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  let input = Pipe()
  process.standardInput = input
  try process.run()
  if let stdin { input.fileHandleForWriting.write(stdin) }
  try input.fileHandleForWriting.close()
  let output = out.fileHandleForReading.readDataToEndOfFile()
  let errors = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
}

/// Runs a Python script from Tests/Scripts, or returns nil when python3 is absent.
func runPython(_ script: String, _ arguments: [String]) throws -> Data? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["python3", packageRoot.appendingPathComponent("Tests/Scripts/\(script)").path] + arguments
  let out = Pipe()
  process.standardOutput = out
  process.standardError = FileHandle.nullDevice
  do { try process.run() } catch { return nil }
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return process.terminationStatus == 0 ? data : nil
}
