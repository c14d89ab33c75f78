#!/usr/bin/env python3
"""Independent tally of NIBArchive files, for cross-checking the Swift reader (Specs/NIBArchive.md).

Written separately from Sources/CompiledNib with the Python standard library only: a plain struct/bytes walk of
the four tables, then the nib-level view (root keys, connection records) read from the walked tables.

Usage: nibarchive_counts.py DIRECTORY
Prints one JSON object: {"files": {"<path relative to DIRECTORY>": {...counts...}, ...}} for every regular file
under DIRECTORY whose first 10 bytes are "NIBArchive". Exit status 0, or 1 when a file cannot be walked.
"""

import json
import os
import struct
import sys

MAGIC = b"NIBArchive"
FIXED_SIZES = {0: 1, 1: 2, 2: 4, 3: 8, 4: 0, 5: 0, 6: 4, 7: 8, 9: 0, 10: 4}
KIND_BY_CLASS = {
    "UIRuntimeOutletConnection": "outlet",
    "NSNibOutletConnector": "outlet",
    "UIRuntimeOutletCollectionConnection": "outletCollection",
    "UIRuntimeEventConnection": "action",
    "NSNibControlConnector": "action",
    "NSNibBindingConnector": "binding",
}
KINDS = ["outlet", "outletCollection", "action", "binding", "other"]


def varint(buf, at):
    """Returns (value, next offset); the byte with the high bit set is the last one."""
    value = 0
    for n in range(5):
        b = buf[at + n]
        value += (b & 0x7F) << (7 * n)
        if b >= 0x80:
            return value, at + n + 1
    raise ValueError("varint longer than 5 bytes at %d" % at)


def walk(buf):
    fields = struct.unpack_from("<10s10I", buf, 0)
    if fields[0] != MAGIC:
        raise ValueError("bad magic")
    fmt, coder, n_obj, o_obj, n_key, o_key, n_val, o_val, n_cls, o_cls = fields[1:]
    ends = [50]

    classes = []  # (name, [fallback indices])
    at = o_cls
    for _ in range(n_cls):
        length, at = varint(buf, at)
        n_fb, at = varint(buf, at)
        fallbacks = list(struct.unpack_from("<%dI" % n_fb, buf, at))
        at += 4 * n_fb
        raw = bytes(buf[at:at + length])
        if not raw.endswith(b"\x00"):
            raise ValueError("class name without NUL")
        classes.append((raw[:-1].decode("utf-8"), fallbacks))
        at += length
    ends.append(at)

    keys = []
    at = o_key
    for _ in range(n_key):
        length, at = varint(buf, at)
        keys.append(bytes(buf[at:at + length]).decode("utf-8"))
        at += length
    ends.append(at)

    values = []  # (key name, type code, python value)
    at = o_val
    for _ in range(n_val):
        k, at = varint(buf, at)
        code = buf[at]
        at += 1
        if code == 8:
            length, at = varint(buf, at)
            payload = bytes(buf[at:at + length])
            at += length
        else:
            size = FIXED_SIZES[code]
            chunk = bytes(buf[at:at + size])
            at += size
            if code in (0, 1, 2, 3):
                payload = int.from_bytes(chunk, "little", signed=True)
            elif code == 6:
                payload = struct.unpack("<f", chunk)[0]
            elif code == 7:
                payload = struct.unpack("<d", chunk)[0]
            elif code == 10:
                payload = struct.unpack("<I", chunk)[0]
                if payload >= n_obj:
                    raise ValueError("reference out of range")
            else:
                payload = None
        values.append((keys[k], code, payload))
    ends.append(at)

    objects = []  # (class index, [(key, code, payload), ...])
    at = o_obj
    for _ in range(n_obj):
        c, at = varint(buf, at)
        first, at = varint(buf, at)
        count, at = varint(buf, at)
        objects.append((c, values[first:first + count]))
    ends.append(at)

    header = dict(formatVersion=fmt, coderVersion=coder)
    return header, classes, keys, values, objects, max(ends)


