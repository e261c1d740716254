"""Checks what a Dart compiler would check first about the package's own files, without a Dart SDK.

For each file under lib/ and test/ (parsed with tree-sitter's Dart grammar):
- every relative `import`/`export` names a file that exists, and `package:baton/...` a file under lib/;
- every other `package:` import is a dependency in pubspec.yaml, and every `dart:` library is one Flutter has;
- every public top-level name declared in another file of the package (a class, enum, typedef, function, constant)
  that this file uses is visible through its imports (following exports, `show` and `hide`).
It cannot see names from Flutter, the plugins or the Dart SDK, nor types, members or arity: those need `dart analyze`.
Prints each problem, then "dart imports: N passed, N failed" (one case per file); exits 1 on any failure.
"""
import json
import pathlib
import re
import sys

from tree_sitter_language_pack import get_parser

SHELL = pathlib.Path(__file__).resolve().parent.parent
LIB = SHELL / "lib"
DART_LIBRARIES = {"async", "collection", "convert", "core", "developer", "io", "isolate", "math", "typed_data", "ui"}
DIRECTIVE = re.compile(r"^\s*(import|export)\s+'([^']+)'([^;]*);", re.MULTILINE)


def dependencies():
    names, inside = set(), False
    for line in (SHELL / "pubspec.yaml").read_text().splitlines():
        if re.match(r"^(dev_)?dependencies:\s*$", line):
            inside = True
            continue
        if inside and re.match(r"^\S", line):
            inside = False
        match = re.match(r"^  ([a-z_][a-z0-9_]*):", line)
        if inside and match:
            names.add(match.group(1))
    return names


def combinators(text):
    show = re.search(r"\bshow\s+([\w\s,]+?)(?:\bhide\b|$)", text)
    hide = re.search(r"\bhide\s+([\w\s,]+?)(?:\bshow\b|$)", text)
    split = lambda m: {n.strip() for n in m.group(1).split(",") if n.strip()} if m else None
    return split(show), split(hide)


def declarations(tree):
    """Public top-level names declared in a file."""
    names = set()
    for node in tree.root_node.children:
        if node.type in ("class_definition", "enum_declaration", "extension_declaration", "mixin_declaration"):
            name = node.child_by_field_name("name") or next((c for c in node.children if c.type == "identifier"), None)
            if name is not None:
                names.add(name.text.decode())
        elif node.type == "type_alias":
            names.update(c.text.decode() for c in node.children if c.type == "type_identifier")
        elif node.type == "function_signature":
            names.update(c.text.decode() for c in node.children if c.type == "identifier")
        elif node.type in ("static_final_declaration_list", "initialized_identifier_list"):
            for item in node.children:
                first = next((c for c in item.children if c.type == "identifier"), None)
                if first is not None:
                    names.add(first.text.decode())
    return {n for n in names if not n.startswith("_")}


def used_names(tree):
    """Identifiers and type identifiers used, minus named-argument labels, directive text and names the file declares
    as a parameter or local variable (which shadow a top-level name)."""
    used, local, stack = set(), set(), [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "import_or_export":
            continue
        if node.type in ("formal_parameter", "initialized_variable_definition", "initialized_identifier"):
            name = node.child_by_field_name("name")
            if name is None:
                name = next((c for c in reversed(node.children) if c.type == "identifier"), None)
            if name is not None:
                local.add(name.text.decode())
        if node.type in ("identifier", "type_identifier") and (node.parent is None or node.parent.type != "label"):
            used.add(node.text.decode())
        stack.extend(node.children)
    return used - local


def main():
    parser = get_parser("dart")
    files = sorted([*LIB.glob("**/*.dart"), *(SHELL / "test").glob("**/*.dart")])
    parsed = {f: parser.parse(f.read_bytes()) for f in files}
    text = {f: f.read_text() for f in files}
    declared = {f: declarations(parsed[f]) for f in files}
    deps = dependencies()
    problems = {f: [] for f in files}

    def target(f, uri):
        if uri.startswith("package:baton/"):
            return LIB / uri[len("package:baton/"):]
        if ":" in uri:
            return None
        return (f.parent / uri).resolve()

    exported_cache = {}

    def exported(f, seen=()):
        if f in exported_cache:
            return exported_cache[f]
        names = set(declared.get(f, set()))
        for kind, uri, rest in DIRECTIVE.findall(text.get(f, "")):
            t = target(f, uri)
            if kind == "export" and t in declared and t not in seen:
                show, hide = combinators(rest)
                sub = exported(t, seen + (f,))
                names |= {n for n in sub if (show is None or n in show) and (hide is None or n not in hide)}
        exported_cache[f] = names
        return names

    all_declared = {}
    for f, names in declared.items():
        if LIB not in f.parents:
            continue  # a test's helpers are not the package's names
        for n in names:
            all_declared.setdefault(n, []).append(f)

    for f in files:
        visible = set(declared[f])
        for kind, uri, rest in DIRECTIVE.findall(text[f]):
            if uri.startswith("dart:"):
                if uri[5:] not in DART_LIBRARIES:
                    problems[f].append(f"unknown library {uri}")
                continue
            if uri.startswith("package:") and not uri.startswith("package:baton/"):
                package = uri[len("package:"):].split("/")[0]
                if package not in deps and package != "flutter":
                    problems[f].append(f"{uri}: {package} is not a dependency in pubspec.yaml")
                continue
            t = target(f, uri)
            if t is None or not t.exists():
                problems[f].append(f"{kind} '{uri}' names no file")
                continue
            if kind == "import":
                show, hide = combinators(rest)
                visible |= {n for n in exported(t) if (show is None or n in show) and (hide is None or n not in hide)}
        for name in sorted(used_names(parsed[f])):
            if name in all_declared and name not in visible:
                where = ", ".join(str(d.relative_to(SHELL)) for d in all_declared[name])
                problems[f].append(f"uses {name} (declared in {where}) without importing it")

    if "--json" in sys.argv:
        print(json.dumps([{"id": str(f.relative_to(SHELL)), "errors": problems[f]} for f in files]))
        sys.exit(1 if any(problems.values()) else 0)
    failed = 0
    for f in files:
        for problem in problems[f]:
            print(f"{f.relative_to(SHELL)}: {problem}")
        failed += bool(problems[f])
    print(f"dart imports: {len(files) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
