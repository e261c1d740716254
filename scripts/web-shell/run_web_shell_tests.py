"""Browser tests of the web reference shell: headless Chromium at 320 CSS px and 200% text size.

Runs against the real backend: `baton serve --sandbox` (sandbox_backend.py), which serves the page at /web/, the
catalog pipeline at /v2/* and the provider sandbox with its control API. The interaction cases of
Conformance/renderer-conformance.v1.json are driven through real faults (Chia answers injected with
`POST /_sandbox/faults`, a projection change by switching to a fixture user whose projection no longer offers
sharing, a network error by taking the browser offline); requests are read from Chromium's performance log and the
Chia sandbox's `/_sandbox/state`. Only the decision cases use a fixture: their malformed or patched cards are ones
the real backend can never produce, so DECISION_FIXTURE answers the page's `GET /v2/catalog` inside the browser.
Also the accessibility, network and forbidden-behaviour checks. Prints one line per test and ends with "N passed, N failed".
Screenshots go to artifacts/web-shell/.
"""

import base64
import copy
import json
import os
import sys
import tempfile
import time
import traceback
import urllib.request
from pathlib import Path

import shared_interaction
from axe_selenium_python import Axe
from sandbox_backend import DEFAULT_USER, GERMAN_USER, SUSPENDED_USER, SandboxBackend
from selenium import webdriver
from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

REPO = Path(__file__).resolve().parents[2]
CONFORMANCE = json.loads((REPO / "Conformance/renderer-conformance.v1.json").read_text())
ARTIFACTS = REPO / "artifacts/web-shell"
# The conformance file's projections, as fixture users of the real sandbox backend. `share_v2` (a new disclosure
# version) cannot be published on demand, so it is the same projection as `share`: the case still needs the page to
# discard the key and body and send a fresh request.
PROJECTION_USERS = {"share": DEFAULT_USER, "neutral": DEFAULT_USER, "share_v2": DEFAULT_USER,
                    "share_as_neutral": SUSPENDED_USER, "absent": GERMAN_USER}

# DECISION FIXTURE (decision cases only): answers the page's GET /v2/catalog in the browser with the case's card.
DECISION_FIXTURE = """
const fixtureCatalog = %s;
const realFetch = window.fetch;
window.fetch = function (input, init) {
  const url = new URL(typeof input === 'string' ? input : input.url, location.href);
  if (url.pathname === '/v2/catalog' && (!init || !init.method || init.method === 'GET'))
    return Promise.resolve(new Response(JSON.stringify({items: fixtureCatalog}),
      {status: 200, headers: {'Content-Type': 'application/json', 'Cache-Control': 'no-store'}}));
  return realFetch.apply(this, arguments);
};
"""
LABELS = {"share": "Share selection and continue", "neutral_share": "Continue without sharing",
          "neutral": "Continue to Chia"}

# Installed before any page script: records window.open calls and CSP violations.
INSTRUMENTATION = """
window.__openCalls = [];
const realOpen = window.open;
window.open = function (...args) { window.__openCalls.push(String(args[0])); return null; };
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective));
"""

# Every element whose text or box is cut off, ellipsised, clamped or outside the viewport; and page overflow.
LAYOUT_PROBLEMS = """
const problems = [];
const width = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth > width + 1) problems.push('page scrolls horizontally: ' +
  document.documentElement.scrollWidth + ' > ' + width);
for (const el of document.querySelectorAll('body *')) {
  const style = getComputedStyle(el);
  if (style.display === 'none' || style.visibility === 'hidden' || el.closest('[hidden]')) continue;
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) continue;
  const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  if (rect.left < -0.5 || rect.right > width + 0.5) problems.push('outside the viewport: ' + name);
  if (style.textOverflow === 'ellipsis') problems.push('ellipsis: ' + name);
  if (style.webkitLineClamp && style.webkitLineClamp !== 'none') problems.push('line clamp: ' + name);
  const clips = ['hidden', 'clip', 'scroll', 'auto'];
  if ((clips.includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) ||
      (clips.includes(style.overflowY) && el.scrollHeight > el.clientHeight + 1)) problems.push('clipped: ' + name);
  if (el.children.length === 0 && (el.textContent || '').trim() && el.scrollWidth > el.clientWidth + 1 &&
      style.display !== 'inline') problems.push('text wider than its box: ' + name);
}
return problems;
"""


class Suite:
    def __init__(self):
        self.tests = []
        self.passed = 0
        self.failed = 0

    def test(self, name):
        def register(function):
            self.tests.append((name, function))
            return function
        return register

    def run(self, context):
        only = os.environ.get("WEB_SHELL_ONLY")
        for name, function in self.tests:
            cases = function.cases(context) if hasattr(function, "cases") else [(None, None)]
            for label, case in cases:
                full = name + (f" [{label}]" if label else "")
                if only and only not in full:
                    continue
                try:
                    context.fresh()
                    function(context) if case is None else function(context, case)
                    self.passed += 1
                    print(f"ok   {full}", flush=True)
                except Exception as error:  # noqa: BLE001 - every failure is reported, the run goes on
                    self.failed += 1
                    print(f"FAIL {full}: {str(error).splitlines()[0] if str(error) else type(error).__name__}",
                          flush=True)
                    if os.environ.get("WEB_SHELL_VERBOSE"):
                        traceback.print_exc()
                    context.screenshot("failed-" + full.replace(" ", "_").replace("/", "_")[:80])