class Graph:
    """Read-only helpers over the walked tables."""

    def __init__(self, classes, objects):
        self.classes = classes
        self.objects = objects

    def class_chain(self, index):
        name, fallbacks = self.classes[self.objects[index][0]]
        return [name] + [self.classes[f][0] for f in fallbacks]

    def first(self, index, key):
        for entry in self.objects[index][1]:
            if entry[0] == key:
                return entry
        return None

    def ref(self, index, key):
        entry = self.first(index, key)
        if entry is None or entry[1] == 9:
            return None
        if entry[1] != 10:
            raise ValueError("%s is not a reference" % key)
        return entry[2]

    def text(self, index, key):
        target = self.ref(index, key)
        if target is None:
            return None
        entry = self.first(target, "NS.bytes")
        return entry[2].decode("utf-8")

    def members(self, index, key):
        target = self.ref(index, key)
        if target is None:
            return []
        entries = self.objects[target][1]
        assert entries and entries[0][0] == "NSInlinedValue"
        return [e[2] for e in entries[1:]]


def nib_view(graph):
    root_keys = [e[0] for e in graph.objects[0][1]] if graph.objects else []
    if any(k in root_keys for k in ("UINibTopLevelObjectsKey", "UINibObjectsKey", "UINibConnectionsKey")):
        flavor = "uiKit"
        top = graph.members(0, "UINibTopLevelObjectsKey")
        everything = graph.members(0, "UINibObjectsKey")
        wires = graph.members(0, "UINibConnectionsKey")
        windows = graph.members(0, "UINibVisibleWindowsKey")
    elif "IB.objectdata" in root_keys:
        flavor = "appKit"
        data = graph.ref(0, "IB.objectdata")
        owner = graph.ref(data, "NSRoot")
        children = graph.members(data, "NSObjectsKeys")
        parents = graph.members(data, "NSObjectsValues")
        top = [child for child, parent in zip(children, parents) if parent == owner]
        everything = children
        wires = graph.members(data, "NSConnections")
        windows = graph.members(data, "NSVisibleWindows")
    else:
        return None

    records = []
    for w in wires:
        kind = "other"
        for name in graph.class_chain(w):
            if name in KIND_BY_CLASS:
                kind = KIND_BY_CLASS[name]
                break
        keys = [e[0] for e in graph.objects[w][1]]
        src = "UISource" if "UISource" in keys else "NSSource"
        dst = "UIDestination" if "UIDestination" in keys else "NSDestination"
        lab = "UILabel" if "UILabel" in keys else "NSLabel"
        mask = graph.first(w, "UIEventMask")
        records.append([kind, w, graph.ref(w, src), graph.ref(w, dst), graph.text(w, lab),
                        None if mask is None else int(mask[2])])
    tally = {k: 0 for k in KINDS}
    for r in records:
        tally[r[0]] += 1
    return dict(flavor=flavor, topLevel=len(top), documentObjects=len(everything), visibleWindows=len(windows),
                connections=tally, connectionRecords=records)


def describe(buf):
    header, classes, keys, values, objects, end = walk(buf)
    types = {}
    for v in values:
        types[str(v[1])] = types.get(str(v[1]), 0) + 1
    result = dict(header)
    result.update(objects=len(objects), keys=len(keys), values=len(values), classNames=len(classes),
                  valueTypes=types, trailingBytes=len(buf) - end,
                  classesWithFallbacks=sum(1 for c in classes if c[1]))
    result["nib"] = nib_view(Graph(classes, objects))
    return result


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: nibarchive_counts.py DIRECTORY\n")
        return 64
    top = argv[1]
    out = {}
    failed = False
    for folder, _, names in os.walk(top):
        for name in names:
            path = os.path.join(folder, name)
            if not os.path.isfile(path):
                continue
            with open(path, "rb") as handle:
                buf = handle.read()
            if not buf.startswith(MAGIC):
                continue
            rel = os.path.relpath(path, top)
            try:
                out[rel] = describe(memoryview(buf))
            except Exception as problem:  # report and continue: one bad file must not hide the others
                sys.stderr.write("%s: %s\n" % (rel, problem))
                failed = True
    json.dump({"files": out}, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
