/// Shares one case's time budget (``RunPolicy/budgetSeconds``) between its sides, in the order they run: each side
/// gets an equal part of what is left when it starts, so a side that finishes early leaves more to the next one.
/// Ours is never reduced (it runs at the case's N, its minimum runs whatever its share), so a slow ours can use up the
/// case's time; every later side still gets a minimum share, a quarter of an equal part, and is measured at the
/// largest N that fits in it. The runs ours and the floor take beyond their minimum (to be timed over 2 s), and ours's
/// runs between the peers' runs, are credited back (``credit(_:)``): they do not shrink the peers' shares.
struct CaseBudget {
  /// The whole case's budget, with the credits.
  private(set) var totalSeconds: Double
  /// How many sides the case has.
  let sides: Int
  private let started = ContinuousClock.now

  init(totalSeconds: Double, sides: Int) {
    self.totalSeconds = totalSeconds
    self.sides = max(sides, 1)
  }

  /// Extends the budget by `seconds` that ours or the floor spent on runs beyond their minimum (ours's runs between
  /// the peers' runs included).
  mutating func credit(_ seconds: Double) { totalSeconds += seconds }

  /// Seconds since the case started.
  var elapsedSeconds: Double { Stopwatch.seconds(since: started) }

  /// The share of the next side to run, when `sidesLeft` sides (that one included) have not run yet.
  func share(sidesLeft: Int) -> Double {
    let remaining = totalSeconds - elapsedSeconds
    let minimum = totalSeconds / Double(4 * sides)
    return max(minimum, remaining / Double(max(sidesLeft, 1)))
  }
}
