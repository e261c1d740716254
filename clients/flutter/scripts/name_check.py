"""Checks that every public TypeScript flow event and screen of the React Native package has its Dart counterpart.

The TypeScript side is read by ts_flow_names.js with the TypeScript compiler (the exported ChiaEvent, ChiaScreen,
VerificationEvent, VerificationScreen, ConnectEvent, ConnectScreen and the string literals that discriminate their
variants: `type` for events, `content` for screens). The Dart side is read from lib/**/*.dart with tree-sitter's Dart
grammar. The rule, per TypeScript type `<Flow><Kind>` with variant `snake_case`:

- a Dart class `<Flow><Kind>` exists, `sealed` when the TypeScript type has variants;
- a Dart class `<Flow><UpperCamel>` or `<Flow><UpperCamel><Kind>` exists and `extends <Flow><Kind>`
  (for example `verify_tap` of VerificationEvent -> VerificationVerifyTapEvent, `in_journey` of
  VerificationScreen -> VerificationInJourney).

Prints each missing or misplaced name, then "dart names: N passed, N failed"; exits 1 on any failure, 3 when the
TypeScript side cannot be read. `--self-test` removes one expected Dart class from what was read and checks that
the comparison reports exactly it.
"""
import json
import os
import pathlib
import re
import subprocess
import sys

from tree_sitter_language_pack import get_parser

HERE = pathlib.Path(__file__).resolve().parent
SHELL = HERE.parent
REPO = SHELL.parent.parent


def typescript_types(source_dir):
    env = dict(os.environ)
    env["NODE_PATH"] = os.pathsep.join(p for p in ["/usr/share/nodejs", env.get("NODE_PATH", "")] if p)
    try:
        run = subprocess.run(["node", str(HERE / "ts_flow_names.js"), str(source_dir)], check=False, capture_output=True,
                             text=True, env=env)
    except FileNotFoundError:
        sys.stderr.write("dart names: node is not installed; the TypeScript side cannot be read\n")
        sys.exit(3)
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        sys.stderr.write("dart names: the TypeScript side could not be read\n")
        sys.exit(3)
    return json.loads(run.stdout)


def dart_classes():
    """{name: {"superclass": str | None, "sealed": bool, "file": str}} for every class in lib/."""
    parser = get_parser("dart")
    classes = {}
    for path in sorted((SHELL / "lib").glob("**/*.dart")):
        tree = parser.parse(path.read_bytes())
        stack = [tree.root_node]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            if node.type != "class_definition":
                continue
            name = node.child_by_field_name("name")
            superclass = node.child_by_field_name("superclass")
            parent = None
            if superclass is not None:
                types = [c for c in superclass.children if c.type == "type_identifier"]
                parent = types[0].text.decode() if types else None
            classes[name.text.decode()] = {
                "superclass": parent,
                "sealed": any(c.type == "sealed" for c in node.children),
                "file": str(path.relative_to(SHELL)),
            }
    return classes


def camel(literal):
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[_\-\s]+", literal) if part)


def expected_names(types):
    """[(typescript name, dart parent or None, [accepted dart names])] in a stable order."""
    cases = []
    for name in sorted(types):
        variants = types[name]
        kind = "Event" if name.endswith("Event") else "Screen"
        flow = name[: -len(kind)]
        cases.append((name, None, [name], bool(variants)))
        for variant in variants:
            base = flow + camel(variant)
            cases.append((f"{name} '{variant}'", name, [base, base + kind], False))
    return cases


def compare(types, classes, results=None):
    passed, failures = 0, []
    for label, parent, accepted, must_be_sealed in expected_names(types):
        before = len(failures)
        found = [n for n in accepted if n in classes]
        if parent is not None:
            # A same-named class elsewhere (an API type, say) does not count; the one that extends the parent does.
            found = [n for n in found if classes[n]["superclass"] == parent] or found
        if not found:
            failures.append(f"{label}: no Dart class {' or '.join(accepted)}")
        elif parent is not None and classes[found[0]]["superclass"] != parent:
            failures.append(f"{label}: {found[0]} ({classes[found[0]]['file']}) does not extend {parent}")
        elif parent is None and must_be_sealed and not classes[found[0]]["sealed"]:
            failures.append(f"{label}: {found[0]} ({classes[found[0]]['file']}) is not sealed")
        else:
            passed += 1
        if results is not None:
            results.append({"id": label, "errors": failures[before:]})
    return passed, failures


def main():
    source = REPO / "clients" / "react-native" / "src"
    if "--typescript" in sys.argv:
        source = pathlib.Path(sys.argv[sys.argv.index("--typescript") + 1])
    read = typescript_types(source)
    types = read["types"]
    if not types:
        sys.stderr.write(f"dart names: no flow event or screen types exported from {read['source']}\n")
        sys.exit(3)
    classes = dart_classes()
    if "--self-test" in sys.argv:
        label, _parent, accepted, _ = next(c for c in expected_names(types) if c[1] is not None)
        present = [n for n in accepted if n in classes]
        damaged = {k: v for k, v in classes.items() if k not in present}
        _, failures = compare(types, damaged)
        ok = bool(present) and len(failures) == 1 and failures[0].startswith(label + ":")
        print(f"dart names self-test: {'passed' if ok else 'failed'} (without {' / '.join(present) or accepted[0]}:"
              f" {failures if failures else 'nothing reported'})")
        sys.exit(0 if ok else 1)
    results = []
    passed, failures = compare(types, classes, results)
    if "--json" in sys.argv:
        print(json.dumps(results))
        sys.exit(1 if failures else 0)
    for failure in failures:
        print(f"dart names: {failure}")
    print(f"dart names: {passed} passed, {len(failures)} failed (TypeScript from {source.relative_to(REPO) if source.is_relative_to(REPO) else source}/{read['source'].removeprefix('src/')})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
