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
package struct StackGuard: Sendable {
  /// The lowest address the stack may grow to before decoding stops; 0 when the bounds are unknown.
  private let floor: UInt

  /// Reads the current thread's stack bounds (once per thread: they are kept in a thread-specific slot, since
  /// reading them can cost a parse of `/proc/self/maps`) and keeps a reserve of a quarter of the stack, between
  /// 64 KiB and 256 KiB, for the frames that run after the check (initialisers, Foundation, error reporting).
  package init() {
    if let key = Self.slot, let stored = pthread_getspecific(key) {
      floor = UInt(bitPattern: stored) &- 1
      return
    }
    let (low, size) = Self.currentStack()
    floor = low > 0 && size > 0 ? low + max(64 << 10, min(256 << 10, size / 4)) : 0
    if let key = Self.slot { pthread_setspecific(key, UnsafeRawPointer(bitPattern: floor &+ 1)) }
  }

  /// The thread-specific slot holding each thread's floor plus one (so that an unset slot reads as `nil`).
  private static let slot: pthread_key_t? = {
    var key = pthread_key_t()
    return pthread_key_create(&key, nil) == 0 ? key : nil
  }()

  /// `true` while the stack pointer is above the reserve.
  @inline(__always)
  package func hasRoom() -> Bool {
    guard floor > 0 else { return true }
    var marker: UInt8 = 0
    let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    return here > floor
  }

  #if canImport(Glibc) || canImport(Musl)
  /// `pthread_getattr_np`, a GNU extension that the C module does not import, looked up in the process.
  private typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> CInt
  private static let getAttributes: GetAttributes? = {
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "pthread_getattr_np") else { return nil }
    return unsafeBitCast(symbol, to: GetAttributes.self)
  }()
  #endif

  /// The current thread's stack: lowest address and size in bytes, or zeros when the system does not say.
  private static func currentStack() -> (low: UInt, size: UInt) {
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
