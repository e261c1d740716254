"""Parses every Dart file of the Flutter shell (lib/, test/) and of the sample app examples/flutter-app (lib/) with
tree-sitter's Dart grammar and reports syntax errors.

This proves only that the files parse: no Dart SDK exists on this machine, so nothing here type-checks, compiles or
runs the Flutter shell (docs/flutter.md says what that leaves unproven).
"""
import json
import pathlib
import sys

from tree_sitter_language_pack import get_parser


def errors(tree):
    """Yields (line, column, kind) for each ERROR or MISSING node."""
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            yield node.start_point[0] + 1, node.start_point[1] + 1, "missing " + node.type if node.is_missing else "error"
        stack.extend(node.children)


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    repo = root.parent.parent
    sample = repo / "examples" / "flutter-app"
    parser = get_parser("dart")
    results = []
    package = sorted([*root.glob("lib/**/*.dart"), *root.glob("test/**/*.dart")])
    files = [(path, path.relative_to(root)) for path in package]
    # The sample's files are named from the repository root (examples/flutter-app/lib/...).
    files += [(path, path.relative_to(repo)) for path in sorted(sample.glob("lib/**/*.dart"))]
    for path, name in files:
        found = list(errors(parser.parse(path.read_bytes())))
        results.append({"file": str(name), "errors": [f"{l}:{c} {k}" for l, c, k in found]})
    if "--json" in sys.argv:
        print(json.dumps(results))
    else:
        for result in results:
            for error in result["errors"]:
                print(f"{result['file']}:{error}")
        failed = sum(1 for r in results if r["errors"])
        print(f"dart syntax: {len(results) - failed} passed, {failed} failed")
    sys.exit(1 if any(r["errors"] for r in results) else 0)


if __name__ == "__main__":
    main()
