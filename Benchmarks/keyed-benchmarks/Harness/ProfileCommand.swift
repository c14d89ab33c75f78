import Foundation

/// Profile mode: builds one side of one case at one size, warms it up and runs its measured operation a number of
/// times with nothing else in the process, for `perf record`, `valgrind --tool=callgrind` and the like. Prints the
/// time of each run on stderr; the profile is the point, not the figures.
enum ProfileCommand {
  /// Runs the side named by `--profile CASE [--n N] [--runs K] [--side ours|peer] [--peer LABEL]`; returns the exit
  /// status.
  static func run(_ options: BenchmarkOptions, cases: [BenchmarkCase]) -> Int32 {
    guard let name = options.profile else { return 64 }
    guard let found = cases.first(where: { $0.name == name }) else {
      printError("keyed-benchmarks: no case named \(name) (see --list)")
      return 64
    }
    guard let side = found.side(options.childSide ?? .ours, peer: options.childPeer) else {
      printError("keyed-benchmarks: \(name) has no such side")
      return 64
    }
    let n = options.childN ?? found.n
    do {
      let prepared = try side.prepare(n, InputCache())
      let (problem, warmUp) = try Stopwatch.time { try prepared.warmUp().problem }
      if let problem {
        printError("keyed-benchmarks: \(side.label) checked wrong: \(problem)")
        return 1
      }
      printError("\(name), \(side.label), N = \(Units.count(n)): warm-up \(Units.duration(warmUp))")
      for index in 0..<options.profileRuns {
        let (_, seconds) = try Stopwatch.time { try prepared.run() }
        printError("  run \(index + 1): \(Units.duration(seconds))")
      }
      return 0
    } catch {
      printError("keyed-benchmarks: \(side.label) threw \(error)")
      return 1
    }
  }

  private static func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
