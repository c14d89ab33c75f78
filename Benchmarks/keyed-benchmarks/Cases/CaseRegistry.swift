/// Which cases and sizes a run of the suite covers.
enum SuiteScope {
  /// `--quick`: sizes 1k and 10k, fewer repetitions; a smoke test.
  case quick
  /// The default: sizes 10k and 100k, and at 1m only the two decodes the linearity, 1M-in-2s and memory targets
  /// need (flat and tree).
  case standard
  /// `--full`: every case at 10k, 100k and 1m.
  case full
}

/// Every case, in run order: each input at each size (encode then decode, so they share the generated input),
/// then `small`, then the plain property-list cases.
enum CaseRegistry {
  static func cases(_ scope: SuiteScope) -> [BenchmarkCase] {
    let quick = scope == .quick
    let sizes = quick ? [1_000, 10_000] : [10_000, 100_000]
    // The 1m cases of an input: all of them with `--full`; by default only its decode when `decodeByDefault`.
    func largest(_ make: (Int) -> [BenchmarkCase], decodeByDefault: Bool = false) -> [BenchmarkCase] {
      switch scope {
      case .quick: return []
      case .full: return make(1_000_000)
      case .standard: return decodeByDefault ? make(1_000_000).filter { $0.name.contains(".decode.") } : []
      }
    }
    var cases: [BenchmarkCase] = []
    for n in sizes { cases += FlatCases.cases(n: n) }
    cases += largest(FlatCases.cases, decodeByDefault: true)
    cases += CompareCases.cases(n: quick ? 1_000 : 10_000)
    for n in sizes { cases += TreeCases.cases(n: n) }
    cases += largest(TreeCases.cases, decodeByDefault: true)
    for n in sizes { cases += PlistCases.cases(n: n) + PropertyListCases.cases(n: n) }
    cases += largest { PlistCases.cases(n: $0) + PropertyListCases.cases(n: $0) }
    for n in sizes { cases += CycleCases.cases(n: n) }
    cases += largest(CycleCases.cases)
    for n in sizes { cases += CodableCases.cases(n: n) }
    cases += SmallCases.cases(repetitions: quick ? 10_000 : 100_000)
    cases.append(PropertyListCases.largeRead(megabytes: quick ? 1 : 10))
    cases += CellNibCases.cases(repetitions: quick ? 1_000 : 10_000)
    return cases
  }
}
