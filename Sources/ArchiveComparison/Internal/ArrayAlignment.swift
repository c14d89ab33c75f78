/// The alignment of two arrays by their elements' keys (ARC-304): their common start and end by position, the
/// middle by a longest common subsequence, within a bound on the work so that hostile input stays near-linear.
enum ArrayAlignment {
  /// One step of an alignment, in order.
  enum Step: Equatable {
    /// Element `i` of the first array and `j` of the second have the same key.
    case same(Int, Int)
    /// Element `i` of the first array was replaced by `j` of the second (a removal and an insertion at one place).
    case changed(Int, Int)
    /// Element `i` is only in the first array.
    case removed(Int)
    /// Element `j` is only in the second array.
    case inserted(Int)
  }

  /// The pairs of elements a longest common subsequence of `a` and `b` would cover once their common start and
  /// end are taken.
  static func cells(_ a: [Int], _ b: [Int]) -> Int {
    var start = 0
    while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
    var (endA, endB) = (a.count, b.count)
    while endA > start, endB > start, a[endA - 1] == b[endB - 1] {
      endA -= 1
      endB -= 1
    }
    let product = (endA - start).multipliedReportingOverflow(by: endB - start)
    return product.overflow ? Int.max : product.partialValue
  }

  /// The steps aligning `a` with `b`. The middle that remains once the common start and end are taken is aligned
  /// by a longest common subsequence when it has at most `maxCells` pairs of elements; past that, elements whose
  /// key occurs once on each side anchor the alignment (in the order of the first array, as far as the second
  /// keeps it) and what lies between two anchors is paired by position.
  static func steps(_ a: [Int], _ b: [Int], maxCells: Int) -> [Step] {
    var start = 0
    while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
    var endA = a.count
    var endB = b.count
    while endA > start, endB > start, a[endA - 1] == b[endB - 1] {
      endA -= 1
      endB -= 1
    }
    var steps: [Step] = (0..<start).map { .same($0, $0) }
    steps.reserveCapacity(max(a.count, b.count) + 1)
    let (n, m) = (endA - start, endB - start)
    if n == 0 || m == 0
      || n.multipliedReportingOverflow(by: m).partialValue <= maxCells
        && !n.multipliedReportingOverflow(by: m).overflow
    {
      steps += commonSubsequence(a, start..<endA, b, start..<endB)
    } else {
      steps += anchored(a, start..<endA, b, start..<endB)
    }
    var (i, j) = (endA, endB)
    while i < a.count {
      steps.append(.same(i, j))
      (i, j) = (i + 1, j + 1)
    }
    return steps
  }

  /// The longest common subsequence of `a[ra]` and `b[rb]` as steps in order; a run of removals next to a run of
  /// insertions pairs up as changes.
  private static func commonSubsequence(_ a: [Int], _ ra: Range<Int>, _ b: [Int], _ rb: Range<Int>) -> [Step] {
    let (n, m) = (ra.count, rb.count)
    var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
    if n > 0, m > 0 {
      for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
          lengths[i * (m + 1) + j] =
            a[ra.lowerBound + i] == b[rb.lowerBound + j]
            ? lengths[(i + 1) * (m + 1) + j + 1] + 1
            : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
        }
      }
    }
    var pairer = Pairer()
    var (i, j) = (0, 0)
    while i < n || j < m {
      if i < n, j < m, a[ra.lowerBound + i] == b[rb.lowerBound + j] {
        pairer.same(ra.lowerBound + i, rb.lowerBound + j)
        (i, j) = (i + 1, j + 1)
      } else if j == m || (i < n && lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1]) {
        pairer.removed.append(ra.lowerBound + i)
        i += 1
      } else {
        pairer.inserted.append(rb.lowerBound + j)
        j += 1
      }
    }
    pairer.flush()
    return pairer.steps
  }

  /// The alignment of a middle too large for a common subsequence: the keys that occur once on each side, taken
  /// in the first array's order while their places in the second increase, anchor it; between anchors, elements
  /// pair by position.
  private static func anchored(_ a: [Int], _ ra: Range<Int>, _ b: [Int], _ rb: Range<Int>) -> [Step] {
    var countA: [Int: Int] = [:]
    var placeB: [Int: Int] = [:]
    var countB: [Int: Int] = [:]
    for i in ra { countA[a[i], default: 0] += 1 }
    for j in rb {
      countB[b[j], default: 0] += 1
      placeB[b[j]] = j
    }
    var anchors: [(Int, Int)] = []
    var last = rb.lowerBound - 1
    for i in ra where countA[a[i]] == 1 && countB[a[i]] == 1 {
      if let j = placeB[a[i]], j > last {
        anchors.append((i, j))
        last = j
      }
    }
    anchors.append((ra.upperBound, rb.upperBound))
    var pairer = Pairer()
    var (i, j) = (ra.lowerBound, rb.lowerBound)
    for (anchorA, anchorB) in anchors {
      while i < anchorA || j < anchorB {
        if i < anchorA, j < anchorB {
          pairer.flush()
          pairer.steps.append(a[i] == b[j] ? .same(i, j) : .changed(i, j))
          (i, j) = (i + 1, j + 1)
        } else if i < anchorA {
          pairer.removed.append(i)
          i += 1
        } else {
          pairer.inserted.append(j)
          j += 1
        }
      }
      if anchorA < ra.upperBound {
        pairer.same(anchorA, anchorB)
        (i, j) = (anchorA + 1, anchorB + 1)
      }
    }
    pairer.flush()
    return pairer.steps
  }

  /// Collects steps, pairing a run of removals with the run of insertions beside it.
  private struct Pairer {
    var steps: [Step] = []
    var removed: [Int] = []
    var inserted: [Int] = []

    mutating func same(_ i: Int, _ j: Int) {
      flush()
      steps.append(.same(i, j))
    }

    mutating func flush() {
      let paired = min(removed.count, inserted.count)
      for k in 0..<paired { steps.append(.changed(removed[k], inserted[k])) }
      steps += removed.dropFirst(paired).map { .removed($0) }
      steps += inserted.dropFirst(paired).map { .inserted($0) }
      (removed, inserted) = ([], [])
    }
  }
}
