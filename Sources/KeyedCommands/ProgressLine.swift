import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress line on standard error for commands that take more than a second, shown only when standard error
/// is a terminal (CLI-005): `keyed: dump Main.xib… 3 s`, rewritten in place each second and erased at the end.
final class ProgressLine: Sendable {
  private let label: String
  private let state = Mutex<(running: Bool, shown: Bool)>((false, false))
  private let started = Date()

  init(arguments: [String]) {
    let verb = arguments.first ?? "keyed"
    let file = arguments.dropFirst().last { !$0.hasPrefix("-") } ?? ""
    label = file.isEmpty ? verb : "\(verb) \(URL(fileURLWithPath: file).lastPathComponent)"
  }

  /// Starts the timer, when standard error is a terminal.
  func start() {
    guard isatty(STDERR_FILENO) == 1 else { return }
    state.withLock { $0.running = true }
    tick(after: 1)
  }

  private func tick(after seconds: Double) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
      let elapsed = Int(Date().timeIntervalSince(started))
      let keepGoing = state.withLock { state -> Bool in
        guard state.running else { return false }
        state.shown = true
        return true
      }
      guard keepGoing else { return }
      FileHandle.standardError.write(Data("\r\u{1B}[Kkeyed: \(label)… \(elapsed) s".utf8))
      tick(after: 1)
    }
  }

  /// Stops the timer and erases the line if it was shown.
  func finish() {
    let shown = state.withLock { state -> Bool in
      state.running = false
      return state.shown
    }
    if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
  }
}
