import ArchiveSupport
import Foundation
import Synchronization
import Testing

@Suite("Stack guard")
struct StackGuardTests {
  @Test("COD-041: an address on the stack has room above the reserve and none below it; off the stack, no answer")
  func roomOnTheStack() {
    let low: UInt = 0x10_0000
    let size: UInt = 0x10_0000
    let guarded = StackGuard(low: low, size: size, reserve: 0x4_0000)
    #expect(guarded.room(at: low + size - 1) == true)
    #expect(guarded.room(at: low + 0x4_0001) == true)
    #expect(guarded.room(at: low + 0x4_0000) == false)
    #expect(guarded.room(at: low) == false)
    #expect(guarded.room(at: low - 1) == nil)
    #expect(guarded.room(at: low + size) == nil)
    // A stack no larger than its reserve has room for nothing.
    let tiny = StackGuard(low: low, size: 0x1_0000, reserve: 0x1_0000)
    #expect(tiny.room(at: low + 0xFFFF) == false)
    // Unknown bounds: the guard cannot tell, and leaves nesting to the depth limit.
    let unknown = StackGuard(low: 0, size: 0, reserve: 0x4_0000)
    #expect(unknown.room(at: low) == nil)
    #expect(unknown.hasRoom())
  }

  @Test("COD-041: the reserve is a quarter of the stack, between 64 KiB and 256 KiB")
  func reserve() {
    #expect(StackGuard.reserve(forStackOfSize: 128 << 10) == 64 << 10)
    #expect(StackGuard.reserve(forStackOfSize: 512 << 10) == 128 << 10)
    #expect(StackGuard.reserve(forStackOfSize: 8 << 20) == 256 << 10)
  }

  @Test("COD-041: a variable off the thread's stack (a sanitizer's fake stack) is measured on the stack itself")
  func offStack() throws {
    let (low, size) = StackGuard.currentStack()
    try #require(low > 0 && size > 0, "this system does not report the thread's stack")
    let heap = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    defer { heap.deallocate() }
    let address = UInt(bitPattern: heap)
    // A shallow test thread has room; the heap address alone would say nothing.
    let shallow = StackGuard(low: low, size: size, reserve: StackGuard.reserve(forStackOfSize: size))
    #expect(shallow.room(at: address) == nil)
    #expect(shallow.hasRoom(offStackAt: address))
    #expect(shallow.hasRoom())
    // A reserve of the whole stack but its last byte: only a measure of the thread's stack can say there is no room.
    let exhausted = StackGuard(low: low, size: size, reserve: size - 1)
    #expect(exhausted.room(at: address) == nil)
    #expect(!exhausted.hasRoom(offStackAt: address))
    #expect(!exhausted.hasRoom())
  }

  @Test("COD-041: each thread's guard measures that thread's stack")
  func perThread() throws {
    let mainBounds = StackGuard.currentStack()
    let bounds = Mutex<(UInt, UInt)?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let first = StackGuard.currentStack()
      // Read again from the thread's slot: the same bounds.
      let second = StackGuard.currentStack()
      bounds.withLock { $0 = first == second ? first : nil }
      done.signal()
    }
    thread.stackSize = 512 << 10
    thread.start()
    done.wait()
    let threadBounds = try #require(bounds.withLock { $0 })
    try #require(threadBounds.0 > 0, "this system does not report the thread's stack")
    #expect(threadBounds != mainBounds)
    #expect(threadBounds.1 >= 512 << 10 && threadBounds.1 < 1 << 20)
  }
}
