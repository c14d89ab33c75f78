import Foundation
import Synchronization

/// Two pieces of work run at the same time: one on a thread of its own, the other on the caller's thread.
///
/// The caller's thread keeps the work that recurses (a walk measures its own thread's stack with a ``StackGuard``,
/// so it must find the stack it would have found alone). ``run(background:foreground:)`` returns only once both have
/// ended, whatever either throws: memory the caller lends to the background work (a file mapped for one scope)
/// stays valid for as long as it is read.
///
/// When the system gives no thread (Foundation's `Thread.start()` then does nothing, silently: under a limit of
/// address space, for one), the background work runs on the caller's thread once the foreground work has ended. The
/// work goes to whichever thread claims it first, so it runs exactly once either way.
package enum SideBySide {
  /// The stack of the background thread: the work given to it does not recurse deeper than a depth limit.
  package static let backgroundStackSize = 16 << 20

  /// Runs `background` on a new thread while `foreground` runs on the caller's thread.
  /// - Parameter startingThread: `false` runs both on the caller's thread, one after the other, as when the system
  ///   refuses a thread (for tests).
  /// - Returns: both results, once both have ended.
  package static func run<Background: Sendable, Foreground>(
    startingThread: Bool = true, background: @escaping @Sendable () throws -> Background,
    foreground: () throws -> Foreground
  ) -> (background: Result<Background, any Error>, foreground: Result<Foreground, any Error>) {
    let slot = Slot(background)
    if startingThread {
      let thread = Thread { slot.runUnlessClaimed() }
      thread.stackSize = backgroundStackSize
      thread.start()
    }
    let own = Result { try foreground() }
    // Claimed by the thread long before, unless the thread never started.
    slot.runUnlessClaimed()
    return (slot.wait(), own)
  }

  /// Runs `work` on a new thread whose stack is `stackSize` bytes, and waits for it: for work that needs a larger
  /// stack than the caller's. When the system gives no thread (nothing has claimed the work after `patience`
  /// seconds), the work runs on the caller's thread instead, whose stack guard then stops it earlier.
  /// - Parameter startingThread: `false` runs the work on the caller's thread after `patience`, as when the system
  ///   refuses a thread (for tests).
  /// - Returns: what `work` returns or throws.
  package static func onOwnThread<Value: Sendable>(
    stackSize: Int, patience: Double = 1, startingThread: Bool = true, _ work: @escaping @Sendable () throws -> Value
  ) -> Result<Value, any Error> {
    let slot = Slot(work)
    if startingThread {
      let thread = Thread { slot.runUnlessClaimed() }
      thread.stackSize = stackSize
      thread.start()
    }
    if let result = slot.wait(seconds: patience) { return result }
    // Not done yet: still running on its thread (the claim fails, and the wait goes on), or never started.
    slot.runUnlessClaimed()
    return slot.wait()
  }

  /// The background work and its result.
  private final class Slot<Value: Sendable>: Sendable {
    private let work: @Sendable () throws -> Value
    private let claimed = Atomic<Bool>(false)
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws -> Value) { self.work = work }

    /// Runs the work on the current thread, unless another thread has claimed it.
    func runUnlessClaimed() {
      guard claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
        return
      }
      let outcome = Result { try work() }
      result.withLock { $0 = outcome }
      done.signal()
    }

    /// The result, once the work has run.
    func wait() -> Result<Value, any Error> {
      done.wait()
      return stored
    }

    /// The result if the work has run within `seconds`, else `nil` (``wait()`` then waits for it).
    func wait(seconds: Double) -> Result<Value, any Error>? {
      guard done.wait(timeout: .now() + seconds) == .success else { return nil }
      return stored
    }

    private var stored: Result<Value, any Error> {
      // Set before the semaphore was signalled.
      result.withLock { $0 } ?? .failure(CancellationError())
    }
  }
}
