#!/usr/bin/env python3
"""Independent object-table tally of compiled nibs, for cross-checking the Swift table builder.

Written from the rules NIBA-040 to NIBA-050 in Specs/NIBArchive.md, separately from
Sources/NibLoading/CompiledNibs: keyed-archive nibs are read with plistlib, NIBArchive files with the table walk of
nibarchive_counts.py (itself independent of the Swift reader). For each nib it lists the objects the table holds
(by container index), the placeholders, the top-level objects and the connection records, and predicts what
instantiating the nib with a generic stand-in for every class does (the `--stats` counts).

Usage: compiled_nib_table_counts.py [--with-application] FILE...
With --with-application, the prediction assumes the caller supplies a stand-in for the Application placeholder.
Prints one JSON object: {"files": {"<FILE as given>": {...}, ...}}. Exit status 0, or 1 when a file fails.
"""

import json
import re
import os
import plistlib
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nibarchive_counts import walk  # noqa: E402

ARRAYS = {"NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSCountedSet", "NSOrderedSet",
          "NSMutableOrderedSet"}
DICTIONARIES = {"NSDictionary", "NSMutableDictionary"}
STRINGS = {"NSString", "NSMutableString", "NSLocalizableString"}
DATAS = {"NSData", "NSMutableData"}
NUMBERS = {"NSNumber"}
NULLS = {"NSNull"}

# A reference to a node is ("ref", index); every other field value is a plain Python value.


def ref(index):
    return ("ref", index)


def is_ref(value):
    return isinstance(value, tuple) and len(value) == 2 and value[0] == "ref"


def foundation_kind(chain):
    for name in chain:
        for kind, names in (("array", ARRAYS), ("dict", DICTIONARIES), ("string", STRINGS), ("data", DATAS),
                            ("number", NUMBERS), ("null", NULLS)):
            if name in names:
                return kind
    return None


class KeyedModel:
    """Nodes of a keyed archive: $objects entries."""

    def __init__(self, plist):
        self.objs = plist["$objects"]
        self.top = plist["$top"]
        self.root_node = None

    def conv(self, value):
        if isinstance(value, plistlib.UID):
            return ref(value.data)
        if isinstance(value, list):
            return [self.conv(v) for v in value]
        return value

    def root(self):
        return [(k, self.conv(v)) for k, v in self.top.items()]

    def count(self):
        return len(self.objs)

    def chain(self, i):
        o = self.objs[i]
        if not isinstance(o, dict) or "$class" not in o:
            return None
        desc = self.objs[o["$class"].data]
        name = desc["$classname"]
        supers = desc.get("$classes") or []
        return supers if supers and supers[0] == name else [name] + supers

    def plain(self, value):
        if is_ref(value):
            o = self.objs[value[1]]
            if value[1] == 0 and o == "$null":
                return None
            return o if not isinstance(o, dict) else "<object>"
        return value

    def seq(self, o, key, prefix):
        if key in o:
            return [self.conv(v) for v in o[key]]
        out = []
        while prefix + str(len(out)) in o:
            out.append(self.conv(o[prefix + str(len(out))]))
        return out

    def node(self, i):
        """('value', v) | ('collection', [..]) | ('dict', [(k, v)..], name) | ('object', name, chain, fields) |
        ('unusable',)"""
        o = self.objs[i]
        if i == 0 and o == "$null":
            return ("value", None)
        if isinstance(o, list):
            return ("collection", [self.conv(v) for v in o])
        if not isinstance(o, dict):
            return ("value", o)
        if "$class" not in o:
            return ("unusable",)
        chain = self.chain(i)
        kind = foundation_kind(chain)
        if kind == "array":
            return ("collection", self.seq(o, "NS.objects", "NS.object."))
        if kind == "dict":
            keys = self.seq(o, "NS.keys", "NS.key.")
            values = self.seq(o, "NS.objects", "NS.object.")
            return ("dict", list(zip(keys, values)), chain[0])
        if kind == "string":
            s = self.plain(self.conv(o.get("NS.string")))
            if isinstance(s, str):
                return ("value", s)
            b = self.plain(self.conv(o.get("NS.bytes")))
            if isinstance(b, bytes):
                try:
                    return ("value", b.decode("utf-8"))
                except UnicodeDecodeError:
                    pass
            return ("unusable",)
        if kind == "data":
            for key in ("NS.data", "NS.bytes"):
                b = self.plain(self.conv(o.get(key)))
                if isinstance(b, bytes):
                    return ("value", b)
            return ("unusable",)
        if kind == "number":
            for key in ("NS.intval", "NS.dblval", "NS.boolval"):
                n = self.plain(self.conv(o.get(key)))
                if isinstance(n, (int, float, bool)):
                    return ("value", n)
            return ("unusable",)
        if kind == "null":
            return ("value", None)
        fields = []
        for k, v in o.items():
            if k == "$class":
                continue
            if k.startswith("$$"):
                k = k[1:]
            fields.append((k, self.conv(v) if not isinstance(v, dict) else None))
        return ("object", chain[0], chain, fields)


