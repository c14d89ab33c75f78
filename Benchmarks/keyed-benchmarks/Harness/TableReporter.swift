/// Prints each case as a readable table: one row per side, with ours's speed-up over each side and each side's time
/// per object as a multiple of the bare walk's.
struct TableReporter {
  /// Writes one case to standard output.
  func report(_ result: CaseResult) {
    print("\(result.name)  (N = \(Units.count(result.n))): \(result.summary)")
    var header = [
      "side", "N", "median", "min … max", "objects/s", "MB/s", "size", "peak MiB (op)", "growth", "ours speed-up",
    ]
    if result.floor != nil { header.append("× walk") }
    var table = TextTable(header: header)
    var footnotes: [String] = []
    if let ours = result.ours {
      table.rows.append(row(ours, in: result, footnotes: &footnotes))
    } else {
      table.rows.append(["ours", "pending"])
    }
    for peer in result.peers { table.rows.append(row(peer, in: result, footnotes: &footnotes)) }
    if let floor = result.floor { table.rows.append(row(floor, in: result, footnotes: &footnotes)) }
    for line in table.lines() { print(line) }
    for note in result.notes { print("    note: \(note)") }
    for note in footnotes { print("    * \(note)") }
    print("")
  }

  private func row(_ side: SideMeasurement, in result: CaseResult, footnotes: inout [String]) -> [String] {
    let name = side.role == .ours ? "ours: \(side.label)" : side.label
    if let failure = side.failure {
      footnotes.append("\(side.label): \(failure)")
      return [name, "failed (see below)"]
    }
    guard let median = side.median, let low = side.minimum, let high = side.maximum else {
      return [name, "no runs"]
    }
    var sizeText = Units.count(side.n)
    if side.budgetLimited {
      sizeText += "*"
      var note = "\(side.label): measured at N = \(Units.count(side.n)) of \(Units.count(side.targetN)) to fit the "
      note += "time budget (its inputs took \(Units.duration(side.prepareSeconds)) to build)"
      if let growth = side.growth, let extrapolated = side.extrapolatedSeconds {
        note += String(
          format: "; time ∝ N^%.2f (fitted at %@ and %@), so about %@ at N = %@", growth.exponent,
          Units.count(growth.sizes.0), Units.count(growth.sizes.1), Units.duration(extrapolated),
          Units.count(side.targetN))
      }
      footnotes.append(note)
    }
    if let memoryNote = side.memoryNote { footnotes.append("\(side.label) memory: \(memoryNote)") }
    if side.role == .peer, result.ours?.failure == nil, let median = result.oursMedian(against: side),
      let overAll = result.speedupOverAllRuns(over: side)
    {
      let paired = side.oursBetween.count >= CaseResult.minimumPairedRuns
      footnotes.append(
        "\(side.label): speed-up from ours's "
          + (paired
            ? "\(side.oursBetween.count) runs between its runs (median \(Units.duration(median)))"
            : "runs, all of them (\(side.oursBetween.count) between its runs, too few)")
          + "; from all of ours's runs, \(Units.ratio(overAll))")
    }
    if side.interleavedRuns > 0 {
      footnotes.append(
        "ours: \(side.samples.count) runs, \(side.samples.count - side.interleavedRuns) of its own, then "
          + "\(side.interleavedRuns) between the peers' runs")
    }
    var memoryText = "–"
    if let peak = side.peakMiB {
      memoryText = String(format: "%.1f", peak)
      if let setup = side.setupMiB { memoryText += String(format: " (+%.1f)", max(0, peak - setup)) }
    }
    let speedup: String
    if side.role == .ours {
      speedup = "—"
    } else {
      speedup = result.speedup(over: side).map(Units.ratio) ?? (result.ours == nil ? "pending" : "–")
    }
    var cells = [
      name, sizeText, Units.duration(median), "\(Units.duration(low)) … \(Units.duration(high))",
      side.objectsPerSecond.map(Units.rate) ?? "–",
      side.megabytesPerSecond.map(Units.megabytes) ?? "–", Units.bytes(side.bytes), memoryText,
      side.growth.map { String(format: "N^%.2f", $0.exponent) } ?? "–", speedup,
    ]
    if result.floor != nil { cells.append(result.timesFloor(side).map(Units.ratio) ?? "–") }
    return cells
  }
}
