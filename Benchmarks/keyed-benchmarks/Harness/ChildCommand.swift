import Foundation

/// Child mode: builds one side of one case at one size, resets the peak resident set, runs one operation and prints
/// `peak_kb=… setup_kb=… reset=yes|no` for the parent (`MemoryProbe`).
enum ChildCommand {
  /// Runs the child; returns the exit status.
  static func run(_ options: BenchmarkOptions, cases: [BenchmarkCase]) -> Int32 {
    guard let name = options.child, let n = options.childN, let role = options.childSide else { return 64 }
    guard let found = cases.first(where: { $0.name == name }) else {
      FileHandle.standardError.write(Data("keyed-benchmarks: no case named \(name)\n".utf8))
      return 64
    }
    guard let side = found.side(role, peer: options.childPeer) else {
      FileHandle.standardError.write(Data("keyed-benchmarks: \(name) has no such side\n".utf8))
      return 64
    }
    do {
      let prepared = try side.prepare(n, InputCache())
      // Hand the memory freed while building the inputs back to the kernel, so that the operation cannot reuse
      // resident free pages unseen: the rise of the peak is then what the operation itself needed.
      PeakMemory.releaseFreedHeap()
      let setup = PeakMemory.residentKiB() ?? 0
      let reset = PeakMemory.resetPeak()
      let outcome = try prepared.warmUp()
      let peak = PeakMemory.peakKiB() ?? 0
      Blackhole.consume(outcome)
      print("peak_kb=\(peak) setup_kb=\(setup) reset=\(reset ? "yes" : "no")")
      return 0
    } catch {
      FileHandle.standardError.write(Data("keyed-benchmarks: \(side.label) threw \(error)\n".utf8))
      return 1
    }
  }
}
