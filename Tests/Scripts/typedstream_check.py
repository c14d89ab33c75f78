#!/usr/bin/env python3
"""Cross-checks `keyed dump --raw --json` on typedstreams against the independent dumper typedstream_dump.py.

Usage: typedstream_check.py KEYED_BINARY CORPUS_DIR

For every file in CORPUS_DIR/typedstream (MANIFEST.md and hidden files skipped), runs
`KEYED_BINARY dump --raw --json FILE` and `typedstream_dump.py FILE` (the script beside this one).
- A file that MANIFEST.md lists as `negative` passes when both exit with status 65.
- Any other file passes when both exit 0 and their outputs, parsed with json.loads (bare NaN/Infinity refused),
  are the same JSON value: same keys, same array lengths, strings equal, true/false/null equal, numbers equal by
  value (so 100 and 100.0 match). A failing file prints one line with the first differing JSON path.
  When the values match but the text differs (number spelling, key order, spacing, escapes, extra lines), a
  NOTE line says where; a note is not a failure.
Ends with the line `N passed, N failed`; exit status 1 when any failed, 0 otherwise. When CORPUS_DIR/typedstream
does not exist it prints a skip message and exits 0; exit 64 on bad arguments or a KEYED_BINARY that is not there.
Each run is limited to TYPEDSTREAM_CHECK_TIMEOUT seconds (default 120); a timeout or a signal is a failure.
Standard-library Python only.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DUMPER = os.path.join(HERE, "typedstream_dump.py")


def negatives(manifest):
    """File names whose kind column in MANIFEST.md's table is `negative`."""
    names = set()
    try:
        with open(manifest, encoding="utf-8") as handle:
            for line in handle:
                cells = [cell.strip() for cell in line.split("|")]
                if len(cells) > 3 and cells[1].startswith("`") and cells[1].endswith("`"):
                    if cells[2].lower() == "negative":
                        names.add(cells[1].strip("`"))
    except OSError:
        pass
    return names


def refuse_constant(token):
    raise ValueError(f"bare {token} is not JSON")


def parse(text):
    return json.loads(text, parse_constant=refuse_constant)


def short(value, limit=160):
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit] + "..."


def key_path(path, key):
    return f"{path}.{key}" if key.replace("$", "").replace("_", "").isalnum() else f"{path}[{json.dumps(key)}]"


def first_difference(a, b, path="$"):
    """Returns None when a (keyed) and b (dumper) are the same JSON value, else (path, what keyed has, what dumper has)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in b:
                return key_path(path, key), short(a[key]), "(no such key)"
            if key not in a:
                return key_path(path, key), "(no such key)", short(b[key])
            found = first_difference(a[key], b[key], key_path(path, key))
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index in range(min(len(a), len(b))):
            found = first_difference(a[index], b[index], f"{path}[{index}]")
            if found:
                return found
        if len(a) != len(b):
            index = min(len(a), len(b))
            return (f"{path}[{index}]", short(a[index]) if index < len(a) else f"(array of {len(a)})",
                    short(b[index]) if index < len(b) else f"(array of {len(b)})")
        return None
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        same = type(a) is type(b) and a == b
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)):
        same = a == b
    else:
        same = type(a) is type(b) and a == b
    return None if same else (path, short(a), short(b))


def text_difference(keyed_text, dumper_text):
    """None when the texts are the same (ignoring one trailing newline each), else a short description."""
    k = keyed_text[:-1] if keyed_text.endswith("\n") else keyed_text
    d = dumper_text[:-1] if dumper_text.endswith("\n") else dumper_text
    if k == d:
        return None
    at = 0
    while at < min(len(k), len(d)) and k[at] == d[at]:
        at += 1
    lines = "" if "\n" not in k else f" (keyed printed {k.count(chr(10)) + 1} lines)"
    return f"text differs at char {at}{lines}: keyed {k[at:at + 40]!r} vs dumper {d[at:at + 40]!r}"


def run(command, timeout):
    """Returns (status, stdout text, first stderr line); status is a string for a timeout."""
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timeout after {timeout}s", "", ""
    except OSError as error:
        return f"cannot run: {error}", "", ""
    err = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return done.returncode, done.stdout.decode("utf-8", "replace"), (err[0] if err else "")


def describe(status, err):
    if isinstance(status, str):
        return status
    if status < 0:
        return f"killed by signal {-status}"
    return f"exit {status}" + (f" ({err})" if err else "")


def check_file(keyed, path, negative, timeout):
    """Returns (failure line or None, note line or None)."""
    name = os.path.basename(path)
    k_status, k_out, k_err = run([keyed, "dump", "--raw", "--json", path], timeout)
    d_status, d_out, d_err = run([sys.executable, DUMPER, path], timeout)
    if negative:
        if k_status == 65 and d_status == 65:
            return None, None
        return (f"FAIL {name}: negative file must make both exit 65: keyed {describe(k_status, k_err)}, "
                f"dumper {describe(d_status, d_err)}"), None
    if d_status != 0:
        return f"FAIL {name}: dumper {describe(d_status, d_err)}", None
    if k_status != 0:
        return f"FAIL {name}: keyed {describe(k_status, k_err)}", None
    try:
        k_value = parse(k_out)
    except ValueError as error:
        return f"FAIL {name}: keyed output is not JSON: {error}", None
    d_value = parse(d_out)
    found = first_difference(k_value, d_value)
    if found:
        where, k_has, d_has = found
        return f"FAIL {name}: first difference at {where}: keyed {k_has} vs dumper {d_has}", None
    note = text_difference(k_out, d_out)
    return None, (f"NOTE {name}: same JSON value, {note}" if note else None)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: typedstream_check.py KEYED_BINARY CORPUS_DIR\n")
        return 64
    keyed, corpus = argv[1], argv[2]
    folder = os.path.join(corpus, "typedstream")
    if not os.path.isdir(folder):
        print(f"skip: no typedstream corpus at {folder}")
        return 0
    if not (os.path.isfile(keyed) and os.access(keyed, os.X_OK)):
        sys.stderr.write(f"typedstream_check.py: {keyed} is not an executable file\n")
        return 64
    try:
        timeout = float(os.environ.get("TYPEDSTREAM_CHECK_TIMEOUT", "120"))
    except ValueError:
        timeout = 120.0
    bad = negatives(os.path.join(folder, "MANIFEST.md"))
    names = sorted(name for name in os.listdir(folder)
                   if name != "MANIFEST.md" and not name.startswith(".")
                   and os.path.isfile(os.path.join(folder, name)))
    for name in sorted(bad - set(names)):
        print(f"NOTE {name}: listed as negative in MANIFEST.md but not in the folder")
    passed = failed = 0
    for name in names:
        failure, note = check_file(keyed, os.path.join(folder, name), name in bad, timeout)
        if note:
            print(note)
        if failure:
            print(failure)
            failed += 1
        else:
            passed += 1
        sys.stdout.flush()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
