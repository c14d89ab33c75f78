import Foundation

/// This process's resident memory, from `/proc/self/status` (Linux), with `getrusage` as the fallback.
enum PeakMemory {
  /// Current resident set (VmRSS) in KiB.
  static func residentKiB() -> Int? { statusField("VmRSS:") }

  /// Peak resident set since start or since the last ``resetPeak()`` (VmHWM), in KiB.
  static func peakKiB() -> Int? {
    if let value = statusField("VmHWM:") { return value }
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return nil }
    return Int(usage.ru_maxrss)  // KiB on Linux
  }

  /// Resets the peak to the current resident set (writing 5 to `/proc/self/clear_refs`, Linux 4.0 and later), so
  /// the next reading covers only what runs after it. Returns false when the kernel does not allow it.
  static func resetPeak() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    do {
      try handle.write(contentsOf: Data("5".utf8))
      return true
    } catch {
      return false
    }
  }

  /// Returns the heap's free pages to the kernel with glibc's `malloc_trim(0)` (looked up at run time: the Glibc
  /// module does not export it); does nothing where it is missing.
  static func releaseFreedHeap() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
  }

  private static func statusField(_ name: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(name) {
      let digits = line.dropFirst(name.count).filter(\.isNumber)
      return Int(digits)
    }
    return nil
  }
}