class NibArchiveModel:
    """Nodes of a NIBArchive: its objects; object 0 is the root."""

    def __init__(self, buf):
        _, self.classes, _, _, self.objects, _ = walk(memoryview(buf))
        self.root_node = 0

    @staticmethod
    def conv(code, payload):
        if code == 10:
            return ref(payload)
        if code == 9:
            return None
        if code == 4:
            return False  # type 4 is false, 5 is true (see the research notes on nibarchive's swapped names)
        if code == 5:
            return True
        return payload

    def count(self):
        return len(self.objects)

    def chain(self, i):
        name, fallbacks = self.classes[self.objects[i][0]]
        return [name] + [self.classes[f][0] for f in fallbacks]

    def entries(self, i):
        return [(k, self.conv(code, p)) for k, code, p in self.objects[i][1]]

    def root(self):
        return self.entries(0)

    def node(self, i):
        chain = self.chain(i)
        kind = foundation_kind(chain)
        entries = self.entries(i)
        if kind in ("array", "dict"):
            if entries and entries[0][0] == "NSInlinedValue":
                entries = entries[1:]
            flat = [v for k, v in entries if k != "NSInlinedValue"]
            if kind == "array":
                return ("collection", flat)
            return ("dict", [(flat[j], flat[j + 1]) for j in range(0, len(flat) - 1, 2)], chain[0])
        first = {}
        for k, v in entries:
            first.setdefault(k, v)
        if kind == "string":
            b = first.get("NS.bytes")
            if isinstance(b, bytes):
                try:
                    return ("value", b.decode("utf-8"))
                except UnicodeDecodeError:
                    pass
            return ("unusable",)
        if kind == "data":
            b = first.get("NS.bytes")
            return ("value", b) if isinstance(b, bytes) else ("unusable",)
        if kind == "number":
            for key in ("NS.intval", "NS.dblval", "NS.boolval"):
                if key in first:
                    n = first[key]
                    return ("value", n) if isinstance(n, (int, float, bool)) else ("unusable",)
            return ("unusable",)
        if kind == "null":
            return ("value", None)
        return ("object", chain[0], chain, entries)


CONNECTOR_KINDS = {
    "UIRuntimeOutletConnection": "outlet", "NSNibOutletConnector": "outlet",
    "UIRuntimeOutletCollectionConnection": "outletCollection",
    "UIRuntimeEventConnection": "action", "NSNibControlConnector": "action",
    "NSNibBindingConnector": "binding", "NSIBHelpConnector": "help",
    "NSIBUserDefinedRuntimeAttributesConnector": "attributes",
}


def connector_kind(chain):
    if chain[0] == "NSNibConnector":
        return "ordering"
    for name in chain:
        if name in CONNECTOR_KINDS:
            return CONNECTOR_KINDS[name]
        if "Segue" in name:
            return "segue"
    return "other"


