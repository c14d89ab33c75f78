import Foundation
import Synchronization

/// Two pieces of work run at the same time: one on a thread of its own, the other on the caller's thread.
///
/// The caller's thread keeps the work that recurses (a walk measures its own thread's stack with a ``StackGuard``,
/// so it must find the stack it would have found alone). ``run(background:foreground:)`` returns only once both have
/// ended, whatever either throws: memory the caller lends to the background work (a file mapped for one scope)
/// stays valid for as long as it is read.
package enum SideBySide {
  /// The stack of the background thread: the work given to it does not recurse deeper than a depth limit.
  package static let backgroundStackSize = 16 << 20

  /// Runs `background` on a new thread while `foreground` runs on the caller's thread.
  /// - Returns: both results, once both have ended.
  package static func run<Background: Sendable, Foreground>(
    background: @escaping @Sendable () throws -> Background, foreground: () throws -> Foreground
  ) -> (background: Result<Background, any Error>, foreground: Result<Foreground, any Error>) {
    let slot = Slot<Background>()
    let thread = Thread { slot.finish(Result { try background() }) }
    thread.stackSize = backgroundStackSize
    thread.start()
    let own = Result { try foreground() }
    return (slot.wait(), own)
  }

  /// Where the background thread leaves its result.
  private final class Slot<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ outcome: Result<Value, any Error>) {
      result.withLock { $0 = outcome }
      done.signal()
    }

    func wait() -> Result<Value, any Error> {
      done.wait()
      return result.withLock { stored in
        // Set before the semaphore was signalled.
        stored ?? .failure(CancellationError())
      }
    }
  }
}
