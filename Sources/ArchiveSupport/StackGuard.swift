#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a recursive decoder whether the current thread's stack has room for one more level.
///
/// Depth limits count levels, but a level's stack cost depends on the build (a debug build's frames are several
/// times larger), on the classes' own `init(coder:)` and on the thread (secondary threads often have 512 KiB). A
/// decoder that recurses on untrusted input therefore also checks the remaining stack, and throws a limit error
/// instead of overflowing. The guard reads the current thread's stack bounds once; create it on the thread that
/// decodes.
///
/// The stack pointer is read as the address of a local variable. Under AddressSanitizer's detection of stack use
/// after return, such a variable lives on a "fake stack" outside the thread's stack; the guard then measures with a
/// variable-length allocation, which stays on the thread's stack, and when that too lies outside it (an unknown
/// build), it cannot measure and leaves nesting to the depth limit (Decision 0069).
package struct StackGuard: Sendable {
  /// The lowest address of the thread's stack; 0 when the bounds are unknown.
  private let low: UInt
  /// The lowest address the stack may grow to before decoding stops.
  private let floor: UInt
  /// Just past the highest address of the thread's stack.
  private let top: UInt

  /// Reads the current thread's stack bounds (once per thread: they are kept in a thread-specific slot, since
  /// reading them can cost a parse of `/proc/self/maps`) and keeps a reserve of a quarter of the stack, between
  /// 64 KiB and 256 KiB, for the frames that run after the check (initialisers, Foundation, error reporting).
  package init() {
    let (low, size) = Self.currentStack()
    self.init(low: low, size: size, reserve: Self.reserve(forStackOfSize: size))
  }

  /// A guard for the stack `low..<low + size` that stops `reserve` bytes above its lowest address (`low` and `size`
  /// 0: bounds unknown, every level has room; a stack no larger than the reserve has room for none).
  package init(low: UInt, size: UInt, reserve: UInt) {
    let (top, overflow) = low.addingReportingOverflow(size)
    guard low > 0, size > 0, !overflow else {
      (self.low, floor, self.top) = (0, 0, 0)
      return
    }
    (self.low, floor, self.top) = (low, low &+ min(reserve, size), top)
  }

  /// The reserve kept below the check on a stack of `size` bytes: a quarter of it, between 64 KiB and 256 KiB.
  package static func reserve(forStackOfSize size: UInt) -> UInt { max(64 << 10, min(256 << 10, size / 4)) }

  /// The thread-specific slot holding each thread's stack bounds (lowest address and size), read once per thread.
  private static let slot: pthread_key_t? = {
    var key = pthread_key_t()
    return pthread_key_create(&key, { free($0) }) == 0 ? key : nil
  }()

  /// `true` while the stack pointer is above the reserve.
  @inline(__always)
  package func hasRoom() -> Bool {
    guard floor > 0 else { return true }
    var marker: UInt8 = 0
    let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    return here > floor && here < top ? true : hasRoom(offStackAt: here)
  }

  /// Whether `address` lies above the reserve: `nil` when it is not on the thread's stack (or the bounds are
  /// unknown), so that the guard cannot tell.
  package func room(at address: UInt) -> Bool? {
    guard floor > 0, address >= low, address < top else { return nil }
    return address > floor
  }

  /// ``hasRoom()`` when the local variable at `here` is not above the reserve: below it, or off the thread's stack
  /// (a sanitizer's fake stack), where a variable-length allocation measures instead.
  @inline(never)
  package func hasRoom(offStackAt here: UInt) -> Bool {
    if let room = room(at: here) { return room }
    // A count the compiler cannot know makes the allocation variable-length: on the thread's stack, not a fake one.
    let count = Int(truncatingIfNeeded: floor & 1) &+ 1
    let probe = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { UInt(bitPattern: $0.baseAddress) }
    return room(at: probe) ?? true
  }

  #if canImport(Glibc) || canImport(Musl)
  /// `pthread_getattr_np`, a GNU extension that the C module does not import, looked up in the process.
  private typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> CInt
  private static let getAttributes: GetAttributes? = {
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "pthread_getattr_np") else { return nil }
    return unsafeBitCast(symbol, to: GetAttributes.self)
  }()
  #endif

  /// The current thread's stack: lowest address and size in bytes, or zeros when the system does not say (read once
  /// per thread).
  package static func currentStack() -> (low: UInt, size: UInt) {
    if let key = slot, let stored = pthread_getspecific(key) {
      let bounds = stored.assumingMemoryBound(to: UInt.self)
      return (bounds[0], bounds[1])
    }
    let (low, size) = readStack()
    if let key = slot, let stored = malloc(2 * MemoryLayout<UInt>.stride) {
      let bounds = stored.bindMemory(to: UInt.self, capacity: 2)
      bounds[0] = low
      bounds[1] = size
      if pthread_setspecific(key, stored) != 0 { free(stored) }
    }
    return (low, size)
  }

  /// The current thread's stack as the system reports it: lowest address and size, or zeros.
  private static func readStack() -> (low: UInt, size: UInt) {
    #if canImport(Darwin)
    let thread = pthread_self()
    let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))
    let size = UInt(pthread_get_stacksize_np(thread))
    return high > size ? (high - size, size) : (0, 0)
    #elseif canImport(Glibc) || canImport(Musl)
    var attributes = pthread_attr_t()
    guard let getAttributes = Self.getAttributes, getAttributes(pthread_self(), &attributes) == 0 else {
      return (0, 0)
    }
    defer { pthread_attr_destroy(&attributes) }
    var address: UnsafeMutableRawPointer?
    var size = 0
    guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return (0, 0) }
    return (UInt(bitPattern: address), UInt(size))
    #else
    return (0, 0)
    #endif
  }
}
