#!/usr/bin/env python3
"""Whole-process comparison of `keyed` with the Python packages Linux users read Apple archives with
(Specs/Performance.md, PERF-030 to PERF-036).

Usage: peer-comparison.py [--keyed PATH] [--quick] [--work DIR] [--output FILE] [--timeout SECONDS]

Creates a virtual environment under the work folder (default .build/peer-comparison), installs the peers from PyPI
into it (bpylist2, nska-deserialize, nskeyedunarchiver, pytypedstream, nibarchive), generates the inputs there
(keyed archives written with plistlib; typedstreams converted from keyed archives by `keyed convert --format
typedstream`), then runs each side as its own process, as a user would: `keyed dump --json FILE…` against a Python
process that loads the same files with the peer and writes them as JSON. Time is the wall-clock time of the whole
process (start-up included); peak memory is the process's maximum resident set (`wait4`'s `ru_maxrss`). Each side
is checked first: the peer's JSON of a sample must agree with `keyed dump --json` of it (bytes as {"$data": base64}).

--quick uses small inputs and one run per side (seconds): it checks that the script runs and that each peer agrees
with `keyed`, and judges no figure. When PyPI cannot be reached the peers are skipped with a message (exit 0).
Exit status: 0 when every peer that ran agreed with `keyed` and every `keyed` run succeeded; 1 otherwise; 64 on a
bad command line. The report (Markdown) goes to standard output and, with --output, to FILE.
"""
import argparse, base64, json, os, plistlib, random, shutil, statistics, subprocess, sys, time
from plistlib import UID

SMALL_ROWS = 262  # about 72 KB
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
PEERS = {
    # label: (PyPI name, the body of `load(path)`, the kinds of input it reads)
    "bpylist2": ("bpylist2", "from bpylist2 import archiver\n"
                 "def load(path):\n    with open(path, 'rb') as f: return archiver.unarchive(f.read())\n", {"archive"}),
    "nska-deserialize": ("nska-deserialize", "import nska_deserialize\n"
                         "def load(path):\n    return nska_deserialize.deserialize_plist(path)\n", {"archive"}),
    "nskeyedunarchiver": ("nskeyedunarchiver", "import plistlib, NSKeyedUnArchiver\n"
                          "def load(path):\n    with open(path, 'rb') as f:\n"
                          "        return NSKeyedUnArchiver.unserializeNSKeyedArchiver(plistlib.load(f))\n", {"archive"}),
    "pytypedstream": ("pytypedstream", "import typedstream\n"
                      "def load(path):\n    with open(path, 'rb') as f: return typedstream.unarchive_from_data(f.read())\n",
                      {"typedstream"}),
    "nibarchive": ("nibarchive", "import nibarchive\n"
                   "def load(path):\n    with open(path, 'rb') as f: return nibarchive.NIBArchiveParser().parse(f)\n",
                   {"nib"}),
}
# What every peer's process does with what it loaded: the canonical JSON's forms for what Python gives (bytes as
# {"$data": ...}; pytypedstream's Foundation objects by their fields), one line per file.
DRIVER = r'''
import base64, dataclasses, json, sys
sys.setrecursionlimit(100000)
def plain(v):
    if isinstance(v, (bytes, bytearray)): return {"$data": base64.b64encode(bytes(v)).decode()}
    if isinstance(v, dict): return {str(plain(k)): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)): return [plain(x) for x in v]
    if v is None or isinstance(v, (str, int, float, bool)): return v
    for field in ("elements", "contents", "value", "data"):
        if hasattr(v, field): return plain(getattr(v, field))
    if dataclasses.is_dataclass(v): return plain(dataclasses.asdict(v))
    return str(v)
write = sys.stdout.write
for path in sys.argv[1:]:
    write(json.dumps(plain(load(path)), sort_keys=True) + "\n")
'''


