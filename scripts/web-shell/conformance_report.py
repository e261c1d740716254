"""The web shell's conformance adapter: runs the browser checks of run_web_shell_tests.py that stand for cases of
Conformance/renderer-conformance.v1.json and prints ONE JSON object on stdout, in the shell adapter format of
scripts/partner_contracts/check_renderer_conformance.py (docs/CONTRACTS.md, "Conformance reports"):
{"shell": "web", "cases": [{"file", "section", "id", "result", "detail"?}]}. Progress goes to stderr.

Each case passes when every browser check standing for it passed, fails when one failed, and is not run when no
check stands for it. The decision and interaction cases are the suite's own per-case tests; COVERAGE maps the
suite's other tests (and the few checks defined here) to the accessibility and forbidden cases they check.
"""

import contextlib
import json
import re
import sys
import time
import urllib.request

import run_web_shell_tests as shell
from selenium.webdriver.common.by import By

FILE = "renderer-conformance.v1.json"


@shell.cases(lambda context: [(None, None)])
def image_alt(context):
    """The card image carries the projection's alt text (as the page's <img alt>)."""
    context.sign_in()
    card = shell.real_card(context, "share")
    alts = [img.get_attribute("alt") for img in context.card(card["id"]).find_elements(By.CSS_SELECTOR, "img")]
    shell.check(alts == [card["image"]["alt"]], f"image alt {alts!r}")


@shell.cases(lambda context: [(None, None)])
def journey_url_exact(context):
    """The navigation is a bare journey URL: the fixture's journeyURLPattern on the sandbox's Chia origin."""
    context.sign_in()
    context.open_disclosure(shell.item_id("share"))
    mark = context.mark()
    context.card(shell.item_id("share")).find_element(By.CSS_SELECTOR, "[data-action=share]").click()
    context.wait(lambda: context.navigations(mark), "navigation")
    pattern = shell.CONFORMANCE["fixtures"]["journeyURLPattern"].replace(
        re.escape("https://chia.test"), re.escape(context.backend.chia))
    shell.check(pattern != shell.CONFORMANCE["fixtures"]["journeyURLPattern"], "journeyURLPattern names no Chia origin")
    navigated = context.navigations(mark)
    shell.check(len(navigated) == 1 and re.fullmatch(pattern, navigated[0]),
                "the navigation is not exactly one bare journey URL (query, fragment or redirector added)")


@shell.cases(lambda context: [(None, None)])
def web_headers(context):
    """Every /web/ asset is served with the file's exact headers (the CSP among them). The backend lists its own
    public origin (where mirrored images live: fixtures.partnerOrigin) next to 'self' in img-src; that origin is
    this same backend here, so it is read as 'self'."""
    headers = shell.CONFORMANCE["headers"]
    for path, specific in headers["assets"].items():
        with urllib.request.urlopen(context.base + path, timeout=10) as response:
            served = {name.lower(): value for name, value in response.headers.items()}
        if "content-security-policy" in served:
            served["content-security-policy"] = served["content-security-policy"].replace(
                "img-src 'self' " + context.base + ";", "img-src 'self';")
        for name, value in {**headers["all"], **specific}.items():
            shell.check(served.get(name.lower()) == value, f"{path}: {name} is {served.get(name.lower())!r}")


# The checks standing for each accessibility and forbidden case (decision and interaction cases are per case).
COVERAGE = {
    shell.layout: [("accessibility", "text-200-at-320")],
    shell.reading_order: [("accessibility", "reading-order")],
    shell.keyboard_only: [("accessibility", "keyboard-only")],
    shell.reduced_motion: [("accessibility", "reduced-motion")],
    shell.equal_access: [("accessibility", "equal-access")],
    image_alt: [("accessibility", "image-alt")],
    shell.axe_audit: [("accessibility", "axe-no-violations")],
    shell.network_quiet: [("forbidden", "no-provider-request-before-tap"),
                          ("forbidden", "no-request-between-render-and-tap")],
    shell.forbidden_static: [("forbidden", "no-resource-hints"), ("forbidden", "no-embedded-browser"),
                             ("forbidden", "no-window-open"), ("forbidden", "no-inline-script")],
    web_headers: [("forbidden", "no-inline-script")],
    shell.journey_url_not_kept: [("forbidden", "journey-url-unchanged"), ("forbidden", "journey-url-not-persisted"),
                                 ("forbidden", "journey-url-not-logged")],
    journey_url_exact: [("forbidden", "journey-url-unchanged")],
    shell.no_status_after_return: [("forbidden", "no-status-call")],
}


def run_checks(context):
    """(section, id) -> list of failures ('' for a pass), one entry per check that ran for the case."""
    outcomes = {}

    def attempt(function, label, case, keys):
        try:
            context.fresh()
            function(context) if case is None else function(context, case)
            failure = None
        except Exception as error:  # noqa: BLE001 - every failure is reported, the run goes on
            failure = (str(error).splitlines() or [type(error).__name__])[0]
        print(("ok   " if failure is None else "FAIL ") + function.__name__ + (f" [{label}]" if label else "")
              + (f": {failure}" if failure else ""), file=sys.stderr, flush=True)
        for key in keys:
            outcomes.setdefault(key, []).append(failure)

    for case in shell.CONFORMANCE["decision"]:
        attempt(shell.decision_case, case["id"], case, [("decision", case["id"])])
    for case in shell.CONFORMANCE["interaction"]:
        attempt(shell.interaction_case, case["id"], case, [("interaction", case["id"])])
    for function, keys in COVERAGE.items():
        for label, case in function.cases(context) if hasattr(function, "cases") else [(None, None)]:
            attempt(function, label, case, keys)
    return outcomes


def report(outcomes):
    cases = []
    for section in ["decision", "interaction", "accessibility", "forbidden"]:
        for case in shell.CONFORMANCE[section]:
            runs = outcomes.get((section, case["id"]))
            entry = {"file": FILE, "section": section, "id": case["id"]}
            if not runs:
                entry.update(result="not_run", detail="no browser check for this case")
            elif any(failure is not None for failure in runs):
                entry.update(result="failed", detail=next(f for f in runs if f is not None))
            else:
                entry.update(result="passed", detail=f"{len(runs)} browser check(s)")
            cases.append(entry)
    return {"shell": "web", "cases": cases}


def main():
    started = time.monotonic()
    backend = shell.SandboxBackend(shell.REPO)
    context = None
    with contextlib.redirect_stdout(sys.stderr):  # stdout carries the report alone
        try:
            backend.start()
            print(f"web conformance: `baton serve --sandbox --port {backend.port}`", flush=True)
            context = shell.Context(backend)
            shell.CURRENT.append(context)
            outcomes = run_checks(context)
        finally:
            if context:
                context.close()
            backend.stop()
        print(f"web conformance: {time.monotonic() - started:.0f} s", flush=True)
    result = report(outcomes)
    print(json.dumps(result))
    return 1 if any(case["result"] == "failed" for case in result["cases"]) else 0


if __name__ == "__main__":
    sys.exit(main())
