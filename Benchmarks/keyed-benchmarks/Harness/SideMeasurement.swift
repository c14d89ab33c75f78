/// What was measured for one side of one case.
struct SideMeasurement {
  var label: String
  var role: Side.Role
  /// The size asked for (the case's N).
  var targetN: Int
  /// The size actually measured: smaller than ``targetN`` only when the budget demanded it.
  var n: Int
  /// Objects handled by one run, and operations in one run.
  var objects = 0
  var operations = 1
  /// Seconds of each measured run (for ours, its own runs, then those between the peers' runs).
  var samples: [Double] = []
  /// How many of ``samples`` were run between the peers' runs (``InterleavedRuns``).
  var interleavedRuns = 0
  /// For a peer: seconds of each of ours's runs between this peer's measured runs, one after each (empty for ours
  /// and the floor). Ours's speed-up over the peer is taken from these (``CaseResult/speedup(over:)``).
  var oursBetween: [Double] = []
  /// Seconds spent building the inputs at size ``n`` (untimed in the results).
  var prepareSeconds = 0.0
  /// The archive size of one operation: bytes written (encode) or read (decode).
  var bytes = 0
  /// Growth of the run time with N, fitted from the two largest sizes run.
  var growth: GrowthFit?
  /// The run time at ``targetN``, extrapolated with ``growth`` when the budget limited N.
  var extrapolatedSeconds: Double?
  /// Peak resident memory (MiB) of a child process doing one operation, and its resident memory before it.
  var peakMiB: Double?
  var setupMiB: Double?
  var memoryNote: String?
  /// Why the side has no result, or why its result is suspect.
  var failure: String?

  var budgetLimited: Bool { n < targetN }

  var median: Double? { Self.median(of: samples) }

  /// The median of `samples`, or `nil` when there are none.
  static func median(of samples: [Double]) -> Double? {
    guard !samples.isEmpty else { return nil }
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// Seconds the measured runs after the first `count` took: what a side's longer timing (up to 2 s of runs) spent
  /// beyond its minimum runs.
  func secondsOfRuns(after count: Int) -> Double { samples.dropFirst(count).reduce(0, +) }

  var minimum: Double? { samples.min() }
  var maximum: Double? { samples.max() }

  /// Median seconds per object.
  var secondsPerObject: Double? { median.map { $0 / Double(max(objects, 1)) } }

  var objectsPerSecond: Double? { median.map { Double(objects) / $0 } }

  /// Archive megabytes (10^6 bytes) per second.
  var megabytesPerSecond: Double? { median.map { Double(bytes * operations) / 1e6 / $0 } }
}