suite = Suite()


def cases(generator):
    def attach(function):
        function.cases = generator
        return function
    return attach


def check(condition, message):
    if not condition:
        raise AssertionError(message)


class Context:
    """One Chromium for the whole run, reset between tests; the sandbox backend; the request recorder."""

    def __init__(self, backend):
        self.backend = backend
        self.base = backend.origin
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/lib/chromium/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                         f"--user-data-dir={tempfile.mkdtemp(prefix='web-shell-chromium-')}"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        self.driver.set_script_timeout(30)
        self.cdp("Network.enable", {})
        self.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": INSTRUMENTATION})
        self.events = []
        self.console = []
        self.viewport(320, 2)

    def cdp(self, command, parameters):
        return self.driver.execute_cdp_cmd(command, parameters)

    def viewport(self, width, text_scale):
        self.cdp("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": 640, "deviceScaleFactor": 1, "mobile": True})
        self.cdp("Page.setFontSizes", {"fontSizes": {"standard": int(16 * text_scale), "fixed": int(13 * text_scale)}})

    def close(self):
        self.driver.quit()

    # ----- logs -----

    def poll(self):
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                params = message["params"]
                url = params["request"]["url"] + (params["request"].get("urlFragment") or "")
                headers = {k.lower(): v for k, v in params["request"].get("headers", {}).items()}
                body = params["request"].get("postData")
                self.events.append({"url": url, "method": params["request"]["method"], "type": params.get("type"),
                                    "headers": headers, "body": body.encode() if body is not None else None,
                                    "path": url[len(self.base):].split("?")[0] if url.startswith(self.base) else None,
                                    "time": time.monotonic()})
        for entry in self.driver.get_log("browser"):
            self.console.append(entry.get("message", ""))
        return self.events

    def requests_since(self, mark):
        self.poll()
        return self.events[mark:]

    def mark(self):
        self.poll()
        return len(self.events)

    def navigations(self, mark):
        """Top-level navigations away from the backend's origin (the journey, a neutral page, a hosted flow)."""
        return [e["url"] for e in self.requests_since(mark) if e["type"] == "Document"
                and e["url"].startswith(("http://", "https://")) and not e["url"].startswith(self.base)]

    def api_requests(self, method=None, path=None):
        """The page's requests to the backend's /v2/* and /web/dev-token, from the performance log."""
        self.poll()
        return [e for e in self.events if e["path"] and (e["path"].startswith("/v2/") or e["path"] == "/web/dev-token")
                and (method is None or e["method"] == method) and (path is None or e["path"] == path)]

    # ----- page helpers -----

    def fresh(self):
        self.backend.reset_faults()
        self.cdp("Network.emulateNetworkConditions",
                 {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        self.cdp("Emulation.setEmulatedMedia", {"features": []})
        self.driver.get(self.base + "/web/bb.html")
        self.driver.execute_script("sessionStorage.clear(); localStorage.clear();")
        self.poll()
        self.events = []  # each test reads only its own requests

    def use_user(self, user):
        """The page reads its token from sessionStorage on every request: switching it switches the user."""
        self.driver.execute_script("sessionStorage.setItem('baton.token', arguments[0]);", self.backend.token(user))

    def sign_in(self, page="/web/", user=DEFAULT_USER):
        self.driver.get(self.base + page)
        self.use_user(user)
        self.driver.get(self.base + page)
        if page == "/web/":
            self.wait_for("#catalog[data-state=ready]")

    def wait(self, condition, message, timeout=10):
        try:
            # The page replaces a card's element when it re-renders it, so a probe may see a stale element.
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05, ignored_exceptions=(
                StaleElementReferenceException, NoSuchElementException)).until(lambda _: condition())
        except TimeoutException:
            raise AssertionError("timed out: " + message) from None

    def wait_for(self, selector, timeout=10):
        return self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, selector), selector, timeout)[0]

    def card(self, item_id):
        found = self.driver.find_elements(By.CSS_SELECTOR, f'article[data-card-id="{item_id}"]')
        return found[0] if found else None

    def action_buttons(self, item_id):
        card = self.card(item_id)
        return card.find_elements(By.CSS_SELECTOR, "button[data-action=share], button[data-action=neutral]") \
            if card else []

    def open_disclosure(self, item_id):
        self.card(item_id).find_element(By.CSS_SELECTOR, "button[data-action=cta]").click()
        def shown():
            card = self.card(item_id)  # read once: the refetch may remove the card between two reads
            return card is None or card.get_attribute("data-state") == "disclosure"
        self.wait(shown, "disclosure for " + item_id)

    def screenshot(self, name):
        """The whole page as NAME.png, plus NAME.part-N.png tiles of 1200 CSS px that stay legible when viewed.

        The viewport is made as tall as the page for the capture (captureBeyondViewport would re-render without the
        text-size setting), then put back."""
        try:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            height = int(self.driver.execute_script(
                "return Math.ceil(document.documentElement.getBoundingClientRect().height)"))
            self.cdp("Emulation.setDeviceMetricsOverride",
                     {"width": 320, "height": height, "deviceScaleFactor": 1, "mobile": True})
            tiles = [("", 0, height)] + [(f".part-{n + 1}", y, min(1200, height - y))
                                         for n, y in enumerate(range(0, height, 1200))]
            for suffix, top, size in tiles:
                shot = self.cdp("Page.captureScreenshot", {"format": "png", "clip": {
                    "x": 0, "y": top, "width": 320, "height": size, "scale": 1}})
                (ARTIFACTS / f"{name}{suffix}.png").write_bytes(base64.b64decode(shot["data"]))
        except Exception:  # noqa: BLE001, S110 - a screenshot is evidence, never a reason to fail
            pass
        finally:
            self.cdp("Emulation.setDeviceMetricsOverride",
                     {"width": 320, "height": 640, "deviceScaleFactor": 1, "mobile": True})

    def pending(self):
        return self.driver.execute_script(
            "return Object.keys(sessionStorage).filter(k => k.startsWith('baton.pendingShare.'))"
            ".map(k => JSON.parse(sessionStorage.getItem(k)))")


