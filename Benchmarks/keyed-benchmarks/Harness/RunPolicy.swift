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
}

extension RunPolicy {
  /// The policy of a scope, with the budget per case from `--budget` when given.
  ///
  /// - The default: runs until they have taken 1 s together (3 at least, 1,000 at most), 12 s per case, so that the
  ///   whole suite takes under 10 minutes on the 2-core machine.
  /// - `--full`: runs until they have taken 2 s together, 30 s per case.
  /// - `--quick`: 3 to 5 runs, 2 s per case, so the whole suite takes well under a minute.
  ///
  /// A side whose run takes a few milliseconds is thus timed over a second or more, not over a handful of runs (tens
  /// of milliseconds, where one burst of another process on the shared machine moves the median by half).
  init(_ scope: SuiteScope, budget: Double?, memory: Bool) {
    switch scope {
    case .quick:
      self.init(minRuns: 3, maxRuns: 5, targetSeconds: 0.05, budgetSeconds: budget ?? 2, measuresMemory: memory)
    case .standard:
      self.init(minRuns: 3, maxRuns: 1000, targetSeconds: 1, budgetSeconds: budget ?? 12, measuresMemory: memory)
    case .full:
      self.init(minRuns: 3, maxRuns: 1000, targetSeconds: 2, budgetSeconds: budget ?? 30, measuresMemory: memory)
    }
  }
}
