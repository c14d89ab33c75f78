/// The sizes a side is probed at on the way up to its target: 1-3-10 steps from a small size.
enum SizeLadder {
  /// Sizes from `smallest` up to and including `target`, in steps of about 3× (10, 30, 100, 300, ...). Starting small
  /// keeps the first probe of a quadratic peer cheap; the small probes repeat until they have run long enough.
  static func sizes(upTo target: Int, from smallest: Int) -> [Int] {
    guard target > smallest else { return [max(target, 1)] }
    var rung = 1
    while rung * 10 <= smallest { rung *= 10 }
    var sizes: [Int] = []
    var size = rung
    while size < target {
      if size >= smallest { sizes.append(size) }
      size = size == rung ? rung * 3 : rung * 10
      if size == rung * 10 { rung *= 10 }
    }
    sizes.append(target)
    return sizes
  }

  /// `value` rounded down to two significant digits (7,481 → 7,400), at least 1.
  static func roundedDown(_ value: Double) -> Int {
    guard value >= 1 else { return 1 }
    var scale = 1.0
    while value / scale >= 100 { scale *= 10 }
    return max(1, Int((value / scale).rounded(.down) * scale))
  }
}
