#!/usr/bin/env python3
"""Runs every case of Conformance/renderer-conformance.v1.json on every shell this machine can run (seed 000:
"Every supported shell uses the same reviewed renderer-conformance.v1.json decision, interaction, accessibility, and
forbidden-behavior cases"). Run from the repository root:

    python3 scripts/partner_contracts/check_renderer_conformance.py [--require SHELL]... [--only SHELL]...

Prints a table shell x section (passed / failed / not run, or "not runnable here" with the reason), each case of
renderer-conformance.v1.json a shell did not run ("NOT RUN shell section id: reason"), the failed
cases, and last a line "N passed, N failed" alone. Exits 1 on any failed case (or a --require'd shell that cannot
run here), else 0. Passed and failed count only cases a shell executed.

Shell adapter interface (docs/CONTRACTS.md, "Conformance reports"); keep it exactly so:
- REGISTRY below lists each shell: its name, its command (argv, run from the repository root) and an availability
  probe. A shell whose probe fails is "not runnable here" for every case, with the reason; never passed.
- The command prints ONE JSON object on stdout:
    {"shell": "kotlin", "cases": [{"file": "renderer-conformance.v1.json", "section": "decision", "id": "...",
                                   "result": "passed" | "failed" | "not_run", "detail": "..."}]}
  `detail` is optional; `not_run` means the shell has no executable check for that case. Cases of other vector
  files (return-links.v1.json, interaction.v1.json, ...) may be reported with their own file name and a section
  such as "return-links"; the table shows them as further columns. Progress and diagnostics go to stderr.
- A command that cannot run here (a missing toolchain) exits non-zero with a message on stderr and prints no JSON:
  the shell is "not runnable here" with that message. A report with failed cases may exit non-zero too: the JSON on
  stdout is what counts. A case of renderer-conformance.v1.json that a report leaves out counts as not run.
"""

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VECTOR_FILE = "renderer-conformance.v1.json"
SECTIONS = ["decision", "interaction", "accessibility", "forbidden"]
RESULTS = ("passed", "failed", "not_run")


def executable(relative):
    """A probe: the command file exists and is executable (its own toolchain check runs when it is started)."""
    def probe(repo):
        path = repo / relative
        if not path.exists():
            return f"{relative} does not exist"
        if not os.access(path, os.X_OK):
            return f"{relative} is not executable"
        return None
    return probe


@dataclass
class Shell:
    name: str
    argv: list
    probe: object
    timeout: int = 1800


REGISTRY = [
    # BatonCore's decoders and BatonClient's flow machines (`make test` builds the binary first).
    Shell("swift", [".build/debug/baton", "conformance", "--json"], executable(".build/debug/baton"), timeout=300),
    # The web reference shell in headless Chromium against `baton serve --sandbox` on a random 127.0.0.1 port.
    Shell("web", ["scripts/web-shell/conformance-report"], executable("scripts/web-shell/conformance-report")),
    Shell("kotlin", ["clients/android/scripts/conformance-report"],
          executable("clients/android/scripts/conformance-report")),
    Shell("typescript", ["clients/react-native/scripts/conformance-report"],
          executable("clients/react-native/scripts/conformance-report")),
    Shell("flutter", ["clients/flutter/scripts/conformance-report"],
          executable("clients/flutter/scripts/conformance-report")),
]


@dataclass
class ShellRun:
    name: str
    unavailable: str = None                       # the reason, when not runnable here
    cells: dict = field(default_factory=dict)     # column -> {"passed": n, "failed": n, "not_run": n}
    failures: list = field(default_factory=list)  # (column, id, detail)
    not_run: list = field(default_factory=list)   # (section, id, detail) of renderer-conformance cases not run

    def count(self, result):
        return sum(cell[result] for cell in self.cells.values())


def expected_cases(vectors):
    return [(section, case["id"]) for section in SECTIONS for case in vectors.get(section, [])]


def column(file, section):
    """The table column: the section for renderer-conformance.v1.json; `return-links.v1` for a whole other file
    whose section is its name, else `file:section`."""
    if file == VECTOR_FILE:
        return section
    stem = file.removesuffix(".json")
    return stem if stem.split(".")[0] == section else f"{stem}:{section}"


