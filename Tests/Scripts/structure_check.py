#!/usr/bin/env python3
"""The structural rules of Specs/Performance.md (PERF-007) and of the architecture, checked over Sources/:

- at most 15 `@exclusivity(unchecked)`, each in a file that Specs/Decisions/0023 names;
- no `@_spi`; no `Unmanaged` or `unowned(unsafe)` in InterfaceObjects;
- no public or open type that holds an unsafe pointer (a stored property of an `Unsafe…Pointer`, `Unmanaged` or
  `OpaquePointer` type, or `unowned(unsafe)`), anywhere in Sources;
- no process-wide memo: no stored `static var` or global `var`, and no `static let` or global `let` holding a lock,
  an atomic or a cache, outside the short allowlist below, each entry of which a Decision names;
- every keyed-archive layout literal ("$archiver", "$objects", "$top", "$classname", "$classes") spelled in one file;
- every Foundation wire key (the string literals of Sources/FoundationForms/FoundationKeys.swift: "NS.objects",
  "NS.keys", "NS.string", "NSRangeCount", …, apart from those that are also class names, such as "NSString") spelled
  in that file only, alone or inside a longer string literal (a message names a key through the constant);
- XIB, CompiledNib and PropertyList import only Foundation, FoundationXML, ArchiveCoding and the platform libc (XIB
  and CompiledNib also FoundationForms, for the Foundation keys);
- every module a Swift file imports is the module itself, a toolchain module or a declared dependency of its target,
  and every declared dependency of a target in Sources is imported by one of its files (an executable target apart);
- ArchiveTesting and ArchiveComparison build no Interface Builder module (NibLoading, XIB, CompiledNib,
  InterfaceObjects);
- the decode core stays small (PERF-020): `ObjectStore.State` has at most twelve stored properties, and
  `KeyedUnarchiver.decode(uid:key:index:allowed:collecting:)` is at most 60 lines, from its `func` line to its
  closing brace (Tests/Scripts/decode_coverage.py checks that every branch of it runs);
- no struct without a stored property is mutated: none has a mutating method or conforms, directly or through another
  protocol, to a protocol with a mutating requirement (an empty value has no address, and a ThreadSanitizer build
  crashes on an `inout` access to one through generic code: Decision 0073).

Usage: structure_check.py [REPO]   (default: the repository holding this script)
Prints one line per violation and 'N passed, N failed'; exits 1 on any violation."""
import os, re, sys

repo = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sources = os.path.join(repo, "Sources")
TOOLCHAIN = {"Foundation", "FoundationXML", "FoundationEssentials", "Synchronization", "Glibc", "Musl", "Darwin",
             "Dispatch", "XCTest", "Testing", "WinSDK", "Android", "Bionic"}
LIBC = {"Glibc", "Musl", "Darwin", "WinSDK", "Android", "Bionic"}

def swift_files(root):
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith(".swift"):
                yield os.path.join(folder, name)

