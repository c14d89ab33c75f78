#!/usr/bin/env python3
"""Checks that every public symbol and every article of the documentation is in a hand-written topic group
(Specs/Documentation.md DOC-005 to DOC-008). DocC reports nothing about symbols left out of the catalog's
curation: it lists them itself, in sections it generates ("Instance Methods", "Structures", ...), and marks those
sections `"generated": true` in the render JSON. This script reads what DocC wrote:

- the universe: every symbol in the module's symbol graphs (each must have a page) and every page of the archive
  (symbols, articles, API collections) except the module's own page;
- placed: every page listed in a topic section that is not generated, on any page of the same archive, and every
  default implementation listed on its requirement's page;
- left over: the rest, each named by the link to add to a topic group and the catalog file where its parent is
  curated.

Usage: documentation_coverage.py ARCHIVES SYMBOL_GRAPHS
  ARCHIVES: the folder of `<Module>.doccarchive` folders `Scripts/build-documentation` converts
  SYMBOL_GRAPHS: the folder of `<Module>/` symbol-graph folders it extracts
Prints one line per symbol or article outside any topic group and a summary per module; exits 1 if any."""
import glob, json, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KIND_NAMES = {
    "swift.class": "class", "swift.struct": "structure", "swift.enum": "enumeration", "swift.protocol": "protocol",
    "swift.typealias": "type alias", "swift.func": "function", "swift.var": "global variable",
    "swift.method": "instance method", "swift.type.method": "type method", "swift.property": "instance property",
    "swift.type.property": "type property", "swift.init": "initializer", "swift.enum.case": "case",
    "swift.subscript": "subscript", "swift.type.subscript": "type subscript", "swift.func.op": "operator",
    "swift.associatedtype": "associated type", "swift.extension": "extension", "swift.macro": "macro",
}


def catalog_of(module):
    if module == "Guides":
        return os.path.join(ROOT, "docs", "Guides.docc")
    return os.path.join(ROOT, "Sources", module, f"{module}.docc")


def curation_files(module):
    """`Type` (as a catalog path, `Module/Type/Nested`) -> the catalog file whose title is that symbol."""
    files = {}
    catalog = catalog_of(module)
    for path in glob.glob(os.path.join(catalog, "**", "*.md"), recursive=True):
        with open(path, encoding="utf-8") as f:
            first = f.readline().strip()
        match = re.match(r"#\s+``(.+)``\s*$", first)
        if match:
            target = match.group(1)
            if not target.startswith(module + "/") and target != module:
                target = f"{module}/{target}"
            files[target] = os.path.relpath(path, ROOT)
    return files


def link_path(identifier, module, title=None):
    """doc://M/documentation/M/Type/member -> Type/member (the link to write between double backquotes). An
    operator's path component is spelled differently in the address (`_(_:_:)`), so its title is used."""
    prefix = f"doc://{module}/documentation/{module}/"
    path = identifier[len(prefix):] if identifier.startswith(prefix) else identifier
    parent, _, last = path.rpartition("/")
    if title and "(" in last and "(" in title:
        title = re.sub(r"^([A-Za-z_][A-Za-z0-9_]*\.)+", "", title)  # an enumeration case's title names its types
        last = title + last[last.rindex(")") + 1:]
    return f"{parent}/{last}" if parent else last


def check(archive, graph_folder):
    module = os.path.basename(archive)[: -len(".doccarchive")]
    root_identifier = f"doc://{module}/documentation/{module}"
    pages = {}
    for path in glob.glob(os.path.join(archive, "data", "documentation", "**", "*.json"), recursive=True):
        with open(path, encoding="utf-8") as f:
            page = json.load(f)
        pages[page["identifier"]["url"]] = page
    if root_identifier not in pages:
        return [f"{module}: the archive has no page {root_identifier}"], 0, 0
    problems = []

    root = pages[root_identifier]
    if not root.get("abstract") or not any(
            section.get("kind") == "content" for section in root.get("primaryContentSections", [])):
        problems.append(f"{module}: the landing page needs a summary and an overview that say what the module is for"
                        f" ({os.path.relpath(catalog_of(module), ROOT)})")

    placed, automatic = set(), {}
    for identifier, page in pages.items():
        for section in page.get("topicSections", []):
            for item in section.get("identifiers", []):
                if section.get("generated"):
                    automatic.setdefault(item, (identifier, section.get("title", "")))
                else:
                    placed.add(item)
        for section in page.get("defaultImplementationsSections", []):
            placed.update(section.get("identifiers", []))

    by_usr = {page.get("metadata", {}).get("externalID"): identifier for identifier, page in pages.items()}
    symbols = 0
    for path in sorted(glob.glob(os.path.join(graph_folder, "*.symbols.json"))):
        with open(path, encoding="utf-8") as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            if symbol["kind"]["identifier"] == "swift.extension":
                continue
            symbols += 1
            if symbol["identifier"]["precise"] not in by_usr:
                problems.append(f"{module}: {'/'.join(symbol['pathComponents'])} has no page in the archive")

    files = curation_files(module)
    articles = 0
    for identifier, page in sorted(pages.items()):
        if identifier == root_identifier or identifier.endswith("-Implementations"):
            continue
        if page.get("kind") == "article":
            articles += 1
        if identifier in placed:
            continue
        metadata = page.get("metadata", {})
        if page.get("kind") == "symbol":
            what = KIND_NAMES.get(metadata.get("symbolKind", ""), metadata.get("roleHeading", "symbol").lower())
            link = f"``{link_path(identifier, module, metadata.get('title'))}``"
        else:
            what = "article"
            link = f"<doc:{identifier.rsplit('/', 1)[-1]}>"
        where = ""
        if identifier in automatic:
            parent, title = automatic[identifier]
            parent_path = link_path(parent, module)
            parent_name = module if parent == root_identifier else parent_path
            file = files.get(f"{module}/{parent_path}" if parent != root_identifier else module)
            where = f" (DocC lists it under \"{title}\" on {parent_name}"
            where += f": add it to a topic group in {file})" if file else \
                f": curate it on {parent_name}'s page, `# ``{parent_path}``` in an extension file of " \
                f"{os.path.relpath(catalog_of(module), ROOT)}, or on the module's page)"
        problems.append(f"{module}: {link} ({what}) is in no topic group{where}")
    return problems, symbols, articles


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().split("\n\n")[-1], file=sys.stderr)
        sys.exit(64)
    archives_folder, graphs_folder = sys.argv[1], sys.argv[2]
    archives = sorted(glob.glob(os.path.join(archives_folder, "*.doccarchive")))
    if not archives:
        print(f"no .doccarchive in {archives_folder}", file=sys.stderr)
        sys.exit(1)
    total = 0
    for archive in archives:
        module = os.path.basename(archive)[: -len(".doccarchive")]
        problems, symbols, articles = check(archive, os.path.join(graphs_folder, module))
        for line in problems:
            print(line)
        total += len(problems)
        status = "every one in a topic group" if not problems else f"{len(problems)} problems"
        print(f"== {module}: {symbols} symbols, {articles} articles: {status}")
    if total:
        print(f"{total} symbols or articles are outside any hand-written topic group (DOC-005)")
        sys.exit(1)


if __name__ == "__main__":
    main()
