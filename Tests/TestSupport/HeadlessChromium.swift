import Foundation

/// Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it), run headless for the browser tests.
package enum HeadlessChromium {
  /// The `chromium` or `chromium-browser` executable on `PATH`, or `nil`.
  package static let executable: URL? = ProcessRunner.program(named: "chromium", "chromium-browser")

  /// Runs Chromium headless with a throwaway profile and returns what it printed on standard output, and whether
  /// it finished within `timeout` (a run still going then is stopped).
  package static func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> (output: String, finished: Bool)
  {
    guard let executable else { throw CocoaError(.fileNoSuchFile) }
    let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-profile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: profile) }
    let flags = [
      "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
      "--no-first-run", "--disable-extensions", "--user-data-dir=\(profile.path)",
    ]
    let result = try ProcessRunner.run(executable, flags + arguments, timeout: timeout)
    return (result.output, result.finished)
  }
}
