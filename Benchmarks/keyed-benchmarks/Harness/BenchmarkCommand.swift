import Foundation

/// The benchmark executable: parses the command line, runs the selected cases and reports them.
enum BenchmarkCommand {
  /// Runs the command; returns the exit status (0 success, 1 a side failed, 2 a target of Specs/Performance.md
  /// missed, 64 bad arguments).
  static func main(_ arguments: [String]) -> Int32 {
    let options: BenchmarkOptions
    do {
      options = try BenchmarkOptions(arguments: arguments)
    } catch {
      printError("keyed-benchmarks: \(error.message) (see --help)")
      return 64
    }
    if options.help {
      print(BenchmarkOptions.usage)
      return 0
    }
    FoundationArchiving.registerClassNames()
    // A child or a profile may name any case of its mode, including the 1m cases only `--full` runs.
    let scope: SuiteScope = options.quick ? .quick : options.full ? .full : .standard
    if options.child != nil || options.profile != nil {
      let all = CaseRegistry.cases(options.quick ? .quick : .full)
      return options.child != nil ? ChildCommand.run(options, cases: all) : ProfileCommand.run(options, cases: all)
    }
    let all = CaseRegistry.cases(scope)
    let selected = all.filter { item in options.filters.isEmpty || options.filters.contains { item.name.contains($0) } }
    if options.list {
      for item in selected { print("\(item.name)  (N = \(Units.count(item.n))): \(item.summary)") }
      return 0
    }
    guard !selected.isEmpty else {
      printError("keyed-benchmarks: no case name contains \(options.filters.joined(separator: " or ")) (see --list)")
      return 64
    }
    let policy = RunPolicy(scope, budget: options.budget, memory: options.measuresMemory)
    let inputs = InputCache()
    let memory =
      policy.measuresMemory ? MemoryProbe(executable: MemoryProbe.currentExecutable(), quick: options.quick) : nil
    let runner = SideRunner(policy: policy, inputs: inputs, memory: memory)
    let started = ContinuousClock.now
    var json = JSONReporter()
    let table = TableReporter()
    var failed = false
    // The targets of Specs/Performance.md, checked unless --quick (PERF-010 to PERF-017).
    let checksTargets = scope != .quick
    var missed: [String] = []
    var oursSecondsPerObject: [String: Double] = [:]
    if !options.json {
      let mode = options.quick ? " --quick" : options.full ? " --full" : ""
      print(
        "keyed-benchmarks\(mode): \(selected.count) cases, \(policy.minRuns)-"
          + "\(policy.maxRuns) runs per side, budget \(Units.duration(policy.budgetSeconds)) per case, "
          + "\(ProcessInfo.processInfo.activeProcessorCount) cores\n")
    }
    for (index, item) in selected.enumerated() {
      printError("[\(index + 1)/\(selected.count)] \(item.name)")
      inputs.enter(group: item.group)
      // One budget for the whole case, shared out as the sides run: ours, the floor, then the peers.
      let sides = (item.ours == nil ? 0 : 1) + (item.floor == nil ? 0 : 1) + item.peers.count
      var budget = CaseBudget(totalSeconds: policy.budgetSeconds, sides: sides)
      var sidesLeft = sides
      func share() -> Double {
        defer { sidesLeft -= 1 }
        return budget.share(sidesLeft: sidesLeft)
      }
      var interleaved: InterleavedRuns?
      var ours = item.ours.map {
        runner.measure(
          $0, caseName: item.name, targetN: item.n, budget: share(), reducible: false, probes: true,
          keep: { interleaved = InterleavedRuns($0) })
      }
      // The extra runs of ours and the floor come out of no peer's share.
      budget.credit(ours?.secondsOfRuns(after: policy.minRuns) ?? 0)
      let floor = item.floor.map {
        runner.measure($0, caseName: item.name, targetN: item.n, budget: share(), reducible: false, probes: false)
      }
      budget.credit(floor?.secondsOfRuns(after: policy.minRuns) ?? 0)
      // Ours runs once more after each measured run of each peer (``InterleavedRuns``), on time credited back,
      // until those runs between one peer's runs have taken the target time together (3 at least), as ours's own
      // runs stop: a peer of many short runs would otherwise add one of ours's long runs to each, which makes a 1m
      // case run for many minutes when a peer runs at a small N.
      var peers: [SideMeasurement] = []
      for peer in item.peers {
        let before = interleaved?.seconds ?? 0
        let firstBetween = interleaved?.samples.count ?? 0
        let between = interleaved.map { runs in
          { () -> Double in
            let count = runs.samples.count - firstBetween
            guard count < policy.minRuns || runs.seconds - before < policy.targetSeconds else { return 0 }
            return runs.runOnce()
          }
        }
        var measured = runner.measure(
          peer, caseName: item.name, targetN: item.n, budget: share(), reducible: true, probes: true,
          between: between)
        // Ours's runs between this peer's: its speed-up over the peer is taken from them.
        if let interleaved { measured.oursBetween = Array(interleaved.samples[firstBetween...]) }
        peers.append(measured)
        budget.credit((interleaved?.seconds ?? 0) - before)
      }
      if let interleaved {
        ours?.samples += interleaved.samples
        ours?.interleavedRuns = interleaved.samples.count
        if let failure = interleaved.failure { ours?.failure = failure }
      }
      if !options.json {
        printError(
          "  \(item.name): \(Units.duration(budget.elapsedSeconds)) (budget \(Units.duration(budget.totalSeconds)))")
      }
      let result = CaseResult(
        name: item.name, n: item.n, summary: item.summary, notes: item.notes, ours: ours, peers: peers, floor: floor)
      failed = failed || result.hasFailure
      if checksTargets {
        missed += Targets.misses(result)
        if result.ours?.failure == nil { oursSecondsPerObject[item.name] = result.ours?.secondsPerObject }
      }
      if options.json { json.add(result) } else { table.report(result) }
    }
    let total = Stopwatch.seconds(since: started)
    if checksTargets {
      missed += Targets.linearityMisses(secondsPerObject: oursSecondsPerObject)
      if scope == .standard, options.filters.isEmpty, total > Targets.defaultRunSeconds {
        missed.append(
          "PERF-006: the default run took \(Units.duration(total)), more than "
            + "\(Units.duration(Targets.defaultRunSeconds))")
      }
    }
    if options.json { print(json.text) } else { print("total \(Units.duration(total))") }
    for miss in missed { printError("keyed-benchmarks: target missed: \(miss)") }
    printError(
      "keyed-benchmarks: \(selected.count) cases in \(Units.duration(total))\(failed ? ", with failures" : "")"
        + (missed.isEmpty ? "" : ", \(missed.count) target\(missed.count == 1 ? "" : "s") missed"))
    return failed ? 1 : missed.isEmpty ? 0 : 2
  }

  private static func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
