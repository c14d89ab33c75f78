/// Ours's runs between the peers' measured runs: one after each, timed and added to ours's samples, so that ours's
/// median is taken over the whole case. The runs between one peer's runs are also that peer's
/// ``SideMeasurement/oursBetween``, which ours's speed-up over the peer is taken from: the same stretch of the
/// machine as the peer's own runs. The machine is shared: its speed moves by half for a second or more at a time,
/// and ours's own 2 s of runs could fall in a slow or a fast stretch that the peers' runs, seconds later, did not.
final class InterleavedRuns {
  private let run: PreparedRun
  /// Seconds of each run, in order.
  private(set) var samples: [Double] = []
  /// Seconds of all the runs together.
  private(set) var seconds = 0.0
  /// Why the runs stopped, when one threw.
  private(set) var failure: String?

  init(_ run: PreparedRun) { self.run = run }

  /// Runs ours once and keeps its time; returns the seconds it took (0, running nothing, once a run has thrown).
  func runOnce() -> Double {
    guard failure == nil else { return 0 }
    do {
      let seconds = try Stopwatch.time { try run.run() }.seconds
      samples.append(seconds)
      self.seconds += seconds
      return seconds
    } catch {
      failure = "threw \(error) between the peers' runs"
      return 0
    }
  }
}
