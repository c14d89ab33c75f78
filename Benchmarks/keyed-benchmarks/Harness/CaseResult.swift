/// The measurements of every side of one case.
struct CaseResult {
  var name: String
  var n: Int
  var summary: String
  var notes: [String]
  /// Nil while ours is pending.
  var ours: SideMeasurement?
  var peers: [SideMeasurement]
  var floor: SideMeasurement?

  /// The fewest of ours's runs between a peer's runs that its speed-up is taken from; with fewer, it is taken from
  /// all of ours's runs.
  static let minimumPairedRuns = 3

  /// Ours's median run time as compared with `other`: the median of ours's runs between `other`'s runs when there
  /// are at least ``minimumPairedRuns`` of them (the same stretch of the shared machine as `other`'s own runs),
  /// else the median of all of ours's runs.
  func oursMedian(against other: SideMeasurement) -> Double? {
    if other.oursBetween.count >= Self.minimumPairedRuns { return SideMeasurement.median(of: other.oursBetween) }
    return ours?.median
  }

  /// Ours's speed-up over a side: the side's time per object divided by ours's (above 1: ours is faster), ours's
  /// being ``oursMedian(against:)``'s.
  func speedup(over other: SideMeasurement) -> Double? {
    guard let ours, let median = oursMedian(against: other) else { return nil }
    return ratio(oursSeconds: median, objects: ours.objects, over: other)
  }

  /// Ours's speed-up over a side from the median of all of ours's runs (its own and those between every peer's).
  func speedupOverAllRuns(over other: SideMeasurement) -> Double? {
    guard let ours, let median = ours.median else { return nil }
    return ratio(oursSeconds: median, objects: ours.objects, over: other)
  }

  private func ratio(oursSeconds: Double, objects: Int, over other: SideMeasurement) -> Double? {
    let mine = oursSeconds / Double(max(objects, 1))
    guard let theirs = other.secondsPerObject, mine > 0 else { return nil }
    return theirs / mine
  }

  /// A side's time per object as a multiple of the bare walk's.
  func timesFloor(_ side: SideMeasurement) -> Double? {
    guard let floor = floor?.secondsPerObject, let mine = side.secondsPerObject, floor > 0 else { return nil }
    return mine / floor
  }

  /// Whether any side failed (threw or returned a wrong result).
  var hasFailure: Bool {
    ([ours, floor].compactMap { $0 } + peers).contains { $0.failure != nil }
  }
}
