/// The speed and memory targets of `Specs/Performance.md` (PERF-010 to PERF-017), checked after a default or `--full`
/// run: a missed target makes the run exit with status 2 and is named on stderr with its rule. `--quick` checks none
/// (its peers run at small N and its runs are few).
enum Targets {
  /// A floor on ours's speed-up over one peer in some cases.
  struct SpeedupFloor {
    var rule: String
    var cases: [String]
    var peer: String
    var floor: Double
  }

  static let speedupFloors: [SpeedupFloor] = [
    SpeedupFloor(
      rule: "PERF-010", cases: ["KeyedArchive.decode.flat-10k"], peer: "NSKeyedUnarchiver", floor: 20),
    SpeedupFloor(
      rule: "PERF-011",
      cases: ["KeyedArchive.decode.tree-10k", "KeyedArchive.decode.plist-10k", "KeyedArchive.decode.small"],
      peer: "NSKeyedUnarchiver", floor: 15),
    SpeedupFloor(
      rule: "PERF-012",
      cases: [
        "KeyedArchive.encode.flat-10k", "KeyedArchive.encode.tree-10k", "KeyedArchive.encode.plist-10k",
        "KeyedArchive.encode.small",
      ],
      peer: "NSKeyedArchiver", floor: 10),
    SpeedupFloor(
      rule: "PERF-013", cases: ["NibLoading.instantiate.cell-nib"], peer: "file loaded each time", floor: 20),
    SpeedupFloor(
      rule: "PERF-014",
      cases: [
        "PropertyList.write.plist-10k", "PropertyList.read.plist-10k", "PropertyList.write.plist-100k",
        "PropertyList.read.plist-100k", "PropertyList.read.bplist-10mb",
      ],
      peer: "PropertyListSerialization", floor: 1),
  ]

  /// Cases that decode a million objects in at most this many seconds (PERF-015).
  static let millionCases = ["KeyedArchive.decode.flat-1m", "KeyedArchive.decode.tree-1m"]
  static let millionSeconds = 2.0

  /// Pairs whose time per object at 1m is at most ``linearFactor`` times that at 10k (PERF-016).
  static let linearPairs = [
    ("KeyedArchive.decode.flat-10k", "KeyedArchive.decode.flat-1m"),
    ("KeyedArchive.decode.tree-10k", "KeyedArchive.decode.tree-1m"),
  ]
  static let linearFactor = 1.5

  /// The case whose peak memory rise is at most three times its archive plus the rise of making its objects alone
  /// (the `construction only` side) (PERF-017).
  static let memoryCase = "KeyedArchive.decode.flat-1m"

  /// The longest a default run of the whole suite may take (PERF-006).
  static let defaultRunSeconds = 600.0

  /// The targets `result` misses, one message each.
  static func misses(_ result: CaseResult) -> [String] {
    guard let ours = result.ours, ours.failure == nil else { return [] }
    var misses: [String] = []
    for target in speedupFloors where target.cases.contains(result.name) {
      guard let peer = result.peers.first(where: { $0.label == target.peer }), peer.failure == nil,
        let speedup = result.speedup(over: peer)
      else { continue }
      if speedup < target.floor {
        misses.append(
          "\(target.rule): \(result.name) is \(Units.ratio(speedup)) \(target.peer), below the floor of "
            + "\(Units.ratio(target.floor))")
      }
    }
    if millionCases.contains(result.name), let median = ours.median, median > millionSeconds {
      misses.append(
        "PERF-015: \(result.name) takes \(Units.duration(median)), more than \(Units.duration(millionSeconds))")
    }
    if result.name == memoryCase, let peak = ours.peakMiB, let setup = ours.setupMiB,
      let objects = result.peers.first(where: { $0.label.hasPrefix("construction only") }),
      let objectsPeak = objects.peakMiB, let objectsSetup = objects.setupMiB
    {
      let allowed = 3 * Double(ours.bytes) / 1_048_576 + (objectsPeak - objectsSetup)
      if peak - setup > allowed {
        misses.append(
          "PERF-017: \(result.name) rises \(Int(peak - setup)) MiB, more than three times its archive plus its "
            + "objects (\(Int(allowed)) MiB)")
      }
    }
    return misses
  }

  /// The linearity targets (PERF-016) missed among the cases run, given ours's time per object in each.
  static func linearityMisses(secondsPerObject: [String: Double]) -> [String] {
    linearPairs.compactMap { small, large in
      guard let base = secondsPerObject[small], let big = secondsPerObject[large], base > 0 else { return nil }
      let factor = big / base
      guard factor > linearFactor else { return nil }
      return "PERF-016: \(large) takes \(Units.ratio(factor)) the time per object of \(small), more than "
        + "\(Units.ratio(linearFactor))"
    }
  }
}
