/// How long and how often sides are run.
struct RunPolicy {
  /// Measured runs wanted at least (fewer only when the budget runs out; never fewer than one).
  var minRuns: Int
  /// Measured runs at most.
  var maxRuns: Int
  /// Once ``minRuns`` are done, stop adding runs when the measured runs have taken this long together.
  var targetSeconds: Double
  /// The most time one case may take, all its sides together: building their inputs, probing sizes, the warm-ups,
  /// the measured runs and the memory children. ``BudgetPlan`` shares it out between the sides; a peer that would
  /// overrun its share runs at a smaller size. Ours always runs at the case's N, its minimum runs at least.
  var budgetSeconds: Double
  /// Whether each side's peak memory is measured in a child process.
  var measuresMemory: Bool
  /// A probe at a small size is repeated until it has run this long, and its fastest run kept.
  var probeSeconds: Double = 0.005
  /// The smallest size probed when looking for the growth rate.
  var smallestProbe: Int = 10
  /// A side whose run takes at most this share of the budget gets the minimum runs even when the budget is spent
  /// (its inputs took it): three runs of a few hundred milliseconds against one.
  var cheapRunShare: Double = 0.02

  /// The full suite: runs until they have taken 2 s together (3 at least, 1,000 at most), 30 s per case unless told
  /// otherwise. A side whose run takes a few milliseconds is thus timed over 2 s, not over 10 runs (tens of
  /// milliseconds, where one burst of another process on the shared machine moves the median by half).
  static func full(budget: Double?, memory: Bool) -> RunPolicy {
    RunPolicy(minRuns: 3, maxRuns: 1000, targetSeconds: 2, budgetSeconds: budget ?? 30, measuresMemory: memory)
  }

  /// `--quick`: 3 to 5 runs, a short budget per case, so the whole suite takes well under a minute.
  static func quick(budget: Double?, memory: Bool) -> RunPolicy {
    RunPolicy(minRuns: 3, maxRuns: 5, targetSeconds: 0.05, budgetSeconds: budget ?? 2, measuresMemory: memory)
  }
}
