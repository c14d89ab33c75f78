/// The parsed command line (see `main.swift` for the usage).
struct BenchmarkOptions {
  var quick = false
  /// `--full`: every case at 1m too, a longer budget and longer runs.
  var full = false
  var json = false
  var list = false
  var help = false
  var measuresMemory = true
  /// Substrings of case names; a case runs when its name contains any of them (all run when empty).
  var filters: [String] = []
  /// Seconds per case, all sides together; nil for the mode's default.
  var budget: Double?
  /// Child mode: the case, size, role and peer label whose peak memory to measure.
  var child: String?
  var childN: Int?
  var childSide: Side.Role?
  var childPeer: String?
  /// Profile mode: the case whose side (`--side`, ours by default) runs `profileRuns` times at `--n` (default the
  /// case's N).
  var profile: String?
  var profileRuns = 5

  /// A bad command line, reported with exit status 64.
  struct UsageError: Error {
    var message: String
  }

  /// Parses the arguments (without the program name).
  init(arguments: [String]) throws(UsageError) {
    var remaining = arguments[...]
    func value(for option: String) throws(UsageError) -> String {
      guard let value = remaining.popFirst() else { throw UsageError(message: "\(option) needs a value") }
      return value
    }
    func positiveInteger(for option: String) throws(UsageError) -> Int {
      let text = try value(for: option)
      guard let n = Int(text), n > 0 else {
        throw UsageError(message: "\(option) needs a positive integer, not \"\(text)\"")
      }
      return n
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick": quick = true
      case "--full": full = true
      case "--json": json = true
      case "--list": list = true
      case "--no-memory": measuresMemory = false
      case "-h", "--help": help = true
      case "--filter": filters.append(try value(for: argument))
      case "--budget":
        let text = try value(for: argument)
        guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
          throw UsageError(message: "--budget needs a positive number of seconds, not \"\(text)\"")
        }
        budget = seconds
      case "--child": child = try value(for: argument)
      case "--n": childN = try positiveInteger(for: argument)
      case "--side":
        let text = try value(for: argument)
        guard let role = Side.Role(rawValue: text), role != .floor else {
          throw UsageError(message: "--side needs ours or peer, not \"\(text)\"")
        }
        childSide = role
      case "--peer": childPeer = try value(for: argument)
      case "--profile": profile = try value(for: argument)
      case "--runs": profileRuns = try positiveInteger(for: argument)
      default: throw UsageError(message: "unknown argument \"\(argument)\"")
      }
    }
    if quick && full { throw UsageError(message: "--quick and --full exclude each other") }
    if child != nil, childN == nil || childSide == nil {
      throw UsageError(message: "--child needs --n and --side")
    }
  }

  /// The usage text for `--help`.
  static let usage = """
    OVERVIEW: Benchmarks of KeyedArchive against the toolchain's Foundation coders.

    USAGE: swift run -c release keyed-benchmarks [--quick | --full] [--json] [--filter NAME] [--budget SECONDS]

    By default: sizes 10k and 100k (and 1m for decode flat and decode tree), 12 s per case, runs timed over 1 s: the
    whole suite in under 10 minutes.

    OPTIONS:
      --quick             Small sizes (1k and 10k) and a short budget: the whole suite in well under a minute.
      --full              Every case at 1m too, 30 s per case, runs timed over 2 s: about 25 minutes.
      --json              Print one JSON array of result rows on stdout instead of the tables.
      --filter NAME       Run only the cases whose name contains NAME (repeatable: any of them).
      --budget SECONDS    Time allowed for one case, all its sides together (default 12; 30 with --full, 2 with
                          --quick), shared out as the sides run. A peer that would overrun its share is measured
                          at the largest size that fits and reported as such; ours always runs at the case's size, 3
                          times at least.
      --no-memory         Do not measure peak memory (no child processes).
      --list              List the cases and exit.
      -h, --help          Show this help.

    PROFILING: --profile CASE [--n N] [--runs K] [--side ours|peer] [--peer LABEL] builds one side of CASE (ours by
    default) at N (default the case's own), warms it up and runs it K times (default 5), printing each run's time on
    stderr: for perf record or valgrind --tool=callgrind, with nothing else in the process.

    Internal: --child CASE --n N --side ours|peer [--peer LABEL] [--quick] runs one operation and prints its peak
    resident memory (the parent runs itself this way).
    """
}
