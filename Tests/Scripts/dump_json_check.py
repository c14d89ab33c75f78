#!/usr/bin/env python3
"""Checks the rules of `keyed dump --json` output that hold whatever the input (cli.md, CLI-011, CLI-013).

Usage: dump_json_check.py FILE...   (each FILE holds one `keyed dump --json` output)

Prints one JSON object: {FILE: [problem, ...]} with an empty list for a file that keeps every rule:
- the output is one line of JSON;
- every object's keys are unique and sorted by code point;
- walking the output in order (object members and array elements as written), each {"$ref": N} comes after
  the object that carries "$id": N, no "$id" is given twice, and every "$id" is referred to later (an object
  reached once carries none);
- "$ref", "$cycle" and "$uid" objects have that one key and an integer; an object with "$id" has "$class".
Written independently of the tool, with Python's standard library only.
"""
import json
import sys


def check(text):
    problems = []
    if text.count("\n") > (1 if text.endswith("\n") else 0):
        problems.append("more than one line")
    try:
        value = json.loads(text, object_pairs_hook=lambda pairs: ("object", pairs))
    except ValueError as error:
        return [f"not JSON: {error}"]
    ids = {}
    refs = {}
    position = 0
    stack = [(value, "$")]
    while stack:
        node, path = stack.pop()
        position += 1
        if isinstance(node, tuple) and node[0] == "object":
            pairs = node[1]
            keys = [key for key, _ in pairs]
            if len(set(keys)) != len(keys):
                problems.append(f"{path}: duplicate keys {keys}")
            if keys != sorted(keys):
                problems.append(f"{path}: keys not in code-point order: {keys}")
            members = dict(pairs)
            for single in ("$ref", "$cycle", "$uid"):
                if single in members:
                    if len(keys) != 1 or not isinstance(members[single], int) or isinstance(members[single], bool):
                        problems.append(f"{path}: {single} object is {keys}")
            if "$ref" in members and isinstance(members["$ref"], int):
                n = members["$ref"]
                if n not in ids:
                    problems.append(f"{path}: $ref {n} before its $id")
                refs[n] = refs.get(n, 0) + 1
            if "$id" in members:
                n = members["$id"]
                if n in ids:
                    problems.append(f"{path}: $id {n} given twice")
                ids[n] = path
                if "$class" not in members:
                    problems.append(f"{path}: $id without $class")
            # Pushed in reverse so that they pop in the order written.
            for key, member in reversed(pairs):
                stack.append((member, f"{path}.{key}"))
        elif isinstance(node, list):
            for index in reversed(range(len(node))):
                stack.append((node[index], f"{path}[{index}]"))
    for n, where in ids.items():
        if refs.get(n, 0) == 0:
            problems.append(f"{where}: $id {n} is never referred to again")
    return problems


def main():
    report = {}
    for name in sys.argv[1:]:
        with open(name, encoding="utf-8") as handle:
            report[name] = check(handle.read())
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
