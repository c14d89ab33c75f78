// keyed-benchmarks: KeyedArchive against the toolchain's Foundation coders.
//
//   swift run -c release keyed-benchmarks [--quick | --full] [--json] [--filter NAME] [--budget SECONDS] [--no-memory]
//                                         [--list]
//
//   (default)         sizes 10k and 100k, and 1m for decode flat and decode tree; runs timed over 1 s (3 to 1,000)
//                     and a 12 s budget per case: the whole suite in under 10 minutes.
//   --quick           sizes 1k and 10k, 3-5 runs per side and a 2 s budget per case: the whole suite in well under a
//                     minute.
//   --full            every case at 10k, 100k and 1m; runs timed over 2 s and a 30 s budget per case: about 25
//                     minutes.
//   --json            one JSON array of rows on stdout: {"case", "ours_ms", "ours_n", "peer", "peer_ms", "peer_n",
//                     "speedup", "ours_peak_mb", ...}; speedup = peer time per object / ours time per object; null
//                     where ours is pending. Progress goes to stderr.
//   --filter NAME     only the cases whose name contains NAME (repeatable).
//   --budget SECONDS  the time one case may take, all its sides together (default 12 s; 30 s with --full, 2 s
//                     with --quick), shared out as the sides run. A peer that would overrun its share is measured at
//                     the largest N predicted to fit and reported with that N, its fitted growth exponent and its
//                     time extrapolated to the case's N; never skipped.
//   --no-memory       skip the peak-memory child processes.
//   --list            list the cases.
//   --profile CASE [--n N] [--runs K] [--side ours|peer] [--peer LABEL]: one side of CASE (ours by default) at N,
//                     warmed up and run K times (default 5) with nothing else in the process, each run's time on
//                     stderr: for perf record and valgrind --tool=callgrind.
//   internal: --child CASE --n N --side ours|peer [--peer LABEL] [--quick]: one operation in a child process,
//             printing its peak resident memory (VmHWM after resetting it once the inputs are built).
//
// Cases are named Area.operation.input (KeyedArchive.decode.flat-100k). Inputs are generated deterministically
// (SplitMix64) before any clock starts. Each side is warmed up, then run for about 1 s (2 s with --full; 3 to 1,000
// runs), and ours once more after each measured run of each peer (Harness/InterleavedRuns.swift). The tables give
// the median, min…max, objects/s, MB/s, the archive size, the peak memory, the growth exponent, ours's speed-up over
// each side (against a peer, from ours's runs between that peer's runs) and each side's cost per object relative to
// the bare walk of a binary plist (the floor of decoding). The targets of Specs/Performance.md are checked after a
// default or --full run (Harness/Targets.swift): a missed one makes the exit status 2.
// Ours plugs in through Cases/Ours.swift; see Benchmarks/README.md.
import Foundation

exit(BenchmarkCommand.main(Array(CommandLine.arguments.dropFirst())))