class Table:
    def __init__(self, model, application):
        self.m = model
        self.application = application
        self.nodes = [model.node(i) for i in range(model.count())]
        self.wiring = set()
        if model.root_node is not None:
            self.wiring.add(model.root_node)
        self.order = []  # table objects (node indices) in the order found
        self.index = {}
        self.owner = None

    # -- helpers over nodes
    def obj(self, i):
        return self.nodes[i] if 0 <= i < len(self.nodes) and self.nodes[i][0] == "object" else None

    def field(self, i, key):
        for k, v in self.obj(i)[3]:
            if k == key:
                return v
        return None

    def has(self, i, key):
        return any(k == key for k, _ in self.obj(i)[3])

    def text(self, value):
        if isinstance(value, str):
            return value
        if is_ref(value) and self.nodes[value[1]][0] == "value" and isinstance(self.nodes[value[1]][1], str):
            return self.nodes[value[1]][1]
        return None

    def integer(self, value):
        if is_ref(value) and self.nodes[value[1]][0] == "value":
            value = self.nodes[value[1]][1]
        if isinstance(value, bool):
            return int(value)
        return value if isinstance(value, int) else None

    def elements(self, value):
        if value is None:
            return []
        if isinstance(value, list):
            return value
        if is_ref(value):
            n = self.nodes[value[1]]
            if n[0] == "collection":
                return n[1]
            if n == ("value", None):
                return []
        raise ValueError("expected a collection")

    def object_nodes(self, values):
        return [v[1] for v in values if is_ref(v) and self.obj(v[1])]

    def add(self, node):
        if node in self.index:
            return self.index[node]
        if node in self.wiring or not self.obj(node):
            return None
        self.index[node] = len(self.order)
        self.order.append(node)
        return self.index[node]

    # -- identity
    def identity(self, node):
        """(className, placeholder kind or None, consumed keys)"""
        _, name, chain, _ = self.obj(node)
        if node == self.owner:
            return (self.text(self.field(node, "NSClassName")) or name, "filesOwner", None)
        if name in ("UIProxyObject", "NSNibExternalObjectPlaceholder"):
            key = "UIProxiedObjectIdentifier" if name == "UIProxyObject" else "NSExternalObjectPlaceholderIdentifier"
            ident = self.text(self.field(node, key)) or ""
            if ident == "IBFilesOwner":
                return (name, "filesOwner", None)
            if ident == "IBFirstResponder":
                return (name, "firstResponder", None)
            if ident in ("UIStoryboardPlaceholder", "NSStoryboardPlaceholder", "") or ident.startswith(
                    "UpstreamPlaceholder"):
                return (name, "other", None)
            return (name, "external", None)
        if name in ("UIClassSwapper", "NSClassSwapper"):
            prefix = name[:2]
            custom = self.text(self.field(node, prefix + "ClassName"))
            original = self.text(self.field(node, prefix + "OriginalClassName"))
            if custom or original:
                return (custom or original, None, {prefix + "ClassName", prefix + "OriginalClassName"})
            return (name, None, set())
        if name == "NSCustomObject":
            cls = self.text(self.field(node, "NSClassName"))
            reference = self.field(node, "IBClassReference")
            ref_name = self.text(self.field(reference[1], "IBClassName")) if is_ref(reference) and self.obj(
                reference[1]) else None
            if cls == "FirstResponder":
                return (name, "firstResponder", None)
            if cls == "NSApplication" or ref_name == "NSApplication":
                return (name, "application", None)
            return (cls or ref_name or "NSObject", None, {"NSClassName", "IBClassReference"})
        if name == "NSCustomView" and self.text(self.field(node, "NSClassName")) is not None:
            return (self.text(self.field(node, "NSClassName")), None, {"NSClassName"})
        if name == "NSWindowTemplate":
            return (self.text(self.field(node, "NSWindowClass")) or "NSWindow", None, {"NSWindowClass"})
        return (name, None, set())

    def inline_value(self, node):
        """'record' or 'geometry' for objects that are values (Specs/NibLoading.md NIB-070), else None."""
        _, name, _, _ = self.obj(node)
        if name == "NibRecord" and self.text(self.field(node, "NibRecordName")) is not None:
            return "record"
        if name == "NSValue":
            special = self.integer(self.field(node, "NS.special"))
            key = {1: "NS.pointval", 2: "NS.sizeval", 3: "NS.rectval"}.get(special)
            text = self.text(self.field(node, key)) if key else None
            if text is not None:
                numbers = [t for t in re.split(r"[{}, \t\n]+", text) if t]
                try:
                    values = [float(t) for t in numbers]
                except ValueError:
                    return None
                if len(values) == (4 if special == 3 else 2):
                    return "geometry"
        return None

    # -- closure
    def visit_value(self, value, seen):
        if isinstance(value, list):
            for v in value:
                self.visit_value(v, seen)
            return
        if not is_ref(value):
            return
        n = self.nodes[value[1]]
        if n[0] == "object":
            inline = self.inline_value(value[1])
            if inline == "record":
                # A NibRecord is a value: its fields are visited, the record itself is not an object.
                for _, v in self.obj(value[1])[3]:
                    self.visit_value(v, seen)
                return
            if inline == "geometry":
                return
            self.add(value[1])
        elif n[0] in ("collection", "dict"):
            if value[1] in seen:
                return
            seen.add(value[1])
            if n[0] == "collection":
                for v in n[1]:
                    self.visit_value(v, seen)
            else:
                for k, v in n[1]:
                    self.visit_value(k, seen)
                    self.visit_value(v, seen)

    def close(self):
        done = 0
        while done < len(self.order):
            node = self.order[done]
            done += 1
            _, placeholder, consumed = self.identity(node)
            if placeholder:
                continue
            for k, v in self.obj(node)[3]:
                if k not in consumed:
                    self.visit_value(v, set())

    # -- connections
    def end(self, value, required):
        """(ok, table index or None)"""
        if value is None or (is_ref(value) and self.nodes[value[1]] == ("value", None)):
            return (not required, None)
        if is_ref(value):
            index = self.add(value[1])
            return (index is not None, index)
        return (False, None)

    def connection(self, node, records, attributes):
        _, name, chain, _ = self.obj(node)
        kind = connector_kind(chain)
        if kind in ("ordering", "binding", "help", "other"):
            return
        if kind == "attributes":
            ok, target = self.end(self.field(node, "NSObject"), True)
            if not ok:
                return
            paths = self.elements(self.field(node, "NSKeyPaths"))
            values = self.elements(self.field(node, "NSValues"))
            for p, v in zip(paths, values):
                if self.text(p) is not None:
                    attributes.append(target)
                    self.visit_value(v, set())
            return
        ui = self.has(node, "UISource") or self.has(node, "UIDestination") or self.has(node, "UILabel")
        src_key, dst_key, label_key = ("UISource", "UIDestination", "UILabel") if ui else (
            "NSSource", "NSDestination", "NSLabel")
        ok, source = self.end(self.field(node, src_key), True)
        if not ok:
            return
        label = self.text(self.field(node, label_key))
        if kind == "segue":
            ok, dst = self.end(self.field(node, dst_key), False)
            if ok:
                records.append(["segue", source, label, dst, None])
            return
        if label is None:
            return
        if kind == "outletCollection":
            value = self.field(node, dst_key)
            members = [value] if is_ref(value) and self.obj(value[1]) else self.elements(value)
            for member in members:
                ok, dst = self.end(member, False)
                if ok and dst is not None:
                    records.append(["outletCollection", source, label, dst, None])
            return
        ok, dst = self.end(self.field(node, dst_key), False)
        if not ok:
            return
        mask = self.integer(self.field(node, "UIEventMask")) if kind == "action" else None
        records.append([kind, source, label, dst, mask])

    def build(self):
        root = dict()
        for k, v in self.m.root():
            root.setdefault(k, v)
        records, attributes = [], []
        if any(k in root for k in ("UINibTopLevelObjectsKey", "UINibObjectsKey", "UINibConnectionsKey")):
            platform = "uiKit"
            wires = self.object_nodes(self.elements(root.get("UINibConnectionsKey")))
            pairs = self.object_nodes(self.elements(root.get("UINibKeyValuePairsKey")))
            for key in ("UINibAccessibilityConfigurationsKey", "UINibTraitStorageListsKey"):
                self.wiring.update(self.object_nodes(self.elements(root.get(key))))
            self.wiring.update(wires)
            self.wiring.update(pairs)
            for n in self.object_nodes(self.elements(root.get("UINibObjectsKey"))):
                self.add(n)
            top = [self.add(n) for n in self.object_nodes(self.elements(root.get("UINibTopLevelObjectsKey")))]
            for n in self.object_nodes(self.elements(root.get("UINibVisibleWindowsKey"))):
                self.add(n)
            for w in wires:
                self.connection(w, records, attributes)
            for p in pairs:
                ok, target = self.end(self.field(p, "UIObject"), True)
                if ok and self.text(self.field(p, "UIKeyPath")) is not None:
                    attributes.append(target)
                    self.visit_value(self.field(p, "UIValue"), set())
        else:
            platform = "appKit"
            data = root["IB.objectdata"][1]
            self.wiring.add(data)
            wires = self.object_nodes(self.elements(self.field(data, "NSConnections")))
            self.wiring.update(wires)
            self.wiring.update(self.object_nodes(self.elements(self.field(data, "NSAccessibilityConnectors"))))
            owner_value = self.field(data, "NSRoot")
            top = []
            if is_ref(owner_value) and self.obj(owner_value[1]) and owner_value[1] not in self.wiring:
                self.owner = owner_value[1]
                top.append(self.add(self.owner))
            children = self.elements(self.field(data, "NSObjectsKeys"))
            parents = self.elements(self.field(data, "NSObjectsValues"))
            for n in self.object_nodes(children):
                self.add(n)
            for child, parent in zip(children, parents):
                if self.owner is not None and is_ref(parent) and parent[1] == self.owner and is_ref(child):
                    top.append(self.add(child[1]))
            for n in self.object_nodes(self.elements(self.field(data, "NSVisibleWindows"))):
                self.add(n)
            for w in wires:
                self.connection(w, records, attributes)
        self.close()

        kinds = {}
        classes = {}
        for node in self.order:
            name, placeholder, _ = self.identity(node)
            classes[str(node)] = name
            if placeholder:
                kinds[str(node)] = placeholder
        top = [t for t in dict.fromkeys(t for t in top if t is not None)]
        # What instantiation does with a generic object for every class and a non-nil owner: First Responder
        # resolves to nil, and an outlet or action whose source is nil is not made; the Application and other
        # placeholders (storyboard upstream objects) get generic stand-ins (Specs/NibLoading.md, NIB-010).
        nil_sources = {"firstResponder"}

        def made(record):
            return kinds.get(str(self.order[record[1]])) not in nil_sources

        ids = lambda index: None if index is None else self.order[index]  # noqa: E731
        stats = {
            "objects": sum(1 for n in self.order if str(n) not in kinds),
            "placeholders": len(kinds),
            "topLevel": sum(1 for t in top if str(self.order[t]) not in kinds),
            "outlets": sum(1 for r in records if r[0] == "outlet" and made(r)),
            "outletCollections": sum(1 for r in records if r[0] == "outletCollection" and made(r)),
            "actions": sum(1 for r in records if r[0] == "action" and made(r)),
            "segues": sum(1 for r in records if r[0] == "segue"),
        }
        stats["awakened"] = stats["objects"]
        return {
            "platform": platform,
            "stats": stats,
            "classes": classes,
            "placeholders": kinds,
            "topLevel": [self.order[t] for t in top],
            "connections": [[r[0], ids(r[1]), r[2], ids(r[3]), r[4]] for r in records],
            "runtimeAttributes": len(attributes),
        }


def describe(path, application):
    with open(path, "rb") as handle:
        buf = handle.read()
    if buf.startswith(b"NIBArchive"):
        model = NibArchiveModel(buf)
    else:
        model = KeyedModel(plistlib.loads(buf))
    return Table(model, application).build()


def main(argv):
    application = len(argv) > 1 and argv[1] == "--with-application"
    paths = argv[2:] if application else argv[1:]
    if not paths:
        sys.stderr.write("usage: compiled_nib_table_counts.py [--with-application] FILE...\n")
        return 64
    out, failed = {}, False
    for path in paths:
        try:
            out[path] = describe(path, application)
        except Exception as problem:  # report and continue: one bad file must not hide the others
            sys.stderr.write("%s: %s\n" % (path, problem))
            failed = True
    json.dump({"files": out}, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
