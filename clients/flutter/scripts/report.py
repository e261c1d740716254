"""The Flutter shell's conformance report: one JSON object on stdout.

Nothing executes Dart on this machine, so every case of the shared vectors is reported not_run; the checks that do
run are the syntax check of each Dart file (section "syntax"), the name check against the TypeScript flow events and
screens (section "names") and the imports check (section "imports").
"""
import json
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parents[3]
conformance = root / "Conformance"
reason = "not run: no Dart SDK here; the Flutter shell is a transcription of the TypeScript/Kotlin logic, which runs this case"
cases = []


def add(file, section, entries):
    for entry in entries:
        cases.append({"file": file, "section": section, "id": entry["id"], "result": "not_run", "detail": reason})


add("return-links.v1.json", "return-links", json.loads((conformance / "return-links.v1.json").read_text())["cases"])
add("retry-classification.v1.json", "retry-classification",
    json.loads((conformance / "retry-classification.v1.json").read_text())["cases"])
renderer = json.loads((conformance / "renderer-conformance.v1.json").read_text())
for section in ("decision", "interaction", "accessibility", "forbidden"):
    add("renderer-conformance.v1.json", section, renderer[section])
add("interaction.v1.json", "interaction-flows", json.loads((conformance / "interaction.v1.json").read_text())["cases"])
add("link-routing.v1.json", "link-routing", json.loads((conformance / "link-routing.v1.json").read_text())["cases"])



def scope(case_id):
    """The sample app's files are named from the repository root; the package's from clients/flutter."""
    return "examples/flutter-app" if case_id.startswith("examples/flutter-app/") else "clients/flutter/lib"


check = subprocess.run([sys.executable, str(pathlib.Path(__file__).with_name("syntax_check.py")), "--json"],
                       check=False, capture_output=True, text=True)
if check.returncode not in (0, 1):
    sys.stderr.write(check.stderr)
    sys.exit(3)
for result in json.loads(check.stdout):
    cases.append({"file": scope(result["file"]), "section": "syntax", "id": result["file"],
                  "result": "failed" if result["errors"] else "passed", "detail": "; ".join(result["errors"])})

# The name check (a Dart counterpart for every public TypeScript flow event and screen) and the imports check. When
# the TypeScript side cannot be read here (no node), the names section is left out rather than reported.
for section, script in (("names", "name_check.py"), ("imports", "imports_check.py")):
    run = subprocess.run([sys.executable, str(pathlib.Path(__file__).with_name(script)), "--json"],
                         check=False, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.stderr.write(run.stderr)
        continue
    for result in json.loads(run.stdout):
        cases.append({"file": scope(result["id"]), "section": section, "id": result["id"],
                      "result": "failed" if result["errors"] else "passed", "detail": "; ".join(result["errors"])})
print(json.dumps({"shell": "flutter", "cases": cases}))
