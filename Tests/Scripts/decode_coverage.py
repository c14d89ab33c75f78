#!/usr/bin/env python3
"""Checks that a coverage run of the test suite takes every branch of the keyed unarchiver's decode core
(Specs/Performance.md, PERF-020): every code region of `KeyedUnarchiver.decode(uid:key:index:allowed:collecting:)`,
of `decodeObjectEntry`, which makes an object not decoded yet, and of `KeyedUnarchiver.instantiate(_:uid:allowed:)`
must have run at least once. A region no test reaches is a
branch that cannot run, or one no test covers: either way the check names it.

Usage:
    decode_coverage.py [--run] [--scratch-path PATH] [--json PATH] [--repo PATH]

--run           runs `swift test --enable-code-coverage` first (the whole suite; a full instrumented build the first
                time); without it, the profiles of the last such run are read. The profiles are merged and exported
                here: tests that kill the `keyed` tool on purpose leave truncated profiles behind (SwiftPM's own merge
                fails on them), and those are skipped.
--scratch-path  the build directory of the coverage run (default: SwiftPM's, `.build`), so that an instrumented
                build can live beside the plain one.
--json          a coverage export (`llvm-cov export` JSON) to read instead.

Prints each function checked with its regions run and not run (by source line), and exits 1 when a region was not
run, 2 when the export or a function is missing. Python's standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCE = "Sources/KeyedArchive/KeyedUnarchiver.swift"
# Mangled-name fragments of the functions whose every region must run.
FUNCTIONS = {
    "KeyedUnarchiver.decode(uid:key:index:allowed:collecting:)": "UnarchiverC6decode3uid3key5index7allowed10collecting",
    "KeyedUnarchiver.decodeObjectEntry(_:_:key:index:allowed:collecting:)": "UnarchiverC17decodeObjectEntry",
    "KeyedUnarchiver.instantiate(_:uid:allowed:)": "UnarchiverC11instantiate",
}
CODE_REGION = 0


def swift_test(scratch_path, *arguments):
    return ["swift", "test", *(["--scratch-path", str(scratch_path)] if scratch_path else []), *arguments]


def bin_path(repo, scratch_path):
    command = ["swift", "build", *(["--scratch-path", str(scratch_path)] if scratch_path else []), "--show-bin-path"]
    result = subprocess.run(command, cwd=repo, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"decode_coverage: cannot find the build directory: {result.stderr.strip()}")
    return Path(result.stdout.strip())


def merge_and_export(repo, scratch_path):
    """Merges the run's profiles (skipping unreadable ones) and exports the test binary's coverage as JSON."""
    directory = bin_path(repo, scratch_path)
    codecov = directory / "codecov"
    profiles = sorted(str(path) for path in codecov.glob("*.profraw"))
    if not profiles:
        raise SystemExit(f"decode_coverage: no profiles in {codecov}")
    tools = Path(shutil.which("swift") or "swift").resolve().parent
    merged = codecov / "decode-coverage.profdata"
    subprocess.run(
        [str(tools / "llvm-profdata"), "merge", "-sparse", "-failure-mode=all", *profiles, "-o", str(merged)],
        check=True, capture_output=True)
    binaries = sorted(directory.glob("*PackageTests.xctest"))
    if not binaries:
        raise SystemExit(f"decode_coverage: no test binary in {directory}")
    exported = codecov / "decode-coverage.json"
    with open(exported, "w") as output:
        subprocess.run(
            [str(tools / "llvm-cov"), "export", "-format=text", f"-instr-profile={merged}", str(binaries[0])],
            check=True, stdout=output)
    return exported


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", action="store_true", help="run swift test --enable-code-coverage first")
    parser.add_argument("--json", type=Path, help="the coverage export to read")
    parser.add_argument("--scratch-path", type=Path, help="the build directory of the coverage run")
    parser.add_argument("--repo", type=Path, default=ROOT)
    arguments = parser.parse_args()
    if arguments.run:
        command = swift_test(arguments.scratch_path, "--enable-code-coverage")
        status = subprocess.run(command, cwd=arguments.repo).returncode
        if status != 0:
            # Also when only SwiftPM's merge of the profiles failed: the tests' own verdict is CI's `swift test`.
            print(f"decode_coverage: swift test exited with status {status}", file=sys.stderr)
    path = arguments.json or merge_and_export(arguments.repo, arguments.scratch_path)
    if not path.exists():
        print(f"decode_coverage: {path} does not exist; run with --run", file=sys.stderr)
        return 2
    export = json.loads(path.read_text())
    functions = [function for data in export["data"] for function in data["functions"]]
    failed = False
    for label, fragment in FUNCTIONS.items():
        # A function is listed once per test binary that links it: a region counts as run when any run it.
        matches = [
            function for function in functions
            if fragment in function["name"] and any(name.endswith(SOURCE) for name in function["filenames"])
        ]
        if not matches:
            print(f"decode_coverage: {label} not found in {path}", file=sys.stderr)
            return 2
        runs = {}
        for function in matches:
            for region in function["regions"]:
                line_start, column_start, line_end, column_end, count, file_id, _, kind = region[:8]
                if kind != CODE_REGION or not function["filenames"][file_id].endswith(SOURCE):
                    continue
                key = (line_start, column_start, line_end, column_end)
                runs[key] = runs.get(key, 0) + count
        missed = sorted(key for key, count in runs.items() if count == 0)
        print(f"{label}: {len(runs) - len(missed)} of {len(runs)} regions run")
        for line_start, column_start, line_end, column_end in missed:
            print(f"  not run: {SOURCE}:{line_start}:{column_start}-{line_end}:{column_end}")
        failed = failed or bool(missed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
