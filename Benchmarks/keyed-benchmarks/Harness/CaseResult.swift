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

  /// Ours's speed-up over a side: the side's time per object divided by ours's (above 1: ours is faster).
  func speedup(over other: SideMeasurement) -> Double? {
    guard let mine = ours?.secondsPerObject, let theirs = other.secondsPerObject, mine > 0 else { return nil }
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