def run_shell(shell, repo, vectors):
    run = ShellRun(shell.name)
    reason = shell.probe(repo)
    if reason:
        run.unavailable = reason
        return run
    print(f"check_renderer_conformance: running {shell.name}: {' '.join(shell.argv)}", file=sys.stderr, flush=True)
    try:
        process = subprocess.run(shell.argv, cwd=repo, capture_output=True, check=False, text=True, timeout=shell.timeout)
    except subprocess.TimeoutExpired:
        run.failures.append(("report", "-", f"no report within {shell.timeout} s"))
        return run
    except OSError as error:
        run.unavailable = f"cannot start {shell.argv[0]}: {error.strerror}"
        return run
    sys.stderr.write(process.stderr[-4000:] if os.environ.get("CONFORMANCE_VERBOSE") else "")
    try:
        report = json.loads(process.stdout)
    except ValueError:
        report = None
    if not isinstance(report, dict) or not isinstance(report.get("cases"), list):
        if process.returncode != 0:
            lines = [line for line in process.stderr.splitlines() if line.strip()]
            run.unavailable = lines[-1].strip() if lines else f"exited with {process.returncode}"
        else:
            run.failures.append(("report", "-", "the command printed no JSON report"))
        return run
    if report.get("shell") not in (None, shell.name):
        run.failures.append(("report", "-", f"the report names shell {report.get('shell')!r}"))
    known = set(expected_cases(vectors))
    reported = set()
    for entry in report["cases"]:
        if not isinstance(entry, dict) or entry.get("result") not in RESULTS or not all(
                isinstance(entry.get(key), str) for key in ("file", "section", "id")):
            run.failures.append(("report", "-", f"malformed case entry {json.dumps(entry)[:120]}"))
            continue
        key = (entry["section"], entry["id"])
        result = entry["result"]
        if entry["file"] == VECTOR_FILE:
            if key not in known:
                result, entry = "failed", {**entry, "detail": "no such case in " + VECTOR_FILE}
            elif key in reported:
                result, entry = "failed", {**entry, "detail": "reported twice"}
            reported.add(key)
        name = column(entry["file"], entry["section"])
        cell = run.cells.setdefault(name, dict.fromkeys(RESULTS, 0))
        cell[result] += 1
        if result == "failed":
            run.failures.append((name, entry["id"], entry.get("detail") or ""))
        elif result == "not_run" and entry["file"] == VECTOR_FILE:
            run.not_run.append((entry["section"], entry["id"], entry.get("detail") or ""))
    for section, case_id in sorted(known - reported):
        run.cells.setdefault(section, dict.fromkeys(RESULTS, 0))["not_run"] += 1
        run.not_run.append((section, case_id, "not in the report"))
    return run


def cell_text(run, name):
    if run.unavailable:
        return "not runnable here"
    cell = run.cells.get(name)
    if not cell:
        return "-"
    parts = [f"{cell['passed']} passed", f"{cell['failed']} failed"]
    if cell["not_run"]:
        parts.append(f"{cell['not_run']} not run")
    return ", ".join(parts)


def print_table(runs):
    extra = sorted({name for run in runs for name in run.cells if name not in SECTIONS})
    columns = SECTIONS + extra
    rows = [["shell"] + columns] + [[run.name] + [cell_text(run, name) for name in columns] for run in runs]
    widths = [max(len(row[i]) for row in rows) for i in range(len(columns) + 1)]
    for index, row in enumerate(rows):
        print(" | ".join(text.ljust(width) for text, width in zip(row, widths)).rstrip())
        if index == 0:
            print("-+-".join("-" * width for width in widths))


def main(argv=None, registry=None, repo=REPO):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--require", action="append", default=[], metavar="SHELL",
                        help="fail when SHELL is not runnable here (make test requires swift and web)")
    parser.add_argument("--only", action="append", default=[], metavar="SHELL", help="run only these shells")
    arguments = parser.parse_args(argv)
    registry = REGISTRY if registry is None else registry
    names = [shell.name for shell in registry]
    for name in arguments.require + arguments.only:
        if name not in names:
            parser.error(f"unknown shell {name!r} (known: {', '.join(names)})")
    vectors = json.loads((Path(repo) / "Conformance" / VECTOR_FILE).read_text())
    runs = [run_shell(shell, Path(repo), vectors) for shell in registry
            if not arguments.only or shell.name in arguments.only]

    print_table(runs)
    for run in runs:
        if run.unavailable:
            print(f"{run.name}: not runnable here: {run.unavailable}")
    for run in runs:
        for section, case_id, detail in run.not_run:
            print(f"NOT RUN {run.name} {section} {case_id}" + (f": {detail}" if detail else ""))
    for run in runs:
        for name, case_id, detail in run.failures:
            print(f"FAIL {run.name} {name} {case_id}" + (f": {detail}" if detail else ""))
    missing = [run.name for run in runs if run.unavailable and run.name in arguments.require]
    for name in missing:
        print(f"FAIL {name}: required here but not runnable")
    passed = sum(run.count("passed") for run in runs)
    failed = sum(run.count("failed") + sum(1 for f in run.failures if f[0] == "report") for run in runs)
    failed += len(missing)
    not_run = sum(run.count("not_run") for run in runs)
    unavailable = sum(1 for run in runs if run.unavailable)
    print(f"{not_run} not run, {unavailable} shell(s) not runnable here")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
