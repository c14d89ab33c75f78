#!/usr/bin/env python3
"""Writes a large flat keyed archive for whole-process measurements of `keyed dump --json`, `validate` and the peers.

Usage: make-rows-archive.py OUT [--rows N]   (default 100,000 rows: about 40 MB and 1.1 million objects)

The root is an NSArray of N `Row` objects, each an object of eleven `$objects` entries: the row itself (an inline
integer, real and boolean), three strings (title, note, owner), an NSDate, an NSUUID, an NSArray of three tag strings
and 16 bytes of data. Every string is unique, as in a real table of notes. The archive is written with Python's
plistlib (binary, with UIDs), deterministically: the same N gives the same bytes. Nothing of it is committed.
"""
import argparse, plistlib, random, uuid

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    rng = random.Random(0x524F5753)
    objects = ["$null"]
    def add(value):
        objects.append(value)
        return plistlib.UID(len(objects) - 1)
    def class_description(name, chain):
        return add({"$classname": name, "$classes": chain})
    root_index = len(objects)
    objects.append(None)  # the root array, filled in last
    row_class = class_description("Row", ["Row", "NSObject"])
    date_class = class_description("NSDate", ["NSDate", "NSObject"])
    uuid_class = class_description("NSUUID", ["NSUUID", "NSObject"])
    array_class = class_description("NSArray", ["NSArray", "NSObject"])
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo",
             "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"]
    def text(count, index):
        return " ".join(rng.choice(words) for _ in range(count)) + f" #{index}"
    rows = []
    for index in range(args.rows):
        row = {"$class": row_class}
        row_uid = add(row)
        row["id"] = index
        row["score"] = rng.random() * 1000
        row["done"] = rng.random() < 0.5
        row["title"] = add(text(2, index))
        row["note"] = add(text(3, index))
        row["owner"] = add(f"u{rng.randrange(1 << 20)}/{index}")
        row["created"] = add({"$class": date_class, "NS.time": 7e8 + rng.random() * 1e8})
        row["uuid"] = add({"$class": uuid_class, "NS.uuidbytes": uuid.UUID(int=rng.getrandbits(128)).bytes})
        tags = [add(f"{rng.choice(words)[:3]}{index}.{k}") for k in range(3)]
        row["tags"] = add({"$class": array_class, "NS.objects": tags})
        row["payload"] = add(bytes(rng.getrandbits(8) for _ in range(16)))
        rows.append(row_uid)
    objects[root_index] = {"$class": array_class, "NS.objects": rows}
    archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": plistlib.UID(root_index)},
               "$objects": objects}
    with open(args.out, "wb") as f:
        plistlib.dump(archive, f, fmt=plistlib.FMT_BINARY, sort_keys=False)

if __name__ == "__main__":
    main()
