"""Browser tests of the landing pages at the registered https return paths (docs/CONTRACTS.md §2.1).

Runs `baton serve --sandbox` (sandbox_backend.py): its BB and Privue sandboxes redirect to the registered return URLs
https://app.example.com/bb-callback and /kyc/done, and its configuration names open.app.example.com as the open host.
A TLS front (tls_front.py, a throwaway certificate) plays the partner's load balancer for both hosts; headless
Chromium at 320 CSS px and 200 % text follows the providers' real redirects to the landing page. Checked: the page
says nothing about the outcome and carries nothing of the query, loads nothing and runs no script, passes axe,
nothing is clipped, its link goes to the open host without query, and the backend's log never saw the query.
Prints one line per test and ends with "N passed, N failed". Screenshots go to artifacts/landing/.
"""

import json
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from axe_selenium_python import Axe
from run_web_shell_tests import LAYOUT_PROBLEMS, Suite, check
from sandbox_backend import SandboxBackend, http
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from tls_front import TLSFront

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts/landing"
RETURN_HOST = "app.example.com"
OPEN_HOST = "open.app.example.com"

# Installed before any page script could run: records CSP violations.
INSTRUMENTATION = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective));
"""

suite = Suite()


class Context:
    def __init__(self, backend, front):
        self.backend = backend
        self.front = front
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/lib/chromium/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         (f"--host-resolver-rules=MAP {RETURN_HOST} 127.0.0.1:{front.port}, "
                          f"MAP {OPEN_HOST} 127.0.0.1:{front.port}, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
                         f"--ignore-certificate-errors-spki-list={front.spki}",
                         f"--user-data-dir={tempfile.mkdtemp(prefix='landing-chromium-')}"]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": INSTRUMENTATION})
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": 320, "height": 640, "deviceScaleFactor": 1, "mobile": True})
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})

    def fresh(self):
        self.driver.get("about:blank")

    def wait(self, condition, message, timeout=15):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda _: condition())
        except TimeoutException:
            raise AssertionError("timed out: " + message) from None

    def on_landing(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "body[data-page=return-landing]")

    def screenshot(self, name):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        try:
            self.driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))
        except Exception:  # noqa: BLE001, S110 - a screenshot is a diagnostic only
            pass

    def close(self):
        self.driver.quit()

    # ----- the journeys, through the real sandbox redirects -----

    def bb_return(self, result_code="Ok"):
        """Starts a BB connect session for the app's https callback, completes it in the hosted page, follows the
        redirect; returns the session id."""
        status, _, body = self.backend.api_post("/v2/connect-sessions", {"callback": "https"})
        check(status == 201 or status == 200, f"connect session: {status} {body}")
        self.driver.get(body["hostedUrl"])
        labels = {"Ok": "Connect Sandbox Bank (Ok)", "Cancelled": "Cancel"}
        self.driver.find_element(By.XPATH, f"//button[text()='{labels[result_code]}']").click()
        self.wait(self.on_landing, "the landing page after the BB redirect")
        return body["sessionId"]

    def privue_return(self):
        """Opens a fresh Privue handoff, lets the sandbox journey sign in with its ticket, submits `approved`, follows
        the redirect; returns the verification id."""
        status, _, body = self.backend.api_post("/v2/verification-handoffs", {"workflow": "merchant-onboarding"})
        check(status in (200, 201), f"verification handoff: {status} {body}")
        self.driver.get(body["url"])
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "[data-page=privue-journey]"),
                  "the signed-in Privue journey")
        self.driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait(self.on_landing, "the landing page after the Privue redirect")
        return self.backend.state(self.backend.privue)["verifications"][-1]["id"]

    def page(self):
        return self.driver.execute_script("return document.documentElement.outerHTML")

    def links(self):
        return [(a.get_attribute("href"), a.text) for a in self.driver.find_elements(By.CSS_SELECTOR, "a")]


def api_post(self, path, body):
    return http("POST", self.origin + path, body=body, headers={"Authorization": "Bearer " + self.token()})


SandboxBackend.api_post = api_post


@suite.test("BB: the sandbox's Ok redirect lands on the page; nothing of the query is on it")
def bb_landing(context):
    session = context.bb_return("Ok")
    url = urllib.parse.urlsplit(context.driver.current_url)
    check((url.scheme, url.hostname, url.path) == ("https", RETURN_HOST, "/bb-callback"), context.driver.current_url)
    check(session in url.query, "the browser did not arrive with the provider's query")
    page = context.page()
    for leaked in (session, "resultCode", "sessionId", "conn_", "Ok<", "Cancelled", "Error"):
        check(leaked not in page, f"the page carries {leaked!r}")
    check(context.links()[0] == (f"https://{OPEN_HOST}/bb-callback", "Return to the app"), context.links())
    check(("acmewallet://bb-callback", "Open the app with its own link") in context.links(), context.links())
    check(all("?" not in href and "#" not in href for href, _ in context.links() if href.startswith("https:")),
          "a link carries a query or fragment")
    context.screenshot("bb-landing-320px-200pct")


@suite.test("Privue: the sandbox's submit redirect lands on the page; the status is not shown")
def privue_landing(context):
    verification = context.privue_return()
    url = urllib.parse.urlsplit(context.driver.current_url)
    check((url.hostname, url.path) == (RETURN_HOST, "/kyc/done"), context.driver.current_url)
    check("status=approved" in url.query, "the browser did not arrive with the provider's query")
    page = context.page()
    for leaked in (verification, "approved", "verification_id", "status="):
        check(leaked not in page, f"the page carries {leaked!r}")
    check(context.links()[0] == (f"https://{OPEN_HOST}/kyc/done", "Return to the app"), context.links())
    context.screenshot("privue-landing-320px-200pct")


@suite.test("no script, no resource, no CSP violation; no-store, no-referrer, noindex")
def nothing_loads(context):
    context.bb_return("Cancelled")
    scripts = context.driver.execute_script("return document.scripts.length")
    resources = context.driver.execute_script("return performance.getEntriesByType('resource').length")
    violations = context.driver.execute_script("return window.__cspViolations")
    check(scripts == 0 and resources == 0 and violations == [], f"{scripts} scripts, {resources} resources, "
          f"CSP violations {violations}")
    robots = context.driver.find_element(By.CSS_SELECTOR, "meta[name=robots]").get_attribute("content")
    check(robots == "noindex, nofollow", robots)
    status, headers, _ = http("GET", context.backend.origin + "/bb-callback?sessionId=cs_x&resultCode=Ok")
    headers = {k.lower(): v for k, v in headers.items()}
    check(status == 200 and headers.get("cache-control") == "no-store"
          and headers.get("referrer-policy") == "no-referrer" and headers.get("x-robots-tag") == "noindex, nofollow"
          and "script-src 'none'" in headers.get("content-security-policy", ""), f"{status} {headers}")


@suite.test("layout: 320 CSS px at 200% text, nothing clipped, the link large and reachable")
def layout(context):
    context.bb_return("Ok")
    size = context.driver.execute_script("return getComputedStyle(document.body).fontSize")
    check(size == "32px", f"text is {size}, not 200%")
    problems = context.driver.execute_script(LAYOUT_PROBLEMS)
    check(problems == [], "; ".join(problems))
    box = context.driver.execute_script(
        "const r = document.querySelector('a.primary').getBoundingClientRect(); return [r.width, r.height, r.bottom]")
    check(box[0] >= 250 and box[1] >= 44, f"the link is {box[0]}x{box[1]} px: not a large target")


@suite.test("axe-core reports no violations")
def axe_audit(context):
    context.privue_return()
    axe = Axe(context.driver)
    axe.inject()
    results = axe.run()
    violations = results["violations"]
    check(violations == [], axe.report(violations))


@suite.test("the link opens the open host's page without query; its link points back at the return host")
def follow_the_link(context):
    context.bb_return("Ok")
    context.driver.find_element(By.CSS_SELECTOR, "a.primary").click()
    context.wait(lambda: urllib.parse.urlsplit(context.driver.current_url).hostname == OPEN_HOST, "the open host")
    url = urllib.parse.urlsplit(context.driver.current_url)
    check(url.query == "" and url.fragment == "" and url.path == "/bb-callback", context.driver.current_url)
    check(context.on_landing(), "the open host did not answer with the landing page")
    check(context.links()[0][0] == f"https://{RETURN_HOST}/bb-callback", context.links())


@suite.test("the backend's log never carries the query of a landing request")
def log_is_clean(context):
    session = context.bb_return("Ok")
    verification = context.privue_return()
    log = context.backend.serve_log_full()
    routes = [json.loads(line).get("route") for line in log.splitlines() if line.startswith("{")]
    check("/bb-callback" in routes and "/kyc/done" in routes, "the landing requests were not logged")
    for leaked in (session, verification, "resultCode", "status=approved", "verification_id"):
        check(leaked not in log, f"the log carries {leaked!r}")


def serve_log_full(self):
    return (Path(self.directory) / "serve.log").read_text()


SandboxBackend.serve_log_full = serve_log_full


def main():
    started = time.monotonic()
    backend = SandboxBackend(REPO)
    front = context = None
    try:
        backend.start()
        front = TLSFront(backend.directory, [RETURN_HOST, OPEN_HOST], backend.port)
        print(f"landing: `baton serve --sandbox --port {backend.port}` behind a TLS front on 127.0.0.1:{front.port} "
              f"for {RETURN_HOST} and {OPEN_HOST}", flush=True)
        context = Context(backend, front)
        suite.run(context)
    finally:
        if context:
            context.close()
        if front:
            front.stop()
        backend.stop()
    print(f"landing: {time.monotonic() - started:.0f} s", flush=True)
    print(f"{suite.passed} passed, {suite.failed} failed", flush=True)
    return 0 if suite.failed == 0 and suite.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