def real_card(context, name):
    """The real catalog's card standing for the conformance file's `share` or `neutral` card."""
    return context.backend.card({"share": "share_or_neutral", "neutral": "neutral_only"}[name])


def item_id(name, context=None):
    return real_card(context or CURRENT[0], name)["id"]


CURRENT = []  # the running Context, for item_id


def api_summary(entries):
    return [f"{e['method']} {e['path']}" for e in entries if e["path"].startswith("/v2/")]


# ======================= decision cases =======================

@suite.test("decision")
@cases(lambda context: [(case["id"], case) for case in CONFORMANCE["decision"]])
def decision_case(context, case):
    fixtures = CONFORMANCE["fixtures"]["cards"]
    card = apply_patch(fixtures[case["card"]], case["patch"])
    if isinstance(card.get("image"), dict) and isinstance(card["image"].get("url"), str):
        card["image"]["url"] = real_card(context, "share")["image"]["url"]  # a real mirrored image, same origin
    script = context.cdp("Page.addScriptToEvaluateOnNewDocument",
                         {"source": DECISION_FIXTURE % json.dumps([card])})["identifier"]
    try:
        context.sign_in()
    finally:
        context.cdp("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})
    articles = context.driver.find_elements(By.CSS_SELECTOR, "article.card")
    check(len(articles) == (1 if case["expect"]["rendered"] else 0), f"{len(articles)} cards rendered")
    if not case["expect"]["rendered"]:
        return
    shown = [el.get_attribute("data-block") for el in articles[0].find_elements(By.CSS_SELECTOR, "[data-block]")]
    order = card["presentation_contract"]["block_order"]
    check(shown == order, f"blocks {shown} != block_order {order}")
    context.open_disclosure(card["id"])
    labels = [b.text for b in context.action_buttons(card["id"])]
    check(labels == case["expect"]["actions"], f"actions {labels}")
    check(not context.driver.find_elements(By.CSS_SELECTOR, "[data-action=share]")
          or card["handoff"]["mode"] == "share_or_neutral", "a session-creation action for neutral_only")


# ======================= interaction cases =======================

def apply_patch(document, operations):
    document = copy.deepcopy(document)
    for operation in operations:
        keys = operation["path"].split("/")[1:]
        target = document
        for key in keys[:-1]:
            target = target[key]
        if operation["op"] == "remove":
            target.pop(keys[-1], None)
        else:
            target[keys[-1]] = copy.deepcopy(operation["value"])
    return document


def arrange(context, step):
    """Makes the real backend answer the step's `respond` and serve its `projection`. Returns what was done."""
    context.backend.reset_faults()  # whatever the last step left unfired
    projection = step.get("projection")
    respond = step.get("respond") or {}
    status = respond.get("status")
    if projection == "share_as_neutral" and status == 409:
        # The real 409 projection_changed: the backend's own check at share time, Chia is never called.
        context.use_user(SUSPENDED_USER)
        return "user"
    if projection:
        context.use_user(PROJECTION_USERS[projection])
    if respond.get("transport"):
        context.cdp("Network.emulateNetworkConditions",
                    {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        return "offline"
    if status is not None and status >= 300:
        rule = {"fault": "status", "status": status}
        if status == 429 or status >= 500:
            # The backend retries Chia itself (same key) before answering: fail every attempt it makes, so the
            # uncertain answer reaches the page. The rest is cleared before the next step.
            rule["count"] = 10
        if respond.get("retryAfter") and int(respond["retryAfter"]) > 0:
            rule["retryAfterSeconds"] = int(respond["retryAfter"])
        context.backend.fault(**rule)
        return "fault"
    if respond.get("delayMs"):
        context.backend.fault(fault="latency", latencyMs=respond["delayMs"])
        return "latency"
    return None


def perform(context, step, item):
    event = step["event"]
    if event == "tap_cta":
        context.open_disclosure(item)
        return
    if event == "restore":
        context.driver.back()
        context.wait_for("#catalog[data-state=ready]")
        return
    selector = {"tap_share": "[data-action=share]", "tap_without_sharing": "[data-action=neutral]",
                "tap_neutral": "[data-action=neutral]"}[event]
    button = context.card(item).find_element(By.CSS_SELECTOR, selector)
    chain = ActionChains(context.driver)
    for _ in range(step.get("taps", 1)):
        chain.click(button)
    chain.perform()


@suite.test("interaction")
@cases(lambda context: [(case["id"], case) for case in CONFORMANCE["interaction"]])
def interaction_case(context, case):
    context.sign_in()
    sessions_before = len(context.backend.handoff_sessions())
    chia_before = max([r["sequence"] for r in context.backend.provider_requests(context.backend.chia)], default=0)
    journeys = []          # (navigated URL, Idempotency-Key of the POST that returned it)
    previous_post = None
    name = case.get("card", "share")
    item = item_id(name, context)
    neutral_card = real_card(context, name)
    for number, step in enumerate(case["steps"], 1):
        where = f"step {number} ({step['event']})"
        expect = step["expect"]
        api_mark = len(context.api_requests())
        nav_mark = context.mark()
        arranged = arrange(context, step)
        perform(context, step, item)
        wanted = expect.get("navigations", [])
        if wanted:
            context.wait(lambda nav_mark=nav_mark, wanted=wanted: len(context.navigations(nav_mark)) >= len(wanted),
                         where + " navigation")
        elif step["event"] != "restore" and expect.get("actions"):
            context.wait(lambda api_mark=api_mark, expect=expect: context.action_buttons(item) and all(
                             b.is_enabled() for b in context.action_buttons(item)) and
                         len(context.api_requests()) - api_mark >= len(expect["requests"]),
                         where + " actions back")
        time.sleep(0.3)  # a short quiet period, so a stray extra request would be seen
        if arranged == "offline":
            context.cdp("Network.emulateNetworkConditions",
                        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        made = context.api_requests()[api_mark:]
        check(api_summary(made) == expect["requests"], f"{where}: requests {api_summary(made)}")
        navigations = context.navigations(nav_mark)
        check(len(navigations) == len(wanted), f"{where}: navigations {navigations}")
        posts = [e for e in made if e["path"] == "/v2/handoff-sessions"]
        for kind, url in zip(wanted, navigations):
            if kind == "journey":
                check(url.startswith(context.backend.chia + "/h/phs_"), f"{where}: navigated to {url}")
                journeys.append((url, posts[-1]["headers"].get("idempotency-key")))
            else:
                handoff = neutral_card["handoff"]
                neutral = handoff["url"] if handoff["mode"] == "neutral_only" else handoff["secondary"]["url"]
                check(url == neutral, f"{where}: neutral navigation went to {url}, not {neutral}")
        if "shareRequest" in expect:
            post = posts[0]
            key, body = post["headers"].get("idempotency-key"), post["body"]
            check(key and body, f"{where}: the POST has no key or body in the performance log")
            kept = previous_post is not None and key == previous_post[0] and body == previous_post[1]
            if expect["shareRequest"]["key"] == "kept":
                check(kept, f"{where}: the retry did not reuse the exact body and key")
            else:
                # A fresh request: a new key, and a body built again (the sandbox publishes one disclosure version,
                # so a new body may differ from the old one only in affirmedAt).
                check(previous_post is None or key != previous_post[0], f"{where}: a fresh request reused the key")
            previous_post = (key, body)
        following = case["steps"][number] if number < len(case["steps"]) else None
        if navigations and following and following["event"] == "restore":
            continue  # the next step is the return itself
        if navigations:
            context.driver.back()
            context.wait_for("#catalog[data-state=ready]")
        pending = context.pending()
        if expect.get("pending") == "none":
            check(pending == [], f"{where}: a share request is still kept: {pending}")
        elif expect.get("pending") == "kept":
            check(len(pending) == 1 and pending[0]["key"] == previous_post[0]
                  and pending[0]["body"].encode() == previous_post[1], f"{where}: body and key not kept")
        if "actions" in expect and not navigations and step["event"] != "restore":
            labels = [b.text for b in context.action_buttons(item)]
            check(labels == expect["actions"], f"{where}: actions {labels}")
            if expect.get("actionsEnabled"):
                check(all(b.is_enabled() for b in context.action_buttons(item)), f"{where}: actions disabled")
    # One journey per share, and exactly one Chia handoff session for it, created with the key the page sent.
    sessions = context.backend.handoff_sessions()[sessions_before:]
    check(len(sessions) == len(journeys), f"{len(sessions)} Chia handoff sessions for {len(journeys)} journeys")
    check([s["idempotencyKey"] for s in sessions] == [context.backend.provider_key(key) for _, key in journeys],
          "the Chia sessions were not created with the keys derived from the ones the page sent")
    # Every call the backend made to Chia (its own retries included) forwarded a key the page sent.
    page_keys = {context.backend.provider_key(e["headers"].get("idempotency-key"))
                 for e in context.api_requests("POST", "/v2/handoff-sessions")}
    forwarded = {r["idempotencyKey"] for r in context.backend.provider_requests(context.backend.chia)
                 if r["sequence"] > chia_before and r["route"] == "/v2/handoff-sessions"}
    check(forwarded <= page_keys, f"Chia saw keys the page never sent: {forwarded - page_keys}")


@suite.test("interaction.v1 (the Swift machine's vectors)")
@cases(lambda context: shared_interaction.cases(REPO))
def shared_interaction_case(context, case):
    context.sign_in()
    card = real_card(context, "share")
    shared_interaction.run(context, case, item=card["id"], neutral_url=card["handoff"]["secondary"]["url"],
                           journey_prefix=context.backend.chia + "/h/phs_", arrange=arrange, check=check)


@suite.test("a 401 on share keeps the body and key; signed in again, the share resends exactly them")
def share_401_keeps_the_request(context):
    context.sign_in()
    card = real_card(context, "share")
    context.open_disclosure(card["id"])
    context.driver.execute_script("sessionStorage.setItem('baton.token', 'not-a-valid-token');")  # the sign-in lapsed
    context.card(card["id"]).find_element(By.CSS_SELECTOR, "[data-action=share]").click()
    context.wait(lambda: context.driver.find_element(By.ID, "sign-in").is_displayed(), "the sign-in panel")
    first = context.api_requests("POST", "/v2/handoff-sessions")
    check(len(first) == 1, f"{len(first)} POSTs before signing in again")
    key, body = first[0]["headers"].get("idempotency-key"), first[0]["body"]
    pending = context.pending()
    check(len(pending) == 1 and pending[0]["key"] == key and pending[0]["body"].encode() == body,
          f"body and key not kept after the 401: {pending}")
    mark = context.mark()
    context.sign_in()
    context.open_disclosure(card["id"])
    context.card(card["id"]).find_element(By.CSS_SELECTOR, "[data-action=share]").click()
    context.wait(lambda: context.navigations(mark), "the journey")
    check(context.navigations(mark)[0].startswith(context.backend.chia + "/h/phs_"), "not the journey")
    posts = context.api_requests("POST", "/v2/handoff-sessions")
    check(len(posts) == 2 and posts[1]["headers"].get("idempotency-key") == key and posts[1]["body"] == body,
          "the share after signing in again did not resend the same key and body")


# ======================= layout at 320 px / 200% =======================

@suite.test("layout: 320 CSS px at 200% text, nothing clipped or truncated, every action reachable")
@cases(lambda context: [(s, s) for s in ["catalog", "disclosure-share", "disclosure-neutral", "privue", "bb"]])
def layout(context, state):
    page = {"privue": "/web/privue.html", "bb": "/web/bb.html"}.get(state, "/web/")
    context.sign_in(page)
    size = context.driver.execute_script("return getComputedStyle(document.body).fontSize")
    check(size == "32px", f"text size emulation not applied (body font-size {size})")
    width = context.driver.execute_script("return document.documentElement.clientWidth")
    check(width == 320, f"viewport is {width} px")
    if state.startswith("disclosure"):
        context.open_disclosure(item_id(state.split("-")[1]))
    else:
        context.wait_for("main")
    problems = context.driver.execute_script(LAYOUT_PROBLEMS)
    context.screenshot(f"{state}-320px-200pct")
    check(problems == [], "; ".join(problems[:5]))
    for button in context.driver.find_elements(By.CSS_SELECTOR, "main button, main a"):
        if not button.is_displayed():
            continue
        context.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        on_top = context.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect();"
            "const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
            "return hit === arguments[0] || arguments[0].contains(hit);", button)
        check(on_top, f"action {button.text!r} is covered or off screen")
    if state == "catalog":
        for name in ["share", "neutral"]:
            card = real_card(context, name)
            text = context.card(card["id"]).text
            for field in [card["title"], card["summary"], card["priceText"]]:
                check(" ".join(field.split()) in " ".join(text.split()), f"missing copy: {field[:30]}")
    if state == "disclosure-share":
        handoff = real_card(context, "share")["handoff"]
        text = " ".join(context.card(item_id("share")).text.split())
        for field in [handoff["heading"], handoff["body"], handoff["recipient"]["legal_name"],
                      handoff["recipient"]["privacy_contact"], handoff["purpose"],
                      handoff.get("compensationDisclosure"), *handoff["dataShared"]]:
            if not field:
                continue
            field = " ".join(field.split())
            check(field in text, f"missing copy: {field[:30]}")


# ======================= reading order =======================

def ax_order(context):
    tree = context.cdp("Accessibility.getFullAXTree", {})["nodes"]
    nodes = {node["nodeId"]: node for node in tree}
    root = next(node for node in tree if not node.get("parentId"))
    order = []

    def walk(node):
        if not node.get("ignored"):
            role = node.get("role", {}).get("value")
            name = (node.get("name") or {}).get("value", "")
            if role in ("image", "heading", "StaticText", "button", "link") and name:
                order.append((role, name))
        for child in node.get("childIds", []):
            if child in nodes:
                walk(nodes[child])
    walk(root)
    return order


@suite.test("reading order: block order, then disclosure, then actions (DOM and accessibility tree)")
def reading_order(context):
    context.sign_in()
    card = real_card(context, "share")
    context.open_disclosure(card["id"])
    handoff = card["handoff"]
    block_text = {"image": card["image"]["alt"], "title": card["title"], "summary": card["summary"],
                  "price": card["priceText"]}
    expected = [block_text[b] for b in card["presentation_contract"]["block_order"]] + [
        handoff["heading"], handoff["body"], handoff["recipient"]["legal_name"], handoff["dataShared"][0],
        handoff["purpose"], handoff["compensationDisclosure"], "Privacy", LABELS["share"], LABELS["neutral_share"]]
    dom = context.driver.execute_script(
        "const out = []; const walker = document.createTreeWalker(arguments[0], NodeFilter.SHOW_ELEMENT |"
        " NodeFilter.SHOW_TEXT); while (walker.nextNode()) { const n = walker.currentNode;"
        " if (n.nodeType === 3 && n.textContent.trim()) out.push(n.textContent.trim());"
        " if (n.nodeName === 'IMG') out.push(n.alt); } return out;", context.card(card["id"]))

    def positions(sequence, label):
        found = []
        for text in expected:
            index = next((i for i, item in enumerate(sequence) if text == item), None)
            if index is None:
                index = next((i for i, item in enumerate(sequence) if text in item), None)
            check(index is not None, f"{label}: {text[:30]!r} missing")
            found.append(index)
        check(found == sorted(found), f"{label} order wrong: {found}")
    positions(dom, "DOM")
    ax = [name for _, name in ax_order(context)]
    positions(ax, "accessibility tree")
    focused = context.driver.execute_script("return document.activeElement.textContent")
    check(focused == handoff["heading"], "focus did not move to the disclosure heading")


# ======================= keyboard =======================

def tab_until(context, predicate, limit=40, shift=False):
    for _ in range(limit):
        chain = ActionChains(context.driver)
        (chain.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT) if shift else chain.send_keys(Keys.TAB))
        chain.perform()
        active = context.driver.switch_to.active_element
        if predicate(active):
            return active
    raise AssertionError("not reachable by Tab")


@suite.test("keyboard only: CTA, policy links and both actions reachable; Enter shares, Space continues")
def keyboard_only(context):
    context.sign_in()
    share_id = item_id("share")
    cta = tab_until(context, lambda el: el.get_attribute("data-action") == "cta"
                    and el.find_element(By.XPATH, "./ancestor::article").get_attribute("data-card-id") == share_id)
    cta.send_keys(Keys.ENTER)
    context.wait(lambda: context.card(share_id).get_attribute("data-state") == "disclosure", "disclosure")
    context.wait(lambda: context.driver.switch_to.active_element.tag_name == "h3", "focus on the heading")
    reached = []
    tab_until(context, lambda el: reached.append(el.text or el.get_attribute("data-action")) or
              el.get_attribute("data-action") == "neutral")
    check("Privacy" in reached and "Terms" in reached, f"policy links not reached: {reached}")
    check(reached.index(LABELS["share"]) < reached.index(LABELS["neutral_share"]), "actions out of order")
    mark = context.mark()
    context.driver.switch_to.active_element.send_keys(Keys.SPACE)
    context.wait(lambda: context.navigations(mark), "Space on Continue without sharing")
    check(context.navigations(mark) == [real_card(context, "share")["handoff"]["secondary"]["url"]],
          "Space did not open the neutral URL")
    context.driver.back()
    context.wait_for("#catalog[data-state=ready]")
    tab_until(context, lambda el: el.get_attribute("data-action") == "cta").send_keys(Keys.ENTER)
    context.wait(lambda: context.card(share_id).get_attribute("data-state") == "disclosure", "disclosure")
    share = tab_until(context, lambda el: el.get_attribute("data-action") == "share")
    mark = context.mark()
    share.send_keys(Keys.ENTER)
    context.wait(lambda: context.navigations(mark), "Enter on Share")
    check(len(context.api_requests("POST", "/v2/handoff-sessions")) == 1, "not exactly one POST")


# ======================= reduced motion =======================

MOTION = """
const moving = [];
for (const el of document.querySelectorAll('*')) {
  for (const pseudo of [null, '::before', '::after']) {
    const s = getComputedStyle(el, pseudo);
    const durations = (s.transitionDuration + ',' + s.animationDuration).split(',').map(parseFloat);
    if (s.animationName !== 'none' || durations.some(d => d > 0))
      moving.push(el.tagName + (pseudo || '') + ' ' + s.animationName + ' ' + s.transitionDuration);
  }
}
return moving;
"""


@suite.test("prefers-reduced-motion removes every transition and animation")
def reduced_motion(context):
    context.sign_in()
    context.open_disclosure(item_id("share"))
    busy = "document.querySelector('[data-action=share]').setAttribute('aria-busy', 'true')"
    context.driver.execute_script(busy)
    check(context.driver.execute_script(MOTION), "control: the page has no motion to remove")
    context.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    moving = context.driver.execute_script(MOTION)
    check(moving == [], f"still moving: {moving[:3]}")


# ======================= equal access =======================

@suite.test("share_or_neutral's two actions have equal access")
def equal_access(context):
    context.sign_in()
    context.open_disclosure(item_id("share"))
    styles = context.driver.execute_script(
        "return Array.from(arguments[0].querySelectorAll('[data-action=share], [data-action=neutral]')).map(b => {"
        " const s = getComputedStyle(b), r = b.getBoundingClientRect();"
        " return [b.tagName, b.disabled, Math.round(r.width), s.fontSize, s.fontWeight, s.color,"
        " s.backgroundColor, s.borderColor, s.padding]; })", context.card(item_id("share")))
    check(len(styles) == 2 and styles[0] == styles[1], f"actions differ: {styles}")


# ======================= axe =======================

@suite.test("axe-core reports no violations")
@cases(lambda context: [(s, s) for s in ["catalog", "disclosure-share", "disclosure-neutral", "sign-in",
                                          "privue", "bb"]])
def axe_audit(context, state):
    page = {"privue": "/web/privue.html", "bb": "/web/bb.html"}.get(state, "/web/")
    if state == "sign-in":
        context.driver.get(context.base + page)
        context.wait_for("#sign-in:not([hidden])")
    else:
        context.sign_in(page)
    if state.startswith("disclosure"):
        context.open_disclosure(item_id(state.split("-")[1]))
    axe = Axe(context.driver)
    axe.inject()
    results = axe.run()
    violations = results["violations"]
    check(violations == [], axe.report(violations))


# ======================= network =======================

@suite.test("network: nothing to a provider before a tap, nothing at all between render and tap")
def network_quiet(context):
    mark = context.mark()
    context.sign_in()
    before = context.requests_since(mark)
    check(all(e["url"].startswith(context.base) for e in before if not e["url"].startswith("data:")),
          f"off-origin request before a tap: {[e['url'] for e in before if not e['url'].startswith(context.base)]}")
    rendered = context.mark()
    cta = context.card(item_id("share")).find_element(By.CSS_SELECTOR, "[data-action=cta]")
    ActionChains(context.driver).move_to_element(cta).perform()
    context.driver.execute_script("arguments[0].focus()", cta)
    for link in context.driver.find_elements(By.CSS_SELECTOR, "a"):
        ActionChains(context.driver).move_to_element(link).perform()
    time.sleep(1.0)  # the quiet period being measured
    between = context.requests_since(rendered)
    check(between == [], f"requests between render and tap: {[e['url'] for e in between]}")
    context.open_disclosure(item_id("share"))
    time.sleep(0.5)
    after_cta = context.requests_since(rendered)
    check([e["url"] for e in after_cta] == [context.base + "/v2/catalog"],
          f"the CTA caused {[e['url'] for e in after_cta]} (only the projection refetch is allowed)")
    for link in context.card(item_id("share")).find_elements(By.CSS_SELECTOR, "a"):
        ActionChains(context.driver).move_to_element(link).perform()
    time.sleep(0.5)
    check(context.requests_since(rendered)[1:] == [], "hovering the disclosure fetched something")


# ======================= forbidden behaviour =======================

@suite.test("forbidden: no resource hints, no frames, no window.open, no inline script, no CSP violation")
def forbidden_static(context):
    context.sign_in()
    context.open_disclosure(item_id("share"))
    found = context.driver.execute_script(
        "return {hints: Array.from(document.querySelectorAll('link')).filter(l => /prefetch|preconnect|preload|"
        "prerender|modulepreload/i.test(l.rel)).map(l => l.outerHTML),"
        " speculation: document.querySelectorAll('script[type=speculationrules]').length,"
        " frames: document.querySelectorAll('iframe, frame, object, embed, portal, webview').length,"
        " inline: Array.from(document.scripts).filter(s => !s.src).length,"
        " styles: document.querySelectorAll('[style], style').length,"
        " blank: document.querySelectorAll('[target]').length,"
        " open: window.__openCalls, csp: window.__cspViolations}")
    for name in ["speculation", "frames", "inline", "styles", "blank"]:
        check(found[name] == 0, f"{name}: {found[name]}")
    check(found["hints"] == [] and found["open"] == [] and found["csp"] == [], str(found))
    with urllib.request.urlopen(context.base + "/web/shell.js", timeout=10) as response:
        source = response.read().decode()  # what the backend serves (compiled into the binary)
    for forbidden in ["window.open", "localStorage", "document.cookie", "console.", "pushState", "replaceState",
                      "innerHTML", "iframe", "navigator.sendBeacon", "indexedDB", "eval("]:
        check(forbidden not in source, f"shell.js uses {forbidden}")


@suite.test("forbidden: the journey URL is opened unchanged and never stored, logged or put in history")
def journey_url_not_kept(context):
    context.sign_in()
    context.open_disclosure(item_id("share"))
    mark = context.mark()
    context.card(item_id("share")).find_element(By.CSS_SELECTOR, "[data-action=share]").click()
    context.wait(lambda: context.navigations(mark), "navigation")
    url = context.navigations(mark)[0]
    check(url.startswith(context.backend.chia + "/h/phs_"), f"the navigation went to {url}, not a Chia journey")
    context.driver.back()
    context.wait_for("#catalog[data-state=ready]")
    state = context.driver.execute_script(
        "return {local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage),"
        " cookie: document.cookie, history: JSON.stringify(history.state), open: window.__openCalls}")
    databases = context.driver.execute_async_script(
        "const done = arguments[0]; indexedDB.databases().then(d => done(d.length))")
    cookies = json.dumps(context.driver.get_cookies())
    context.poll()
    for place, value in [*state.items(), ("cookies", cookies), ("console", "\n".join(context.console))]:
        check(url not in str(value) and "phs_" not in str(value), f"the journey URL is in {place}")
    check(databases == 0, "IndexedDB used")
    check(state["open"] == [], "window.open was called")


@suite.test("forbidden: after return only the projection is fetched (no status call, nothing inferred)")
def no_status_after_return(context):
    context.sign_in()
    context.open_disclosure(item_id("share"))
    mark = context.mark()
    context.card(item_id("share")).find_element(By.CSS_SELECTOR, "[data-action=share]").click()
    context.wait(lambda: context.navigations(mark), "navigation")
    api_mark = len(context.api_requests())
    context.driver.back()
    context.wait_for("#catalog[data-state=ready]")
    time.sleep(0.3)
    check(api_summary(context.api_requests()[api_mark:]) == ["GET /v2/catalog"], "unexpected requests")
    status = context.driver.find_element(By.ID, "status").text
    check(status == "", f"the page shows an outcome after return: {status!r}")


# ======================= Privue and BB =======================

@suite.test("sign-in: the sandbox dev sign-in and a pasted token both reach the catalog")
def sign_in_forms(context):
    context.driver.get(context.base + "/web/")
    context.wait_for("#sign-in:not([hidden])")
    field = context.driver.find_element(By.ID, "dev-user")
    field.clear()
    field.send_keys("user-7")
    # A wrong secret is refused and says so; the run's secret signs in.
    context.driver.find_element(By.ID, "dev-secret").send_keys("not-the-secret")
    context.driver.find_element(By.CSS_SELECTOR, "#dev-sign-in button").click()
    context.wait_for("#sign-in:not([hidden])")
    context.wait(lambda: "secret" in context.driver.find_element(By.ID, "status").text, "no refusal shown")
    check(not context.driver.execute_script("return sessionStorage.getItem('baton.token')"),
          "a wrong secret signed in")
    secret_field = context.driver.find_element(By.ID, "dev-secret")
    secret_field.clear()
    secret_field.send_keys(context.backend.dev_sign_in_secret())
    context.driver.find_element(By.CSS_SELECTOR, "#dev-sign-in button").click()
    context.wait_for("#catalog[data-state=ready]")
    check(context.api_requests("POST", "/web/dev-token"), "the dev sign-in did not ask the backend for a token")
    dev_token = context.driver.execute_script("return sessionStorage.getItem('baton.token')")
    check(dev_token and context.api_requests("GET", "/v2/catalog")[-1]["headers"]["authorization"]
          == "Bearer " + dev_token, "the dev token was not used")
    context.driver.execute_script("sessionStorage.clear()")
    context.driver.get(context.base + "/web/")
    context.wait_for("#sign-in:not([hidden])")
    pasted = context.backend.token("user-pasted")
    context.driver.find_element(By.ID, "token-input").send_keys(pasted)
    context.driver.find_element(By.CSS_SELECTOR, "#token-sign-in button").click()
    context.wait_for("#catalog[data-state=ready]")
    check(context.api_requests("GET", "/v2/catalog")[-1]["headers"]["authorization"]
          == "Bearer " + pasted, "the pasted token was not used")


@suite.test("Privue: start opens the handoff unchanged (fragment included); the result comes from the backend")
def privue_flow(context):
    context.sign_in("/web/privue.html")
    context.wait_for("#flow:not([hidden])")
    mark = context.mark()
    context.driver.find_element(By.ID, "start").click()
    context.wait(lambda: context.navigations(mark), "navigation")
    url = context.navigations(mark)[0]
    check(url.startswith(context.backend.privue + "/"), f"navigated to {url}, not the Privue handoff")
    check("#ticket=" in url, "the handoff URL was not opened with its fragment")
    context.screenshot("privue-after-start-error-page")
    context.driver.get(context.base + "/web/privue.html?verification_id=ver_x&status=approved")
    context.wait(lambda: context.driver.find_element(By.ID, "result").get_attribute("data-status"), "result")
    result = context.driver.find_element(By.ID, "result")
    check(result.get_attribute("data-status") in ("pending", "in_progress"),
          "the return link's status was shown as the outcome")
    verification = context.backend.state(context.backend.privue)["verifications"][-1]["id"]
    context.backend.complete(context.backend.privue, verification, {"status": "approved"})
    context.driver.find_element(By.ID, "refresh").click()
    context.wait(lambda: result.get_attribute("data-status") == "approved", "refreshed result")
    check(result.text == "Your identity is verified.", result.text)
    state = context.driver.execute_script("return JSON.stringify(sessionStorage) + JSON.stringify(localStorage)")
    check("ticket=" not in state, "the handoff URL was stored")
    context.screenshot("privue-result-320px-200pct")


@suite.test("BB: start opens hostedUrl; a crafted return is ignored and the backend's status is shown")
def bb_flow(context):
    context.sign_in("/web/bb.html")
    context.wait_for("#flow:not([hidden])")
    mark = context.mark()
    context.driver.find_element(By.ID, "start").click()
    context.wait(lambda: context.navigations(mark), "navigation")
    session = context.backend.state(context.backend.bb)["connectSessions"][-1]["sessionId"]
    check(context.navigations(mark) == [f"{context.backend.bb}/connect/{session}"],
          f"wrong navigation {context.navigations(mark)}")
    context.driver.get(context.base + "/web/bb.html?sessionId=cs_someone_else&resultCode=Ok&connectionId=c1")
    result = context.driver.find_element(By.ID, "result")
    context.wait(lambda: result.get_attribute("data-status"), "result")
    check(result.get_attribute("data-status") == "pending", "the return link was treated as the outcome")
    asked = [e["path"] for e in context.api_requests("GET")]
    check(asked[-1] == f"/v2/connect-sessions/{session}", f"asked about {asked[-1]}")
    check(all("cs_someone_else" not in p for p in asked), "the crafted sessionId was used")
    context.backend.complete(context.backend.bb, session, {"resultCode": "Ok"})
    context.driver.find_element(By.ID, "refresh").click()
    context.wait(lambda: result.get_attribute("data-status") == "ok", "refreshed result")
    context.screenshot("bb-result-320px-200pct")


def main():
    started = time.monotonic()
    backend = SandboxBackend(REPO)
    context = None
    try:
        backend.start()
        print(f"web-shell: real backend `baton serve --sandbox --port {backend.port}` ({backend.origin}); "
              "fixture only for the decision cases (DECISION_FIXTURE)", flush=True)
        context = Context(backend)
        CURRENT.append(context)
        suite.run(context)
    finally:
        if context:
            context.close()
        backend.stop()
    print(f"web-shell: {time.monotonic() - started:.0f} s", flush=True)
    print(f"{suite.passed} passed, {suite.failed} failed", flush=True)
    return 0 if suite.failed == 0 and suite.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