def keyed_archive(root):
    """A keyed archive of Foundation values (NSArray, NSDictionary, strings, numbers, data), as NSKeyedArchiver
    lays one out, written by plistlib."""
    objects = ["$null"]
    classes = {}

    def cls(name):
        if name not in classes:
            objects.append({"$classname": name, "$classes": [name, "NSObject"]})
            classes[name] = UID(len(objects) - 1)
        return classes[name]

    def add(value):
        if isinstance(value, (list, dict)):
            index = len(objects)
            objects.append(None)
            if isinstance(value, list):
                objects[index] = {"NS.objects": [add(e) for e in value], "$class": cls("NSArray")}
            else:
                keys = [add(k) for k in value]
                values = [add(v) for v in value.values()]
                objects[index] = {"NS.keys": keys, "NS.objects": values, "$class": cls("NSDictionary")}
            return UID(index)
        objects.append(value)
        return UID(len(objects) - 1)

    top = {"root": add(root)}
    return plistlib.dumps({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": top, "$objects": objects},
                          fmt=plistlib.FMT_BINARY, sort_keys=False)


def rows(count, note, seed):
    """The flat input's rows: an Int, a unique string, a Double, a Bool, 16 bytes of data and a note."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz "
    return [{"id": i * 7919 - 50000, "name": f"row-{i:06d}-{rng.getrandbits(32):08x}", "score": rng.random() * 1000,
             "active": i % 3 == 0, "payload": rng.getrandbits(128).to_bytes(16, "big"),
             "note": f"n{i:06d} " + "".join(rng.choice(letters) for _ in range(note))} for i in range(count)]


def tree(count, seed):
    """A balanced tree of `count` nodes, 4 children per node: a name from 100 shared strings, an Int, children."""
    rng = random.Random(seed)
    names = [f"name-{i}" for i in range(100)]
    nodes = [{"name": names[rng.randrange(100)], "value": rng.randrange(1 << 40), "children": []} for _ in range(count)]
    for i in range(1, count):
        nodes[(i - 1) // 4]["children"].append(nodes[i])
    return nodes[0]


def generate(work, keyed, quick):
    """Writes the inputs; returns {case: [files]}."""
    folder = os.path.join(work, "inputs-quick" if quick else "inputs")
    done = os.path.join(folder, ".done")
    inputs = {
        "flat": [os.path.join(folder, "flat.archive")],
        "tree": [os.path.join(folder, "tree.archive")],
        "small": [os.path.join(folder, "small-72k.archive")],
        "many": [os.path.join(folder, "many", f"small-{i:03d}.archive") for i in range(10 if quick else 200)],
        "typedstreams": [os.path.join(folder, "typedstreams", f"values-{i:02d}.typedstream")
                         for i in range(5 if quick else 75)],
    }
    if os.path.exists(done):
        return inputs
    os.makedirs(os.path.join(folder, "many"), exist_ok=True)
    os.makedirs(os.path.join(folder, "typedstreams"), exist_ok=True)
    print(f"== generating the inputs in {folder}", file=sys.stderr)
    # About 40 MB and 1.4 million objects at 100,000 rows.
    write(inputs["flat"][0], keyed_archive(rows(300 if quick else 100_000, 60, 1)))
    write(inputs["tree"][0], keyed_archive(tree(300 if quick else 100_000, 2)))
    write(inputs["small"][0], keyed_archive(rows(SMALL_ROWS, 60, 3)))
    for i, path in enumerate(inputs["many"]):
        write(path, keyed_archive(rows(20, 30, 100 + i)))
    for i, path in enumerate(inputs["typedstreams"]):
        source = path + ".archive"
        write(source, keyed_archive(rows(40, 30, 1000 + i)))
        run = subprocess.run([keyed, "convert", source, "-o", path, "--format", "typedstream"], capture_output=True)
        os.unlink(source)
        if run.returncode != 0:
            sys.exit(f"keyed convert --format typedstream failed on {source}: {run.stderr.decode()}")
    write(done, b"")
    return inputs


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def corpus_nibs():
    """The NIBArchive files of ../shared/corpus, when it is there (read in place, never copied)."""
    root = os.path.join(os.path.dirname(REPO), "shared", "corpus")
    found = []
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as f:
                    if f.read(10) == b"NIBArchive":
                        found.append(path)
            except OSError:
                pass
    return sorted(found)


def install_peers(work):
    """The venv's python with the peers installed, or None (with a message) when they cannot be installed."""
    venv = os.path.join(work, "venv")
    python = os.path.join(venv, "bin", "python")
    marker = os.path.join(venv, ".peers-installed")
    if os.path.exists(marker):
        return python
    try:
        if not os.path.exists(python):
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True, timeout=300)
        names = [name for name, _, _ in PEERS.values()]
        run = subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", "-q", *names],
                             capture_output=True, timeout=600)
    except (subprocess.SubprocessError, OSError) as error:
        print(f"peers skipped: the virtual environment could not be made ({error})", file=sys.stderr)
        return None
    if run.returncode != 0:
        tail = run.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        print(f"peers skipped: PyPI could not be reached or an install failed ({tail[0]})", file=sys.stderr)
        return None
    write(marker, b"")
    return python


