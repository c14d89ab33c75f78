/// Measures one side of a case within the time budget.
///
/// The side is first probed at growing sizes (`SizeLadder`: about 3× per step, one timed run each, repeated when
/// tiny). Before each step the cost of the next size is predicted from the last two probes (inputs, warm-up, the
/// minimum runs and the memory child, growing at least linearly). A reducible side (a peer) whose next step would
/// overrun the budget is measured at the largest size predicted to fit instead, rounded to two digits, and reported
/// with that size, its fitted growth exponent and the time extrapolated to the case's N. Ours is never reduced.
struct SideRunner {
  var policy: RunPolicy
  var inputs: InputCache
  /// Runs the memory child; nil when memory is not measured.
  var memory: MemoryProbe?

  private struct Probe {
    var n: Int
    var runSeconds: Double
    var prepareSeconds: Double
  }

  /// Measures `side` at `targetN`, or at a smaller size if `reducible` and the budget demands it.
  /// - Parameters:
  ///   - caseName: the case, for the memory child.
  ///   - budget: the seconds this side may take (its share of the case's budget, ``CaseBudget``).
  ///   - probes: whether to probe smaller sizes first (for the growth rate and the budget); the floor does not.
  ///   - between: run after each measured run (not the probes or the warm-up), untimed for this side: ours's
  ///     interleaved runs (``InterleavedRuns``). Returns the seconds it took, which this side's budget does not
  ///     count.
  ///   - keep: handed the prepared run at the end, for a caller that runs it again (ours, between the peers' runs).
  func measure(
    _ side: Side, caseName: String, targetN: Int, budget: Double, reducible: Bool, probes probing: Bool,
    between: (() -> Double)? = nil, keep: ((PreparedRun) -> Void)? = nil
  )
    -> SideMeasurement
  {
    let started = ContinuousClock.now
    var result = SideMeasurement(label: side.label, role: side.role, targetN: targetN, n: targetN)
    var probes: [Probe] = []
    var kept: (n: Int, run: PreparedRun, prepareSeconds: Double)?
    var chosen = targetN
    do {
      let ladder = probing ? SizeLadder.sizes(upTo: targetN, from: policy.smallestProbe) : [targetN]
      for n in ladder {
        if reducible, !probes.isEmpty {
          let remaining = budget - Stopwatch.seconds(since: started)
          if predictedCost(at: n, from: probes) > remaining {
            chosen = largestFitting(below: n, from: probes, within: remaining)
            // Within 10% of the case's N, run at N itself with fewer runs rather than report a reduced N.
            if n == targetN, chosen * 10 >= targetN * 9 { chosen = targetN }
            if chosen < n { break }
          }
        }
        kept = nil  // release the previous size's inputs first
        let (run, prepareSeconds) = try Stopwatch.time { try side.prepare(n, inputs) }
        kept = (n, run, prepareSeconds)
        if n == targetN { break }
        probes.append(Probe(n: n, runSeconds: try probeTime(run, budget: budget), prepareSeconds: prepareSeconds))
      }
      if kept?.n != chosen {
        kept = nil
        let (run, prepareSeconds) = try Stopwatch.time { try side.prepare(chosen, inputs) }
        kept = (chosen, run, prepareSeconds)
      }
      guard let final = kept else { preconditionFailure("SideRunner: no prepared run") }
      kept = nil
      result.n = chosen
      result.prepareSeconds = final.prepareSeconds
      result.objects = final.run.objects
      result.operations = final.run.operations
      try runMeasured(
        final.run, started: started, budget: budget, guaranteedRuns: reducible ? 1 : policy.minRuns,
        prepareSeconds: final.prepareSeconds, between: between, into: &result)
      if result.failure == nil { keep?(final.run) }
    } catch {
      result.failure = "threw \(error)"
      return result
    }
    // Fit the growth over at least a 2.5× span when the probes allow it: closer sizes leave the exponent to noise.
    let span = probes.last { Double($0.n) * 2.5 <= Double(result.n) } ?? probes.first { $0.n < result.n }
    if let fastest = result.minimum, let probe = span {
      result.growth = GrowthFit(n1: probe.n, seconds1: probe.runSeconds, n2: result.n, seconds2: fastest)
    }
    if result.budgetLimited, let median = result.median, let growth = result.growth {
      result.extrapolatedSeconds = GrowthFit.extrapolate(
        seconds: median, from: result.n, to: targetN, exponent: growth.exponent)
    }
    if let memory, side.role != .floor, result.failure == nil {
      let expected = result.prepareSeconds + (result.maximum ?? 0) / Double(max(result.operations, 1))
      let reading = memory.measure(caseName: caseName, side: side, n: result.n, timeout: max(60, 4 * expected))
      result.peakMiB = reading.peakMiB
      result.setupMiB = reading.setupMiB
      result.memoryNote = reading.note
    }
    return result
  }

