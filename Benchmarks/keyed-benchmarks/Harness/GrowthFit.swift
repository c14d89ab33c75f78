import Foundation

/// The growth of a run time with its size, `t ∝ N^k`, fitted from two sizes.
struct GrowthFit {
  /// The exponent k.
  var exponent: Double
  /// The two sizes it was fitted from.
  var sizes: (Int, Int)

  /// Fits `k = log(t2/t1) / log(n2/n1)`; nil when the sizes are equal or a time is not positive.
  init?(n1: Int, seconds1: Double, n2: Int, seconds2: Double) {
    guard n1 > 0, n2 > 0, n1 != n2, seconds1 > 0, seconds2 > 0 else { return nil }
    exponent = log(seconds2 / seconds1) / log(Double(n2) / Double(n1))
    sizes = (n1, n2)
  }

  /// The time at size `n` from a time measured at `n0`, growing with `exponent`.
  static func extrapolate(seconds: Double, from n0: Int, to n: Int, exponent: Double) -> Double {
    seconds * pow(Double(n) / Double(n0), exponent)
  }
}