def code_lines(path):
    """The file's lines with // comments removed (string literals are kept: the layout rule looks at them)."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            stripped = line.lstrip()
            if stripped.startswith("//"):
                continue
            yield number, line

def module_of(path):
    return os.path.relpath(path, sources).split(os.sep)[0]

def declared_dependencies():
    """target name -> its dependencies, read from Package.swift."""
    text = open(os.path.join(repo, "Package.swift"), encoding="utf-8").read()
    deps = {}
    for match in re.finditer(r'\.(?:target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"(.*?)(?=\n\s*\.(?:target|executableTarget|testTarget)\(|\n\s*\],\s*\n\s*swiftLanguageModes)', text, re.S):
        name, body = match.group(1), match.group(2)
        dep = re.search(r'dependencies:\s*\[(.*?)\]', body, re.S)
        deps[name] = set(re.findall(r'"([^"]+)"', dep.group(1))) if dep else set()
    return deps

RULES = {
    "exclusivity-count": "at most 15 unchecked exclusivity",
    "exclusivity-place": "unchecked exclusivity only in the storages Decision 0023 names",
    "public-unsafe": "no public or open type holds an unsafe pointer",
    "global-memo": "no process-wide memo outside the allowlist, each entry with a Decision",
    "spi": "no @_spi",
    "unsafe-references": "no Unmanaged or unowned(unsafe) in InterfaceObjects",
    "layout": "one file spells each archive layout literal",
    "foundation-keys": "one file spells each Foundation wire key",
    "front-end-imports": "XIB, CompiledNib and PropertyList import only Foundation, ArchiveCoding and libc",
    "declared-imports": "every import is a declared dependency",
    "imported-dependencies": "every declared dependency of a target in Sources is imported by one of its files",
    "testing-graph": "ArchiveTesting and ArchiveComparison build no Interface Builder module",
    "decode-state": "ObjectStore.State has at most 12 stored properties",
    "decode-length": "KeyedUnarchiver.decode(uid:...) is at most 60 lines",
    "empty-mutating": "no struct without stored properties is mutated (ThreadSanitizer)",
}
failures = []

def check(ok, rule, message):
    if not ok:
        failures.append((rule, message))

files = list(swift_files(sources))
unchecked = [(p, n) for p in files for n, l in code_lines(p) if "@exclusivity(unchecked)" in l]
check(len(unchecked) <= 15, "exclusivity-count", f"{len(unchecked)} @exclusivity(unchecked) in Sources (at most 15)")
decision = open(os.path.join(repo, "Specs/Decisions/0023-unchecked-exclusivity-in-four-storages.md"), encoding="utf-8").read()
for path, number in unchecked:
    base = os.path.basename(path)[:-len(".swift")]
    stem = base.replace("Internal/", "")
    known = {"ByteStore": "ByteStore", "ObjectStore": "ObjectStore", "ArchiverStorage": "ArchiverStorage",
             "NibInstantiator": "NibInstantiator"}
    check(stem in known and known[stem] in decision, "exclusivity-place",
          f"{os.path.relpath(path, repo)}:{number}: @exclusivity(unchecked) outside the storages Decision 0023 names")
for path in files:
    for number, line in code_lines(path):
        check("@_spi" not in line, "spi", f"{os.path.relpath(path, repo)}:{number}: @_spi")
        if module_of(path) == "InterfaceObjects":
            check(not re.search(r"\bUnmanaged\b|unowned\(unsafe\)", line), "unsafe-references",
                  f"{os.path.relpath(path, repo)}:{number}: an unsafe reference in InterfaceObjects")
for literal in ['"$archiver"', '"$objects"', '"$top"', '"$classname"', '"$classes"']:
    holders = sorted({os.path.relpath(p, repo) for p in files for _, l in code_lines(p) if literal in l})
    check(len(holders) == 1, "layout", f"{literal} is spelled in {len(holders)} files: {', '.join(holders)}")
# Foundation wire keys: the literals of FoundationKeys.swift that begin with "NS" (the names paired with some keys,
# such as "year", are not keys; class names are not keys), spelled nowhere else.
keys_file = os.path.join(sources, "FoundationForms", "FoundationKeys.swift")
class_file = os.path.join(sources, "FoundationForms", "FoundationClass.swift")
def literals(path):
    if not os.path.exists(path):
        return set()
    return {m for _, l in code_lines(path) for m in re.findall(r'"([^"\\\n]+)"', l)}
check(os.path.exists(keys_file), "foundation-keys", "Sources/FoundationForms/FoundationKeys.swift is missing")
wire_keys = sorted(k for k in literals(keys_file) - literals(class_file) if k.startswith("NS"))
key_lines = [(p, l) for p in files if p != keys_file for _, l in code_lines(p) if '"' in l]
for key in wire_keys:
    spelled = re.compile(r'"[^"\n]*?(?<![A-Za-z0-9_.])' + re.escape(key) + r'(?![A-Za-z0-9_])[^"\n]*"')
    holders = sorted({os.path.relpath(p, repo) for p, l in key_lines if key in l and spelled.search(l)})
    check(not holders, "foundation-keys",
          f'"{key}" is spelled outside Sources/FoundationForms/FoundationKeys.swift: {", ".join(holders)}')
# -- PERF-007: no public type with an unsafe pointer (Decision 0033) ----------------------------------------------
UNSAFE_TYPE = re.compile(r"\b(Unsafe(Mutable)?(Raw)?(Buffer)?Pointer|Unmanaged|OpaquePointer|AutoreleasingUnsafeMutablePointer)\b")
TYPE_DECLARATION = re.compile(
    r"^\s*(?:@[\w()., ]+\s+)*(?P<access>(?:public|open|package|internal|fileprivate|private)\s+)?"
    r"(?:(?:final|indirect|nonisolated)\s+)*(?P<kind>class|struct|enum|actor)\s+(?P<name>\w+)")
STORED_PROPERTY = re.compile(
    r"^\s*(?:@[\w()., ]+\s+)*(?:(?:public|open|package|internal|fileprivate|private)(?:\(set\))?\s+)*"
    r"(?:(?:weak|unowned(?:\(\w+\))?|lazy|final|nonisolated(?:\(unsafe\))?)\s+)*(?:var|let)\s+(?P<name>\w+)")


def strip_strings(line):
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)


def stored_member(line):
    """(name, declaration after the name) when `line` (comments dropped, strings emptied) declares a stored instance
    property: not static, not a class property, not computed; else None."""
    member = STORED_PROPERTY.match(line)
    if not member or re.search(r"\bstatic\b|\bclass\s+var\b", line):
        return None
    after = line[member.end():]
    return None if re.match(r"\s*:[^={]*\{", after) else (member.group("name"), after)


PROTOCOL = re.compile(r"^\s*(?:@[\w()., ]+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?protocol\s+"
                      r"(?P<name>\w+)")
EXTENSION = re.compile(r"^\s*(?:@[\w()., ]+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?extension\s+"
                       r"(?:\w+\.)*(?P<name>\w+)")


def declaration_lines(path):
    """Each line of `path` (comments dropped, strings emptied) as (number, line, opened, owner): `opened` is the match
    (TYPE_DECLARATION, PROTOCOL or EXTENSION) of the declaration the line begins, else None; `owner` that of the
    declaration whose body holds the line directly, else None (the top level, a function's body, a nested block)."""
    stack = []  # the declaration match whose body each open brace begins, or None
    pending = None
    for number, raw in code_lines(path):
        line = strip_strings(raw.split("//")[0])
        opened = TYPE_DECLARATION.match(line) or PROTOCOL.match(line) or EXTENSION.match(line)
        yield number, line, opened, stack[-1] if stack else None
        if opened:
            pending = opened
        for character in line:
            if character == "{":
                stack.append(pending)
                pending = None
            elif character == "}" and stack:
                stack.pop()


def public_unsafe_fields(path):
    """(line, type, property) for each stored property of a public or open type that holds an unsafe pointer."""
    found = []
    for number, line, _, owner in declaration_lines(path):
        if owner is None or owner.re is not TYPE_DECLARATION:
            continue
        if (owner.group("access") or "").strip() not in ("public", "open"):
            continue
        member = stored_member(line)
        if member and (UNSAFE_TYPE.search(member[1]) or "unowned(unsafe)" in line):
            found.append((number, owner.group("name"), member[0]))
    return found


for path in files:
    for number, type_name, field in public_unsafe_fields(path):
        check(False, "public-unsafe",
              f"{os.path.relpath(path, repo)}:{number}: public type {type_name} holds an unsafe pointer in {field}")

# -- PERF-007: no process-wide memo outside the allowlist (Decision 0034) -----------------------------------------
# (file relative to Sources, property) -> the Decision that names it.
MEMO_ALLOWLIST = {
    ("ArchiveCoding/KeyValueCoding.swift", "tables"): "0034",
    ("ArchiveCoding/KeyValueObservable.swift", "tables"): "0034",
    ("InterfaceObjects/Internal/ActionHandlerCache.swift", "tables"): "0034",
    ("InterfaceObjects/Outlet.swift", "tables"): "0034",
    ("InterfaceObjects/Outlet.swift", "names"): "0034",
    ("InterfaceObjects/Outlet.swift", "tokens"): "0034",
    ("InterfaceObjects/XIBView.swift", "nesting"): "0034",
    ("NibLoading/NibCache.swift", "shared"): "0034",
}
SHARED_STATE = re.compile(r"\b(Mutex|Atomic|ManagedAtomic|NSLock|NSRecursiveLock|LockedState|NSCache|\w*Cache)\b\s*[<(]")
STATIC_STORED = re.compile(
    r"^\s*(?:@[\w()., ]+\s+)*(?:(?:public|open|package|internal|fileprivate|private|nonisolated(?:\(unsafe\))?)\s+)*"
    r"static\s+(?P<kind>var|let)\s+(?P<name>\w+)(?P<rest>.*)$")
GLOBAL_STORED = re.compile(
    r"^(?:(?:public|package|internal|fileprivate|private|nonisolated(?:\(unsafe\))?)\s+)*(?P<kind>var|let)\s+"
    r"(?P<name>\w+)(?P<rest>.*)$")


def process_wide_state(path):
    """(line, name, why) for each static or global stored property that can hold state shared by the process."""
    found = []
    for number, raw in code_lines(path):
        line = strip_strings(raw.split("//")[0]).rstrip()
        match = STATIC_STORED.match(line) or GLOBAL_STORED.match(line)
        # A task-local value is the task's, not the process's.
        if not match or "@TaskLocal" in line:
            continue
        rest = match.group("rest")
        computed = re.match(r"\s*:[^=]*\{", rest) is not None and "=" not in rest.split("{")[0]
        if match.group("kind") == "var" and not computed:
            found.append((number, match.group("name"), "a stored var"))
        elif match.group("kind") == "let" and SHARED_STATE.search(rest):
            found.append((number, match.group("name"), "a lock, an atomic or a cache"))
    return found


decisions = os.path.join(repo, "Specs", "Decisions")
for path in files:
    relative = os.path.relpath(path, sources)
    for number, name, why in process_wide_state(path):
        decision = MEMO_ALLOWLIST.get((relative, name))
        if decision is None:
            check(False, "global-memo",
                  f"{os.path.relpath(path, repo)}:{number}: process-wide {name} holds {why} and is not in the allowlist")
            continue
        texts = [open(os.path.join(decisions, f), encoding="utf-8").read()
                 for f in os.listdir(decisions) if f.startswith(decision + "-")] if os.path.isdir(decisions) else []
        check(any(f"`{relative}`" in text and name in text for text in texts), "global-memo",
              f"{os.path.relpath(path, repo)}:{number}: {name} is allowlisted, but Decision {decision} does not name it")

deps = declared_dependencies()
imported_by = {}
for path in files:
    module = module_of(path)
    for number, line in code_lines(path):
        match = re.match(r'\s*(?:@testable\s+|@preconcurrency\s+)?import\s+(?:struct\s+|class\s+|enum\s+)?(\w+)', line)
        if not match:
            continue
        imported = match.group(1)
        imported_by.setdefault(module, set()).add(imported)
        where = f"{os.path.relpath(path, repo)}:{number}"
        if module in ("XIB", "CompiledNib", "PropertyList"):
            allowed = {"Foundation", "FoundationXML", "ArchiveCoding"} | LIBC
            if module != "PropertyList":
                allowed.add("FoundationForms")
            check(imported in allowed, "front-end-imports",
                  f"{where}: {module} imports {imported}")
        check(imported in TOOLCHAIN or imported == module or imported in deps.get(module, set()), "declared-imports",
              f"{where}: {module} imports {imported}, which its target does not declare")

# The converse: a target's declared dependencies are what its files import (a user's target that imports a product
# builds every module that product declares). An executable target may be declared to have it built.
package_text = open(os.path.join(repo, "Package.swift"), encoding="utf-8").read()
executables = set(re.findall(r'\.executableTarget\(\s*name:\s*"([^"]+)"', package_text))
for module in sorted(imported_by):
    for dependency in sorted(deps.get(module, set()) - imported_by[module] - executables):
        check(False, "imported-dependencies",
              f"Package.swift: {module} declares {dependency}, which none of Sources/{module} imports")

# What a user's test target builds through ArchiveTesting: keyed archives, not the nib loader (Decision 0065).
def dependency_closure(name, seen=None):
    seen = set() if seen is None else seen
    for dependency in deps.get(name, set()):
        if dependency not in seen:
            seen.add(dependency)
            dependency_closure(dependency, seen)
    return seen

for product in ("ArchiveTesting", "ArchiveComparison"):
    for module in sorted(dependency_closure(product) & {"NibLoading", "XIB", "CompiledNib", "InterfaceObjects"}):
        check(False, "testing-graph", f"Package.swift: {product} builds {module}")

# -- PERF-020: the decode core stays small (Decision 0032) --------------------------------------------------------
def braced_body(path, opening):
    """(first line number, [(number, code line)]) of the declaration whose line matches `opening`, up to the line of
    its closing brace (comments dropped, string literals emptied), or (None, []) when no line matches."""
    lines = [(n, strip_strings(raw.split("//")[0])) for n, raw in code_lines(path)]
    for start, (number, line) in enumerate(lines):
        if not opening.match(line):
            continue
        depth, body, opened = 0, [], False
        for n, code in lines[start:]:
            body.append((n, code))
            for character in code:
                if character == "{":
                    depth += 1
                    opened = True
                elif character == "}":
                    depth -= 1
            if opened and depth == 0:
                return number, body
        return number, body
    return None, []


store_file = os.path.join(sources, "KeyedArchive", "Internal", "ObjectStore.swift")
unarchiver_file = os.path.join(sources, "KeyedArchive", "KeyedUnarchiver.swift")
for path in (store_file, unarchiver_file):
    check(os.path.exists(path), "decode-state" if path == store_file else "decode-length",
          f"{os.path.relpath(path, repo)} is missing")
if os.path.exists(store_file):
    def is_state(match):
        return match is not None and match.re is TYPE_DECLARATION and match.group("name") == "State" \
            and match.group("kind") == "struct"

    lines = list(declaration_lines(store_file))
    line = next((number for number, _, opened, _ in lines if is_state(opened)), None)
    # The stored properties declared directly in its body (not those of a nested type, not computed ones).
    names = [member[0] for _, code, _, owner in lines if is_state(owner) and (member := stored_member(code))]
    check(line is not None, "decode-state", f"{os.path.relpath(store_file, repo)}: no struct State")
    check(len(names) <= 12, "decode-state",
          f"{os.path.relpath(store_file, repo)}:{line}: ObjectStore.State has {len(names)} stored properties "
          f"(at most 12): {', '.join(names)}")
if os.path.exists(unarchiver_file):
    line, body = braced_body(unarchiver_file, re.compile(r"^\s*(?:(?:private|fileprivate|internal)\s+)?func\s+decode\(\s*$|^\s*(?:(?:private|fileprivate|internal)\s+)?func\s+decode\(\s*uid:"))
    check(line is not None, "decode-length", f"{os.path.relpath(unarchiver_file, repo)}: no func decode(uid:...)")
    if line is not None:
        length = body[-1][0] - line + 1
        check(length <= 60, "decode-length",
              f"{os.path.relpath(unarchiver_file, repo)}:{line}: decode(uid:...) is {length} lines (at most 60)")

# -- No empty struct that is mutated: an empty value has no address, and a ThreadSanitizer build reports an `inout`
# access to a value of a generic type at the argument's address, which for an empty type is whatever a register holds
# (the sanitizer's runtime crashes on it). A struct with a mutating method, or conforming to a protocol that has one
# (a generic caller of that requirement accesses the value `inout`), keeps a byte of storage.
MUTATING = re.compile(
    r"^\s*(?:@[\w()., ]+\s+)*(?:(?:public|open|package|internal|fileprivate|private|nonisolated)\s+)*mutating\s+func\b")


def conformances(rest):
    """The names after the `:` of a declaration's line (`rest` follows the declared name), up to `where` or `{`."""
    clause = re.split(r"\bwhere\b|\{", rest)[0]
    if ":" not in clause:
        return set()
    return {re.sub(r"<.*", "", name).strip().split(".")[-1] for name in clause.split(":", 1)[1].split(",")} - {""}


def type_shapes(path, shapes):
    """Adds to `shapes` (type name -> {"kind", "where", "stored", "mutating", "conforms"}) what `path` declares: each
    type's and protocol's stored properties, mutating methods and conformances, and those an extension adds."""
    def shape(name):
        return shapes.setdefault(name, {"kind": None, "where": None, "stored": 0, "mutating": 0, "conforms": set()})

    for number, line, opened, owner in declaration_lines(path):
        if opened:
            declared = shape(opened.group("name"))
            if opened.re is not EXTENSION:
                declared["kind"] = opened.group("kind") if opened.re is TYPE_DECLARATION else "protocol"
                declared["where"] = f"{os.path.relpath(path, repo)}:{number}"
            declared["conforms"] |= conformances(line[opened.end("name"):])
        elif owner:
            enclosing = shape(owner.group("name"))
            enclosing["stored"] += 1 if stored_member(line) else 0
            enclosing["mutating"] += 1 if MUTATING.match(line) else 0


shapes = {}
for path in files:
    type_shapes(path, shapes)


def mutated_through(name, seen):
    """The protocol with a mutating requirement that type `name` has or conforms to (directly or through the
    protocols it conforms to), or None."""
    shape = shapes.get(name)
    if shape is None or name in seen:
        return None
    seen.add(name)
    if shape["kind"] == "protocol" and shape["mutating"]:
        return name
    return next((found for other in sorted(shape["conforms"]) if (found := mutated_through(other, seen))), None)


for name, shape in sorted(shapes.items()):
    if shape["kind"] != "struct" or shape["stored"]:
        continue
    why = "mutating methods" if shape["mutating"] else None
    protocol = None if why else next(
        (found for other in sorted(shape["conforms"]) if (found := mutated_through(other, {name}))), None)
    check(not why and not protocol, "empty-mutating",
          f"{shape['where']}: struct {name} has no stored property and "
          + (why if why else f"conforms to {protocol}, which has a mutating requirement"))

for rule, message in failures:
    print(f"{message}  [{RULES[rule]}]")
failed = {rule for rule, _ in failures}
print(f"{len(RULES) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failures else 0)
