#!/usr/bin/env python3
"""The structural rules of Specs/Performance.md (PERF-007) and of the architecture, checked over Sources/:

- at most 15 `@exclusivity(unchecked)`, each in a file that Specs/Decisions/0023 names;
- no `@_spi`; no `Unmanaged` or `unowned(unsafe)` in InterfaceObjects;
- every keyed-archive layout literal ("$archiver", "$objects", "$top", "$classname", "$classes") spelled in one file;
- every Foundation wire key (the string literals of Sources/FoundationForms/FoundationKeys.swift: "NS.objects",
  "NS.keys", "NS.string", "NSRangeCount", …, apart from those that are also class names, such as "NSString") spelled
  in that file only, alone or inside a longer string literal (a message names a key through the constant);
- XIB, CompiledNib and PropertyList import only Foundation, FoundationXML, ArchiveCoding and the platform libc (XIB
  and CompiledNib also FoundationForms, for the Foundation keys);
- every module a Swift file imports is the module itself, a toolchain module or a declared dependency of its target.

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
    "spi": "no @_spi",
    "unsafe-references": "no Unmanaged or unowned(unsafe) in InterfaceObjects",
    "layout": "one file spells each archive layout literal",
    "foundation-keys": "one file spells each Foundation wire key",
    "front-end-imports": "XIB, CompiledNib and PropertyList import only Foundation, ArchiveCoding and libc",
    "declared-imports": "every import is a declared dependency",
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
    known = {"ByteStore": "ByteStore", "UnarchiverStorage": "UnarchiverStorage", "ArchiverStorage": "ArchiverStorage",
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
deps = declared_dependencies()
for path in files:
    module = module_of(path)
    for number, line in code_lines(path):
        match = re.match(r'\s*(?:@testable\s+|@preconcurrency\s+)?import\s+(?:struct\s+|class\s+|enum\s+)?(\w+)', line)
        if not match:
            continue
        imported = match.group(1)
        where = f"{os.path.relpath(path, repo)}:{number}"
        if module in ("XIB", "CompiledNib", "PropertyList"):
            allowed = {"Foundation", "FoundationXML", "ArchiveCoding"} | LIBC
            if module != "PropertyList":
                allowed.add("FoundationForms")
            check(imported in allowed, "front-end-imports",
                  f"{where}: {module} imports {imported}")
        check(imported in TOOLCHAIN or imported == module or imported in deps.get(module, set()), "declared-imports",
              f"{where}: {module} imports {imported}, which its target does not declare")

for rule, message in failures:
    print(f"{message}  [{RULES[rule]}]")
failed = {rule for rule, _ in failures}
print(f"{len(RULES) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failures else 0)
