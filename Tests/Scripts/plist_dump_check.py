#!/usr/bin/env python3
"""CLI-012 / ARC-013: `keyed dump --raw --json` of every property list in the corpus must equal what Python's
standard-library plistlib reads, mapped to the canonical JSON of Specs/CommandLineTool.md.

Usage: plist_dump_check.py KEYED_BINARY CORPUS_DIR
Prints 'N passed, N failed' and exits non-zero on any mismatch."""
import base64, datetime, json, math, os, plistlib, subprocess, sys

EPOCH = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)

def canonical(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return {"$real": "nan"}
        if math.isinf(v):
            return {"$real": "+inf" if v > 0 else "-inf"}
        return v
    if isinstance(v, str):
        return v
    if isinstance(v, bytes):
        return {"$data": base64.b64encode(v).decode()}
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=datetime.timezone.utc)
        return {"$date": (v - EPOCH).total_seconds()}
    if isinstance(v, plistlib.UID):
        return {"$uid": v.data}
    if isinstance(v, list):
        return [canonical(x) for x in v]
    if isinstance(v, dict):
        if set(v.keys()) == {"CF$UID"} and isinstance(v["CF$UID"], int):
            return {"$uid": v["CF$UID"]}
        return {k: canonical(x) for k, x in v.items()}
    raise TypeError(type(v))

def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and float(a) == float(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b and type(a) == type(b)

def main():
    keyed, corpus = sys.argv[1], sys.argv[2]
    passed = failed = 0
    for root, _, files in sorted(os.walk(corpus)):
        for name in sorted(files):
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                data = f.read()
            if not (data.startswith(b"bplist00") or data.lstrip().startswith(b"<?xml") and b"<plist" in data[:1024]):
                continue
            try:
                expected = canonical(plistlib.loads(data))
            except Exception:
                continue  # plistlib cannot read it (negative fixtures); our reader is tested on those separately
            run = subprocess.run([keyed, "dump", "--raw", "--json", path], capture_output=True)
            if run.returncode != 0:
                failed += 1
                print(f"FAIL {path}: exit {run.returncode}: {run.stderr.decode().strip()}")
                continue
            actual = json.loads(run.stdout)
            if same(actual, expected):
                passed += 1
            else:
                failed += 1
                print(f"FAIL {path}: differs from plistlib")
    print(f"plist-dump: {passed} passed, {failed} failed")
    sys.exit(1 if failed or passed == 0 else 0)

main()
