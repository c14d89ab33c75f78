/// Every case, in run order: each input at each size (encode then decode, so they share the generated input),
/// then `small`, then the plain property-list cases.
enum CaseRegistry {
  /// The sizes of the N-sized inputs.
  static func sizes(quick: Bool) -> [Int] { quick ? [1_000, 10_000] : [10_000, 100_000, 1_000_000] }

  static func cases(quick: Bool) -> [BenchmarkCase] {
    let sizes = sizes(quick: quick)
    var cases: [BenchmarkCase] = []
    for n in sizes { cases += FlatCases.cases(n: n) }
    for n in sizes { cases += TreeCases.cases(n: n) }
    for n in sizes { cases += PlistCases.cases(n: n) + PropertyListCases.cases(n: n) }
    for n in sizes { cases += CycleCases.cases(n: n) }
    for n in sizes.prefix(2) { cases += CodableCases.cases(n: n) }
    cases += SmallCases.cases(repetitions: quick ? 10_000 : 100_000)
    cases.append(PropertyListCases.largeRead(megabytes: quick ? 1 : 10))
    cases += CellNibCases.cases(repetitions: quick ? 1_000 : 10_000)
    return cases
  }
}
