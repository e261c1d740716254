#!/usr/bin/env python3
"""Self-test of check_renderer_conformance.py with fake shells (run by `make test`; no browser, no build needed).

Each fake shell is a small script in a temporary repository that holds the real renderer-conformance.v1.json; it
prints a report built from that file, so the checker is exercised end to end: table, counts, exit status.
"""

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_renderer_conformance as checker

REAL = json.loads((checker.REPO / "Conformance" / checker.VECTOR_FILE).read_text())
SECTIONS = checker.SECTIONS


def report(shell, override=None, drop=(), extra=()):
    """Every case passed, except `override` {id: result} and the ids in `drop`; plus the entries in `extra`."""
    override = override or {}
    cases = [{"file": checker.VECTOR_FILE, "section": section, "id": case["id"],
              "result": override.get(case["id"], "passed")}
             for section in SECTIONS for case in REAL[section] if case["id"] not in drop]
    return {"shell": shell, "cases": cases + list(extra)}


class CheckerTests(unittest.TestCase):
    def setUp(self):
        self.repo = Path(tempfile.mkdtemp(prefix="conformance-checker-"))
        (self.repo / "Conformance").mkdir()
        shutil.copy(checker.REPO / "Conformance" / checker.VECTOR_FILE, self.repo / "Conformance")

    def tearDown(self):
        shutil.rmtree(self.repo, ignore_errors=True)

    def shell(self, name, body=None, stdout=None, status=0, stderr=""):
        """A fake adapter at fake/NAME printing `stdout` (a dict becomes JSON) or running `body` (Python)."""
        script = self.repo / "fake" / name
        script.parent.mkdir(exist_ok=True)
        if body is None:
            text = stdout if isinstance(stdout, str) else json.dumps(stdout)
            body = f"sys.stdout.write({text!r}); sys.stderr.write({stderr!r}); sys.exit({status})"
        script.write_text(f"#!{sys.executable}\nimport sys\n{textwrap.dedent(body)}\n")
        script.chmod(0o755)
        return checker.Shell(name, [f"fake/{name}"], checker.executable(f"fake/{name}"), timeout=60)

    def check(self, registry, *arguments):
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(io.StringIO()):
            status = checker.main(list(arguments), registry=registry, repo=self.repo)
        return status, output.getvalue().splitlines()

    def test_all_passing_exits_zero_and_ends_with_the_totals_alone(self):
        total = sum(len(REAL[s]) for s in SECTIONS)
        status, lines = self.check([self.shell("good", stdout=report("good"))])
        self.assertEqual(status, 0)
        self.assertEqual(lines[-1], f"{total} passed, 0 failed")

    def test_a_failed_case_exits_non_zero(self):
        failing = report("kotlin", override={REAL["decision"][0]["id"]: "failed"})
        status, lines = self.check([self.shell("kotlin", stdout=failing, status=1)])
        self.assertEqual(status, 1)
        self.assertTrue(lines[-1].endswith(" passed, 1 failed"), lines[-1])
        self.assertIn(f"FAIL kotlin decision {REAL['decision'][0]['id']}", lines)

    def test_not_run_and_left_out_cases_are_never_passed(self):
        accessibility = [case["id"] for case in REAL["accessibility"]]
        partial = report("ts", override=dict.fromkeys(accessibility, "not_run"), drop=[REAL["forbidden"][0]["id"]])
        status, lines = self.check([self.shell("ts", stdout=partial)])
        self.assertEqual(status, 0)
        total = sum(len(REAL[s]) for s in SECTIONS)
        self.assertEqual(lines[-1], f"{total - len(accessibility) - 1} passed, 0 failed")
        row = next(line for line in lines if line.startswith("ts "))
        self.assertIn(f"0 passed, 0 failed, {len(accessibility)} not run", row)
        self.assertIn(f"{len(accessibility) + 1} not run, 0 shell(s) not runnable here", lines)

    def test_every_case_not_run_is_listed_by_name(self):
        accessibility = [case["id"] for case in REAL["accessibility"]]
        dropped = REAL["forbidden"][0]["id"]
        partial = report("ts", override=dict.fromkeys(accessibility, "not_run"), drop=[dropped])
        _, lines = self.check([self.shell("ts", stdout=partial)])
        listed = [line for line in lines if line.startswith("NOT RUN ts ")]
        self.assertEqual(len(listed), len(accessibility) + 1, listed)
        for case_id in accessibility:
            self.assertTrue(any(line.startswith(f"NOT RUN ts accessibility {case_id}") for line in listed), case_id)
        self.assertIn(f"NOT RUN ts forbidden {dropped}: not in the report", listed)

    def test_a_missing_toolchain_is_not_runnable_here_with_its_reason(self):
        absent = checker.Shell("flutter", ["clients/flutter/scripts/conformance-report"],
                               checker.executable("clients/flutter/scripts/conformance-report"))
        broken = self.shell("kotlin", stdout="", status=3, stderr="kotlinc not found\n")
        status, lines = self.check([absent, broken])
        self.assertEqual(status, 0)
        self.assertEqual(lines[-1], "0 passed, 0 failed")
        self.assertIn("kotlin: not runnable here: kotlinc not found", lines)
        self.assertIn("flutter: not runnable here: clients/flutter/scripts/conformance-report does not exist", lines)
        self.assertIn("not runnable here", next(line for line in lines if line.startswith("kotlin ")))

    def test_a_required_shell_that_cannot_run_fails(self):
        status, lines = self.check([self.shell("web", stdout="", status=3, stderr="no chromium\n")], "--require", "web")
        self.assertEqual(status, 1)
        self.assertEqual(lines[-1], "0 passed, 1 failed")

    def test_a_report_that_is_not_json_or_claims_unknown_cases_fails(self):
        garbage = self.shell("garbage", stdout="all good!\n")
        invented = self.shell("invented", stdout=report("invented", extra=[
            {"file": checker.VECTOR_FILE, "section": "decision", "id": "made-up", "result": "passed"}]))
        status, lines = self.check([garbage, invented])
        self.assertEqual(status, 1)
        self.assertIn("FAIL garbage report -: the command printed no JSON report", lines)
        self.assertIn(f"FAIL invented decision made-up: no such case in {checker.VECTOR_FILE}", lines)
        self.assertTrue(lines[-1].endswith(" passed, 2 failed"), lines[-1])

    def test_other_vector_files_become_further_columns(self):
        extra = [{"file": "return-links.v1.json", "section": "return-links", "id": "r1", "result": "passed"},
                 {"file": "return-links.v1.json", "section": "return-links", "id": "r2", "result": "failed",
                  "detail": "wrong reason"}]
        status, lines = self.check([self.shell("swift", stdout=report("swift", extra=extra), status=1)])
        self.assertEqual(status, 1)
        self.assertTrue(lines[0].split(" | ")[-1].strip() == "return-links.v1", lines[0])
        self.assertIn("FAIL swift return-links.v1 r2: wrong reason", lines)

    def test_the_registry_names_every_platform_with_its_command(self):
        commands = {shell.name: shell.argv for shell in checker.REGISTRY}
        self.assertEqual(commands["swift"], [".build/debug/baton", "conformance", "--json"])
        self.assertEqual(commands["web"], ["scripts/web-shell/conformance-report"])
        self.assertEqual(commands["kotlin"], ["clients/android/scripts/conformance-report"])
        self.assertEqual(commands["typescript"], ["clients/react-native/scripts/conformance-report"])
        self.assertEqual(commands["flutter"], ["clients/flutter/scripts/conformance-report"])


if __name__ == "__main__":
    os.chdir(checker.REPO)
    unittest.main(verbosity=1)
