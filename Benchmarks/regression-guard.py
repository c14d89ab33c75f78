#!/usr/bin/env python3
"""Regression guard: instructions per operation of four headline cases, checked against committed baselines.

Each case runs ours's side of a `keyed-benchmarks` case under `valgrind --tool=callgrind` twice, at the same N with
two run counts (`--profile CASE --n N --runs K`). The difference of the two totals, divided by the extra operations,
is the instructions one operation costs: building the inputs, starting the process and the warm-up cancel out.
Swift's hashing is made deterministic (SWIFT_DETERMINISTIC_HASHING), so the count repeats to within a fraction
of a percent on one machine and toolchain; the clock plays no part.

    Benchmarks/regression-guard.py [--executable PATH] [--baselines FILE] [--tolerance FRACTION] [--case NAME]...
    Benchmarks/regression-guard.py --record    # rewrite the baselines from this build

Exit status: 0 when every case is within the tolerance of its baseline (or faster), 1 when a case regressed (each is
named on stderr), 2 when the guard could not measure (no valgrind, no executable, a case failed or is missing from
the baselines), 64 on a bad command line. Only Python's standard library is used.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINES = ROOT / "Benchmarks" / "baselines.json"

# (case, N, (fewer runs, more runs), what one operation is, how many of them one run makes at N).
# A run of the flat and plist cases decodes or encodes N objects or entries; a run of cell-nib instantiates N times.
CASES = [
    ("KeyedArchive.decode.flat-10k", 1_000, (2, 6), "object"),
    ("KeyedArchive.decode.plist-10k", 500, (2, 6), "entry"),
    ("KeyedArchive.encode.flat-10k", 1_000, (2, 6), "object"),
    ("NibLoading.instantiate.cell-nib", 100, (2, 6), "instantiation"),
]

COLLECTED = re.compile(r"==\d+== Collected : (\d+)")


class GuardError(Exception):
    """The guard could not measure: exit status 2."""


def default_executable():
    try:
        bin_path = subprocess.run(
            ["swift", "build", "-c", "release", "--show-bin-path"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as error:
        raise GuardError(f"cannot find the release build directory ({error}); pass --executable")
    return Path(bin_path) / "keyed-benchmarks"


def instructions(executable, case, n, runs):
    """Total instructions of one profile run of `case` at `n` with `runs` measured runs."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        str(executable), "--profile", case, "--n", str(n), "--runs", str(runs),
    ]
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    result = subprocess.run(command, capture_output=True, text=True, env=environment)
    if result.returncode != 0:
        raise GuardError(f"{case}: keyed-benchmarks --profile exited with {result.returncode}:\n{result.stderr}")
    match = COLLECTED.search(result.stderr)
    if not match:
        raise GuardError(f"{case}: no instruction count in callgrind's output:\n{result.stderr}")
    return int(match.group(1))


def per_operation(executable, case, n, runs):
    fewer, more = runs
    low = instructions(executable, case, n, fewer)
    high = instructions(executable, case, n, more)
    return round((high - low) / ((more - fewer) * n))


def commit():
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("-dirty" if dirty else "")


def print_table(rows):
    header = ("case", "per", "baseline", "measured", "change", "verdict")
    lines = [header] + rows
    widths = [max(len(str(line[column])) for line in lines) for column in range(len(header))]
    for line in lines:
        cells = [str(cell).ljust(width) if index < 2 or index == 5 else str(cell).rjust(width)
                 for index, (cell, width) in enumerate(zip(line, widths))]
        print("  ".join(cells).rstrip())


def main(arguments):
    parser = argparse.ArgumentParser(
        description="Instructions per operation of four headline cases against Benchmarks/baselines.json.")
    parser.add_argument("--executable", type=Path, help="the release keyed-benchmarks (default: the release build's)")
    parser.add_argument("--baselines", type=Path, default=BASELINES, help="the baselines file")
    parser.add_argument("--tolerance", type=float, help="allowed rise as a fraction (default: the baselines file's)")
    parser.add_argument("--case", action="append", dest="cases", metavar="NAME", help="only this case (repeatable)")
    parser.add_argument("--record", action="store_true", help="measure and rewrite the baselines")
    try:
        options = parser.parse_args(arguments)
    except SystemExit as exit_request:
        return 0 if exit_request.code == 0 else 64

    try:
        if shutil.which("valgrind") is None:
            raise GuardError("valgrind is not installed (apt-get install valgrind)")
        executable = options.executable or default_executable()
        if not executable.is_file():
            raise GuardError(f"{executable} does not exist: build it with `swift build -c release`")
        selected = [case for case in CASES if not options.cases or case[0] in options.cases]
        unknown = set(options.cases or []) - {case[0] for case in CASES}
        if unknown:
            print(f"regression-guard: unknown case {', '.join(sorted(unknown))}", file=sys.stderr)
            return 64

        baselines = {"tolerance": 0.05, "cases": {}}
        if options.baselines.exists():
            baselines = json.loads(options.baselines.read_text())
        tolerance = options.tolerance if options.tolerance is not None else baselines.get("tolerance", 0.05)

        rows, regressed, measured = [], [], {}
        for name, n, runs, unit in selected:
            print(f"regression-guard: {name} at N = {n}, runs {runs[0]} and {runs[1]}", file=sys.stderr)
            count = per_operation(executable, name, n, runs)
            measured[name] = {"instructions": count, "per": unit, "n": n, "runs": list(runs)}
            if options.record:
                rows.append((name, unit, "-", f"{count:,}", "-", "recorded"))
                continue
            baseline = baselines["cases"].get(name)
            if baseline is None or baseline.get("n") != n or baseline.get("runs") != list(runs):
                raise GuardError(f"{name}: no baseline at N = {n}, runs {runs[0]} and {runs[1]}; run with --record")
            change = count / baseline["instructions"] - 1
            verdict = "REGRESSED" if change > tolerance else ("faster: re-record" if change < -tolerance else "ok")
            if change > tolerance:
                regressed.append((name, unit, baseline["instructions"], count, change))
            rows.append((name, unit, f"{baseline['instructions']:,}", f"{count:,}", f"{change:+.1%}", verdict))
    except GuardError as error:
        print(f"regression-guard: {error}", file=sys.stderr)
        return 2

    print(f"instructions per operation (callgrind), tolerance {tolerance:.0%}")
    print_table(rows)
    if options.record:
        recorded = dict(baselines)
        recorded["tolerance"] = tolerance
        recorded["commit"] = commit()
        recorded["cases"] = {**baselines.get("cases", {}), **measured}
        options.baselines.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")
        print(f"regression-guard: baselines written to {options.baselines} at {recorded['commit']}", file=sys.stderr)
        return 0
    for name, unit, baseline, count, change in regressed:
        print(f"regression-guard: {name} regressed: {count:,} instructions an {unit} against a baseline of "
              f"{baseline:,} ({change:+.1%}, tolerance {tolerance:.0%})", file=sys.stderr)
    return 1 if regressed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
