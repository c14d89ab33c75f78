#!/usr/bin/env python3
"""Independent object and connection counts for Interface Builder documents.

Used by the Swift tests (Tests/XIBTests) as an oracle for XIBDocument.statistics. It shares no code with the Swift
reader: it parses with the standard library's xml.etree (expat) and applies the counting rules of
Specs/XIBFormat.md (XIB-060 to XIB-066, XIB-076) directly to the element tree.

Usage: xib_counts.py FILE...
Prints one JSON object mapping each FILE to its counts
{"objects", "placeholders", "topLevel", "outlets", "outletCollections", "actions", "segues"}
or to {"error": "..."} when the file cannot be read.
"""

import json
import sys
import xml.etree.ElementTree as ET

KEYS = ("objects", "placeholders", "topLevel", "outlets", "outletCollections", "actions", "segues")

CONNECTION_TAGS = {
    "outlet": "outlets",
    "outletCollection": "outletCollections",
    "action": "actions",
    "segue": "segues",
}

ARCHIVE_CONNECTION_CLASSES = {
    "IBCocoaTouchOutletConnection": "outlets",
    "IBOutletConnection": "outlets",
    "IBCocoaTouchOutletCollectionConnection": "outletCollections",
    "IBCocoaTouchEventConnection": "actions",
    "IBActionConnection": "actions",
}


def is_macos(root):
    runtime = root.get("targetRuntime")
    if runtime is not None:
        return runtime == "MacOSX.Cocoa"
    doc_type = root.get("type", "")
    return ".Cocoa." in doc_type and ".CocoaTouch." not in doc_type


def count_document(root):
    counts = dict.fromkeys(KEYS, 0)
    macos = is_macos(root)
    storyboard = "Storyboard" in root.get("type", "") or root.find("scenes") is not None

    def is_placeholder(element):
        if element.get("sceneMemberID") == "firstResponder":
            return True
        if element.tag in ("placeholder", "exit", "viewControllerPlaceholder"):
            return True
        if element.tag == "application" and storyboard:
            return True
        return element.tag == "customObject" and macos and element.get("id") in ("-1", "-2", "-3")

    # Iterative walk over (element, is-direct-child-of-an-objects-list) pairs.
    pending = []
    for child in root:
        if child.tag == "objects":
            pending.append(child)
        elif child.tag == "scenes":
            for scene in child:
                pending.extend(part for part in scene if part.tag == "objects")
    stack = [(member, True) for objects_list in pending for member in objects_list]
    while stack:
        element, direct = stack.pop()
        if element.tag == "connections":
            for connection in element:
                name = CONNECTION_TAGS.get(connection.tag)
                if name:
                    counts[name] += 1
            continue
        if element.get("id") is not None:
            if is_placeholder(element):
                counts["placeholders"] += 1
            else:
                counts["objects"] += 1
                if direct:
                    counts["topLevel"] += 1
        stack.extend((child, False) for child in element)
    return counts


def keyed(element, key):
    for child in element:
        if child.get("key") == key:
            return child
    return None


def unkeyed(element):
    return [child for child in element if child.get("key") is None]


def archive_id(element):
    return element.get("ref") if element.tag == "reference" else element.get("id")


def count_archive(root):
    counts = dict.fromkeys(KEYS, 0)
    data = root.find("data")
    definitions = {element.get("id"): element for element in data.iter() if element.get("id") is not None}
    root_ids = {archive_id(member) for member in unkeyed(keyed(data, "IBDocument.RootObjects"))}
    container = keyed(data, "IBDocument.Objects")
    records = unkeyed(keyed(keyed(container, "objectRecords"), "orderedObjects"))
    for record in records:
        object_id = int(keyed(record, "objectID").text)
        if object_id == 0:
            continue
        reference = archive_id(keyed(record, "object"))
        archived_class = definitions[reference].get("class")
        if archived_class == "IBProxyObject" or object_id < 0:
            counts["placeholders"] += 1
        else:
            counts["objects"] += 1
            if reference in root_ids:
                counts["topLevel"] += 1
    connection_list = keyed(container, "connectionRecords")
    for record in unkeyed(connection_list) if connection_list is not None else []:
        connection = keyed(record, "connection")
        name = ARCHIVE_CONNECTION_CLASSES.get(connection.get("class"))
        if name:
            counts[name] += 1
    return counts


def count_file(path):
    root = ET.parse(path).getroot()
    if root.tag == "document":
        return count_document(root)
    if root.tag == "archive":
        return count_archive(root)
    raise ValueError("not an Interface Builder document: <%s>" % root.tag)


def main(paths):
    result = {}
    for path in paths:
        try:
            result[path] = count_file(path)
        except Exception as error:  # noqa: BLE001 - reported to the caller as data
            result[path] = {"error": "%s: %s" % (type(error).__name__, error)}
    json.dump(result, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
