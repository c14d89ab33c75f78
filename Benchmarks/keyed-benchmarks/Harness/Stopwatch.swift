/// Times closures on the monotonic clock.
enum Stopwatch {
  /// Seconds since `start`.
  static func seconds(since start: ContinuousClock.Instant) -> Double {
    seconds(start.duration(to: .now))
  }

  /// A duration in seconds.
  static func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) * 1e-18
  }

  /// Runs `body` and returns its result with the seconds it took.
  static func time<Result>(_ body: () throws -> Result) rethrows -> (result: Result, seconds: Double) {
    let start = ContinuousClock.now
    let result = try body()
    return (result, seconds(since: start))
  }
}