# The peak resident memory of one process is read by GNU time, which starts it from its own small process: Linux
# records in a child's maximum resident set the size of the process it was forked from, so a child of this script
# (which holds the inputs it generated and the JSON it compared) would report this script's peak.
TIME = shutil.which("time", path="/usr/bin:/bin")


def measure(command, runs, timeout):
    """Runs `command` `runs` times, each as its own process: (median seconds, peak MiB, failure or None)."""
    times, peak = [], 0
    report = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"peer-comparison-{os.getpid()}.time")
    for _ in range(runs):
        started = time.perf_counter()
        wrapped = [TIME, "-f", "%M", "-o", report, *command] if TIME else command
        try:
            process = subprocess.Popen(wrapped, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as error:
            return None, None, str(error)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                os.killpg(process.pid, 9)  # the side and the `time` that started it
                os.wait4(process.pid, 0)
                process.returncode = -9
                return None, None, f"no result within {timeout} s"
            time.sleep(0.002)
        elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        errors = process.stderr.read().decode(errors="replace")
        process.stderr.close()
        if process.returncode not in (0, 1) or (process.returncode == 1 and "diff" not in command[1:2]):
            return None, None, f"exit {process.returncode}: {errors.strip().splitlines()[-1:] or ''}"
        times.append(elapsed)
        kilobytes = usage.ru_maxrss
        if TIME:
            with open(report) as f:
                kilobytes = int(f.read().split()[-1])
            os.unlink(report)
        peak = max(peak, kilobytes / 1024)
        if elapsed > timeout / 4:
            break  # one run of a slow side is enough
    return statistics.median(times), peak, None


def same(a, b):
    """JSON values equal, with Python's 1 == True (a typedstream's BOOL is a char)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def agreement(keyed, python, peer, files, timeout):
    """None when the peer's JSON of each file equals `keyed dump --json`'s, else what differs."""
    try:
        return compare(keyed, python, peer, files, timeout)
    except subprocess.TimeoutExpired as error:
        return f"no result within {error.timeout} s"


def compare(keyed, python, peer, files, timeout):
    ours = subprocess.run([keyed, "dump", "--json", *files], capture_output=True, timeout=timeout)
    if ours.returncode != 0:
        return f"keyed failed: {ours.stderr.decode(errors='replace').strip()[:200]}"
    lines = ours.stdout.decode().splitlines()
    values = [json.loads(line) for line in lines]
    if len(files) > 1:
        values = [line["value"] for line in values]
    theirs = subprocess.run([python, "-c", PEERS[peer][1] + DRIVER, *files], capture_output=True, timeout=timeout)
    if theirs.returncode != 0:
        return f"{peer} failed: {theirs.stderr.decode(errors='replace').strip().splitlines()[-1:]}"
    for file, mine, line in zip(files, values, theirs.stdout.decode().splitlines()):
        if not same(mine, json.loads(line)):
            return f"{os.path.basename(file)}: {peer} reads {line[:120]}…, keyed {json.dumps(mine)[:120]}…"
    return None


def mib(value):
    return "–" if value is None else f"{value:.0f}"


def seconds(value):
    if value is None:
        return "–"
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keyed", help="the keyed executable (default: the release build, built if missing)")
    parser.add_argument("--quick", action="store_true", help="small inputs, one run, agreement only")
    parser.add_argument("--work", default=os.path.join(REPO, ".build", "peer-comparison"))
    parser.add_argument("--output", help="also write the Markdown report to this file")
    parser.add_argument("--timeout", type=float, default=None, help="seconds one run may take (default 600; 60 quick)")
    try:
        args = parser.parse_args()
    except SystemExit as exit:
        sys.exit(0 if exit.code == 0 else 64)
    timeout = args.timeout or (60 if args.quick else 600)
    keyed = args.keyed
    if keyed is None:
        subprocess.run(["swift", "build", "-c", "release", "--product", "keyed"], cwd=REPO, check=True)
        path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=REPO, check=True,
                              capture_output=True).stdout.decode().strip()
        keyed = os.path.join(path, "keyed")
    os.makedirs(args.work, exist_ok=True)
    if not TIME:
        print("/usr/bin/time is missing: peak memory is read from wait4, which may report this script's own peak",
              file=sys.stderr)
    inputs = generate(args.work, keyed, args.quick)
    nibs = corpus_nibs()[: 3 if args.quick else 20]
    python = install_peers(args.work)
    runs = 1 if args.quick else 3
    failures = []
    report = []

    def size(files):
        return sum(os.path.getsize(f) for f in files)

    # keyed alone on the flat archive: the memory targets of validate, convert and diff.
    flat = inputs["flat"][0]
    flat_mib = size([flat]) / (1 << 20)
    out = os.path.join(args.work, "converted.archive")
    # The flat archive with the middle row's name changed in place ("row-N-" -> "Row-N-"): a comparison of two
    # inputs that differ, through their trees (ARC-314), where `diff A A` checks inputs stored alike (ARC-315).
    changed = os.path.join(args.work, "changed.archive")
    with open(flat, "rb") as f:
        data = bytearray(f.read())
    middle = data.find(f"row-{(300 if args.quick else 100_000) // 2:06d}-".encode())
    if middle < 0:
        sys.exit("the middle row's name is not in the flat archive")
    data[middle] = ord("R")
    write(changed, bytes(data))
    own = {}
    for label, command in [("dump --json", [keyed, "dump", "--json", flat]), ("validate", [keyed, "validate", flat]),
                           ("convert", [keyed, "convert", flat, "-o", out]),
                           ("convert --format xml", [keyed, "convert", flat, "-o", out + ".xml", "--format", "xml"]),
                           ("diff A A", [keyed, "diff", flat, flat]),
                           ("diff A B (one name changed)", [keyed, "diff", flat, changed])]:
        elapsed, peak, error = measure(command, runs, timeout)
        own[label] = (elapsed, peak)
        if error:
            failures.append(f"keyed {label}: {error}")
    for path in (out, out + ".xml", changed):
        if os.path.exists(path):
            os.unlink(path)
    report.append(f"`keyed` on the flat archive ({flat_mib:.1f} MiB):\n")
    report.append("| command | time | peak MiB | × input |")
    report.append("|---|---|---|---|")
    for label, (elapsed, peak) in own.items():
        report.append(f"| `keyed {label}` | {seconds(elapsed)} | {mib(peak)} | "
                      f"{'–' if peak is None else f'{peak / flat_mib:.1f}×'} |")
    report.append("")

    count = 300 if args.quick else 100_000
    cases = [
        ("flat", f"flat: {count:,} rows of an Int, a string, a Double, a Bool, 16 bytes of data, a note", "archive"),
        ("tree", f"tree: {count:,} dictionaries, 4 children each", "archive"),
        ("small", f"one archive of {SMALL_ROWS} rows", "archive"),
        ("many", f"{len(inputs['many'])} archives of 20 rows, one process", "archive"),
        ("typedstreams", f"{len(inputs['typedstreams'])} typedstreams of 40 rows, one process", "typedstream"),
    ]
    if nibs:
        inputs["nibs"] = nibs
        cases.append(("nibs", f"{len(nibs)} NIBArchive nibs of the corpus, one process", "nib"))
    report.append("| input | size | side | time | peak MiB | `keyed` faster by |")
    report.append("|---|---|---|---|---|---|")
    ratios = {}
    for case, title, kind in cases:
        files = inputs[case]
        print(f"== {title}", file=sys.stderr)
        ours_time, ours_peak, error = measure([keyed, "dump", "--json", *files], runs, timeout)
        if error:
            failures.append(f"keyed dump --json ({case}): {error}")
        report.append(f"| {title} | {size(files) / 1e6:.2f} MB | `keyed dump --json` | {seconds(ours_time)} | "
                      f"{mib(ours_peak)} | |")
        if python is None:
            continue
        for peer, (_, body, kinds) in PEERS.items():
            if kind not in kinds:
                continue
            if kind != "nib":
                sample = files[:3] if len(files) > 1 else files
                problem = agreement(keyed, python, peer, sample, timeout) if args.quick or case != "flat" else None
                if problem:
                    failures.append(f"{peer} ({case}) disagrees: {problem}")
                    report.append(f"| | | {peer} | disagrees: {problem[:80]} | | |")
                    continue
            print(f"   {peer}", file=sys.stderr)
            elapsed, peak, error = measure([python, "-c", body + DRIVER, *files], runs, timeout)
            ratio = None if error or ours_time is None else elapsed / ours_time
            ratios[(case, peer)] = ratio
            shown = error if error else seconds(elapsed)
            report.append(f"| | | {peer} | {shown} | {mib(peak)} | "
                          f"{'–' if ratio is None else f'{ratio:.1f}×'} |")
        ratios[(case, "keyed")] = ours_time
    report.append("")
    if not args.quick:
        report += targets(own, flat_mib, ratios)
    text = "\n".join(report) + "\n"
    print(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    for failure in failures:
        print(f"FAIL {failure}", file=sys.stderr)
    print(f"{'quick mode: ' if args.quick else ''}{len(failures)} failed", file=sys.stderr)
    sys.exit(1 if failures else 0)


def targets(own, flat_mib, ratios):
    """The targets of issue #39 against today's figures (reported, not judged)."""
    def ratio(case, peer):
        return ratios.get((case, peer))

    def mark(ok):
        return "met" if ok else "not met"

    lines = ["| target | figure | |", "|---|---|---|"]
    dump_time, dump_peak = own["dump --json"]
    for peer, goal in [("bpylist2", 10), ("nska-deserialize", 20)]:
        value = ratio("flat", peer)
        if value is not None:
            lines.append(f"| `dump --json` of the flat archive ≥ {goal}× faster than {peer} | {value:.1f}× | "
                         f"{mark(value >= goal)} |")
    for label, goal in [("dump --json", 3), ("validate", 2), ("convert", 3), ("diff A A", 3)]:
        peak = own[label][1]
        if peak is not None:
            lines.append(f"| `{label}` peak memory ≤ {goal}× the input | {peak / flat_mib:.1f}× | "
                         f"{mark(peak <= goal * flat_mib)} |")
    diff_time = own["diff A A"][0]
    if diff_time and dump_time:
        lines.append(f"| `diff A A` ≤ 2× `dump --json`'s time | {diff_time / dump_time:.1f}× | "
                     f"{mark(diff_time <= 2 * dump_time)} |")
    value = ratio("typedstreams", "pytypedstream")
    if value is not None:
        lines.append(f"| typedstreams in one process ≥ 5× faster than pytypedstream | {value:.1f}× | {mark(value >= 5)} |")
    fastest = [ratio("small", peer) for peer in ("bpylist2", "nska-deserialize", "nskeyedunarchiver")]
    fastest = [value for value in fastest if value is not None]
    if fastest:
        lines.append(f"| `dump` of a 72 KB archive ≥ 5× faster than the fastest Python peer | {min(fastest):.1f}× | "
                     f"{mark(min(fastest) >= 5)} |")
    return lines + [""]


if __name__ == "__main__":
    main()
