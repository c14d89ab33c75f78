#!/usr/bin/env python3
"""Compares two builds of `keyed` on every file of a corpus: the standard output, the standard error and the exit
status of `dump --json`, `dump --json --pretty`, `dump` (the tree), `dump --raw --json` and `validate`, byte for byte.
With --mutations, also on cut and bit-flipped copies of each keyed archive (written to a temporary directory and
removed). Used to show that the streaming walk prints what the tree-building code printed (Decision 0040); nothing
it reads or writes is committed.

Usage: dump_compare.py BASE_KEYED NEW_KEYED CORPUS_DIR [--mutations N] [--modes MODE,...] [--verb-agreement]

Prints one line per difference and a summary; exits 1 when any output differs.
With --verb-agreement, NEW_KEYED's `validate` and `dump --json` must also agree on each file (both exit 0, or both
exit 65), and BASE_KEYED is not run.
"""
import os, random, subprocess, sys, tempfile

MODES = {
    "json": ["dump", "--json"],
    "pretty": ["dump", "--json", "--pretty"],
    "tree": ["dump"],
    "raw": ["dump", "--raw", "--json"],
    "validate": ["validate"],
}

def run(keyed, args, path):
    try:
        p = subprocess.run([keyed] + args + [path], capture_output=True, timeout=120)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""

def files(corpus):
    for folder, dirs, names in os.walk(corpus):
        dirs.sort()
        for name in sorted(names):
            if name.endswith((".md", ".txt")):
                continue
            yield os.path.join(folder, name)

def mutations(path, count, directory):
    data = open(path, "rb").read()
    if not (data.startswith(b"bplist") or b"NSKeyedArchiver" in data[:4096]):
        return
    rng = random.Random(len(data))
    for i in range(count):
        mutated = bytearray(data)
        if i % 2 == 0:
            mutated = mutated[: rng.randrange(len(mutated))]
        else:
            bit = rng.randrange(len(mutated) * 8)
            mutated[bit // 8] ^= 1 << (bit % 8)
        out = os.path.join(directory, f"{os.path.basename(path)}.{i}")
        open(out, "wb").write(bytes(mutated))
        yield out

def main():
    args = sys.argv[1:]
    mutation_count = 0
    modes = list(MODES)
    agreement = "--verb-agreement" in args
    if agreement:
        args.remove("--verb-agreement")
    if "--mutations" in args:
        i = args.index("--mutations")
        mutation_count = int(args[i + 1])
        del args[i : i + 2]
    if "--modes" in args:
        i = args.index("--modes")
        modes = args[i + 1].split(",")
        del args[i : i + 2]
    base, new, corpus = args
    differences = 0
    checked = 0
    with tempfile.TemporaryDirectory() as scratch:
        inputs = []
        for path in files(corpus):
            inputs.append(path)
            inputs.extend(mutations(path, mutation_count, scratch))
        for path in inputs:
            if agreement:
                dump = run(new, MODES["json"], path)[0]
                valid = run(new, MODES["validate"], path)[0]
                checked += 1
                if dump != valid:
                    differences += 1
                    print(f"{path}: dump --json exits {dump}, validate exits {valid}")
                continue
            for mode in modes:
                a = run(base, MODES[mode], path)
                b = run(new, MODES[mode], path)
                checked += 1
                if a != b:
                    differences += 1
                    what = [n for n, x, y in zip(("status", "stdout", "stderr"), a, b) if x != y]
                    print(f"{path} [{mode}]: {', '.join(what)} differ: {a[0]} {a[2][:200]!r} / {b[0]} {b[2][:200]!r}")
    print(f"{checked} runs, {differences} differences")
    sys.exit(1 if differences else 0)

main()
