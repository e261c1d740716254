"""Checks what a Dart compiler would check first about the package's own files and the sample app's, without a Dart SDK.

For each file under lib/ and test/ of the package, and under lib/ of the sample app examples/flutter-app (parsed with
tree-sitter's Dart grammar):
- every relative `import`/`export` names a file that exists, and `package:baton/...` a file under the package's lib/
  (the sample: `package:baton/baton.dart` only, the package's public API);
- every other `package:` import is a dependency in that unit's pubspec.yaml, and every `dart:` library is one Flutter
  has; the sample's pubspec has `baton` as the path dependency `../../clients/flutter`;
- every public top-level name declared in another file of the package (a class, enum, typedef, function, constant)
  or of the sample that this file uses is visible through its imports (following exports, `show` and `hide`): for
  the sample, a package name that `package:baton/baton.dart` does not export is reported.
It cannot see names from Flutter, the plugins or the Dart SDK, nor types, members or arity: those need `dart analyze`;
a name that exists nowhere in the package (a misspelling) looks like one of those and is not reported.
Prints each problem, then "dart imports: N passed, N failed" (one case per file); exits 1 on any failure.
"""
import json
import pathlib
import re
import sys

from tree_sitter_language_pack import get_parser

SHELL = pathlib.Path(__file__).resolve().parent.parent
LIB = SHELL / "lib"
REPO = SHELL.parent.parent
SAMPLE = REPO / "examples" / "flutter-app"
DART_LIBRARIES = {"async", "collection", "convert", "core", "developer", "io", "isolate", "math", "typed_data", "ui"}
DIRECTIVE = re.compile(r"^\s*(import|export)\s+'([^']+)'([^;]*);", re.MULTILINE)


def dependencies(unit=SHELL):
    names, inside = set(), False
    for line in (unit / "pubspec.yaml").read_text().splitlines():
        if re.match(r"^(dev_)?dependencies:\s*$", line):
            inside = True
            continue
        if inside and re.match(r"^\S", line):
            inside = False
        match = re.match(r"^  ([a-z_][a-z0-9_]*):", line)
        if inside and match:
            names.add(match.group(1))
    return names


def baton_path(unit):
    """The `path:` of the `baton` dependency in a unit's pubspec.yaml, or None."""
    match = re.search(r"^  baton:\s*\n    path:\s*(\S+)\s*$", (unit / "pubspec.yaml").read_text(), re.MULTILINE)
    return match.group(1) if match else None


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


def pubspec_name(unit):
    match = re.search(r"^name:\s*(\w+)\s*$", (unit / "pubspec.yaml").read_text(), re.MULTILINE)
    return match.group(1) if match else None


def shown(f):
    """A file's name in the output: the package's from clients/flutter, the sample's from the repository root."""
    return str(f.relative_to(SHELL if SHELL in f.parents else REPO))


def main():
    parser = get_parser("dart")
    package_files = sorted([*LIB.glob("**/*.dart"), *(SHELL / "test").glob("**/*.dart")])
    sample_files = sorted((SAMPLE / "lib").glob("**/*.dart")) if (SAMPLE / "pubspec.yaml").exists() else []
    files = package_files + sample_files
    in_sample = set(sample_files)
    parsed = {f: parser.parse(f.read_bytes()) for f in files}
    text = {f: f.read_text() for f in files}
    declared = {f: declarations(parsed[f]) for f in files}
    deps = {SHELL: dependencies(SHELL)}
    sample_name = None
    problems = {f: [] for f in files}
    sample_pubspec = SAMPLE / "pubspec.yaml"
    if sample_files:
        deps[SAMPLE] = dependencies(SAMPLE)
        sample_name = pubspec_name(SAMPLE)
        # The sample builds against this repository's package, as a partner's app would by path.
        problems[sample_pubspec] = []
        path = baton_path(SAMPLE)
        if path is None or (SAMPLE / path).resolve() != SHELL:
            problems[sample_pubspec].append(
                f"baton is not the path dependency ../../clients/flutter (found {path!r})")

    def target(f, uri):
        if uri.startswith("package:baton/"):
            return LIB / uri[len("package:baton/"):]
        if sample_name and uri.startswith(f"package:{sample_name}/"):
            return SAMPLE / "lib" / uri[len(f"package:{sample_name}/"):]
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

    # The names a file could mean: the package's (lib/ only: a test's helpers are not the package's names), and for
    # the sample's files also the sample's own.
    package_declared, sample_declared = {}, {}
    for f, names in declared.items():
        into = sample_declared if f in in_sample else package_declared if LIB in f.parents else None
        if into is None:
            continue
        for n in names:
            into.setdefault(n, []).append(f)

    for f in files:
        unit = SAMPLE if f in in_sample else SHELL
        candidates = dict(package_declared)
        if f in in_sample:
            for n, where in sample_declared.items():
                candidates[n] = candidates.get(n, []) + where
        visible = set(declared[f])
        imports_baton = False
        for kind, uri, rest in DIRECTIVE.findall(text[f]):
            if uri.startswith("dart:"):
                if uri[5:] not in DART_LIBRARIES:
                    problems[f].append(f"unknown library {uri}")
                continue
            own = "baton" if unit == SHELL else sample_name
            if uri.startswith("package:") and not uri.startswith(f"package:{own}/"):
                package = uri[len("package:"):].split("/")[0]
                if package not in deps[unit] and not (unit == SHELL and package == "flutter"):
                    problems[f].append(f"{uri}: {package} is not a dependency in pubspec.yaml")
                    continue
                if package == "baton" and uri != "package:baton/baton.dart":
                    problems[f].append(f"{kind} '{uri}': an app imports package:baton/baton.dart only")
                    continue
                if package != "baton":
                    continue
            t = target(f, uri)
            if t is None or not t.exists():
                problems[f].append(f"{kind} '{uri}' names no file")
                continue
            if kind == "import":
                imports_baton = imports_baton or uri == "package:baton/baton.dart"
                show, hide = combinators(rest)
                visible |= {n for n in exported(t) if (show is None or n in show) and (hide is None or n not in hide)}
        for name in sorted(used_names(parsed[f])):
            if name in candidates and name not in visible:
                where = ", ".join(shown(d) for d in candidates[name])
                if f in in_sample and imports_baton and all(LIB in d.parents for d in candidates[name]):
                    problems[f].append(f"uses {name} (declared in {where}), which package:baton/baton.dart does not "
                                       "export to it")
                else:
                    problems[f].append(f"uses {name} (declared in {where}) without importing it")

    if "--json" in sys.argv:
        print(json.dumps([{"id": shown(f), "errors": errors} for f, errors in problems.items()]))
        sys.exit(1 if any(problems.values()) else 0)
    failed = 0
    for f, errors in problems.items():
        for problem in errors:
            print(f"{shown(f)}: {problem}")
        failed += bool(errors)
    print(f"dart imports: {len(problems) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