  /// The warm-up (one checked operation, plus one full run when a run repeats the operation) and the measured runs:
  /// at least `guaranteedRuns`, then as many as the budget allows. A run that takes at most
  /// ``RunPolicy/cheapRunShare`` of the budget is repeated up to the minimum runs even past the budget: a median
  /// of one run is that run's noise (a peer whose inputs took the budget to build would otherwise get one).
  private func runMeasured(
    _ run: PreparedRun, started: ContinuousClock.Instant, budget: Double, guaranteedRuns: Int,
    prepareSeconds: Double, between: (() -> Double)?, into result: inout SideMeasurement
  ) throws {
    let (checked, checkSeconds) = try Stopwatch.time { try run.warmUp() }
    result.bytes = checked.bytes
    if let problem = checked.problem {
      result.failure = "wrong result: \(problem)"
      return
    }
    var estimate = checkSeconds * Double(run.operations)
    if run.operations > 1 { estimate = try Stopwatch.time { try run.run() }.seconds }
    let memoryReserve = memory == nil ? 0 : prepareSeconds + checkSeconds + 0.05
    let cheap = estimate <= budget * policy.cheapRunShare
    let guaranteedRuns = cheap ? max(guaranteedRuns, policy.minRuns) : guaranteedRuns
    // The time `between` took is not this side's.
    var betweenSeconds = 0.0
    while result.samples.count < policy.maxRuns {
      let measured = result.samples.reduce(0, +)
      if result.samples.count >= policy.minRuns, measured >= policy.targetSeconds { break }
      let next = result.samples.min() ?? estimate
      let elapsed = Stopwatch.seconds(since: started) - betweenSeconds
      // A side that cannot be reduced (ours, the floor) always gets the minimum runs, a peer one; after them the
      // budget decides.
      if result.samples.count >= guaranteedRuns, elapsed + next + memoryReserve > budget { break }
      result.samples.append(try Stopwatch.time { try run.run() }.seconds)
      if let between { betweenSeconds += between() }
    }
  }

  /// Times one probe: run at least twice (the first run warms up) and until it has run
  /// ``RunPolicy/probeSeconds``, but only once when a run takes more than a twentieth of the budget; the fastest run
  /// counts.
  private func probeTime(_ run: PreparedRun, budget: Double) throws -> Double {
    var fastest = Double.infinity
    var total = 0.0
    var count = 0
    repeat {
      let seconds = try Stopwatch.time { try run.run() }.seconds
      fastest = min(fastest, seconds)
      total += seconds
      count += 1
    } while (count < 2 || total < policy.probeSeconds) && count < 50 && fastest < budget / 20
    return fastest
  }

  /// The predicted cost of measuring at `n`: inputs, warm-up, the minimum runs and the memory child.
  private func predictedCost(at n: Int, from probes: [Probe]) -> Double {
    guard let last = probes.last else { return 0 }
    let runExponent = max(1, exponent(probes, \.runSeconds) ?? 1)
    let prepareExponent = max(1, exponent(probes, \.prepareSeconds) ?? 1)
    let run = GrowthFit.extrapolate(seconds: last.runSeconds, from: last.n, to: n, exponent: runExponent)
    let prepare = GrowthFit.extrapolate(seconds: last.prepareSeconds, from: last.n, to: n, exponent: prepareExponent)
    let memoryCost = memory == nil ? 0 : prepare + run + 0.05
    return prepare + Double(1 + policy.minRuns) * run + memoryCost
  }

  /// The largest size between the last probe and `upper` whose predicted cost fits, rounded down to two digits.
  private func largestFitting(below upper: Int, from probes: [Probe], within remaining: Double) -> Int {
    guard let last = probes.last else { return upper }
    var low = Double(last.n)
    var high = Double(upper)
    for _ in 0..<40 {
      let middle = (low + high) / 2
      if predictedCost(at: Int(middle), from: probes) <= remaining { low = middle } else { high = middle }
    }
    return max(last.n, SizeLadder.roundedDown(low))
  }

  /// The growth exponent of a time between the last two probes.
  private func exponent(_ probes: [Probe], _ time: KeyPath<Probe, Double>) -> Double? {
    guard probes.count >= 2 else { return nil }
    let (a, b) = (probes[probes.count - 2], probes[probes.count - 1])
    return GrowthFit(n1: a.n, seconds1: a[keyPath: time], n2: b.n, seconds2: b[keyPath: time])?.exponent
  }
}
