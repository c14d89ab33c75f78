import Foundation
import KeyedArchive
import PropertyList
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Crash-safe writes")
struct CrashSafeWriteTests {
  /// A large archive (so writing it takes a few milliseconds) whose root says which version it is.
  static func archive(version: Int) throws -> Data {
    let payload = (0..<15_000).map { "v\(version)-item-\($0)" }
    return try KeyedArchiver.archivedData(withRootObject: ["version": version, "items": payload] as [String: Any])
  }

  @Test(
    "ARC-050: a writer killed with SIGKILL at random moments always leaves the old or the new archive, never a torn one"
  )
  func killedWriter() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kill-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let versions = try [1, 2].map { version -> URL in
      let url = directory.appendingPathComponent("v\(version).archive")
      try Self.archive(version: version).write(to: url)
      return url
    }
    let target = directory.appendingPathComponent("target.archive")
    try FileManager.default.copyItem(at: versions[0], to: target)
    var generator = SystemRandomNumberGenerator()
    var killed = 0
    var completed = 0
    // How long one whole run takes here; kills are spread over 0 to 1.5 times that, so some land during the write.
    let started = Date()
    let probe = Process()
    probe.executableURL = keyedExecutable
    probe.arguments = ["convert", versions[1].path, "-o", target.path]
    try probe.run()
    probe.waitUntilExit()
    let whole = max(0.005, Date().timeIntervalSince(started))
    let rounds = 120
    for round in 0..<rounds {
      let process = Process()
      process.executableURL = keyedExecutable
      process.arguments = ["convert", versions[round % 2].path, "-o", target.path]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(UInt32(Double.random(in: 0..<(whole * 1.5), using: &generator) * 1_000_000))
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        killed += 1
      }
      process.waitUntilExit()
      if process.terminationReason == .exit, process.terminationStatus == 0 { completed += 1 }
      // Whatever happened, the target decodes completely, as one of the two versions.
      let data = try Data(contentsOf: target)
      let root = try #require(try KeyedUnarchiver.unarchivedRootObject(from: data) as? [String: Any], "round \(round)")
      let version = try #require(root["version"] as? Int)
      #expect(version == 1 || version == 2)
      #expect((root["items"] as? [Any])?.count == 15_000, "round \(round)")
    }
    #expect(killed > 0, "some writers were killed mid-run")
    #expect(completed > 0, "some writers finished")
    // Killed writers may leave their temporary files behind, but never a partial target.
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
    print(
      "killed \(killed) of \(rounds) writers; \(completed) completed; \(leftovers.count) temporary files left behind")
  }
}
