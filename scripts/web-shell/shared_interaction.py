"""Cases of Conformance/interaction.v1.json that the web shell runs too, so Swift's ChiaHandoffMachine and shell.js are
held to the same vectors (among them: both actions stay usable during a Retry-After wait).

Each vector event becomes a browser action on the real backend: `cta` opens the disclosure, `share_tap` and
`continue_tap` click the buttons, a POST's answer is the next `share_response` step (arranged as a Chia fault before
the tap), `share_response` and `tick` wait for what the vector says must follow. Renders are checked as which buttons
are enabled; requests as the page's POST /v2/handoff-sessions (count, and the Idempotency-Key and body kept exactly
when the vector repeats a key). The page acts on an answer as soon as it arrives, so navigations are counted from the
start of the case; a navigation ends the page, and the run stops there after checking where it went.
"""

import json
import time

from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By

SHARED_CASES = [
    "chia-a-share-tap-during-a-retry-after-wait-joins-the-pending-retry",
    "chia-continue-without-sharing-stays-usable-throughout-a-retry-after-wait",
]
SELECTORS = {"share": "[data-action=share]", "continue": "[data-action=neutral]"}
POST = "POST /v2/handoff-sessions"


def cases(repo):
    vectors = json.loads((repo / "Conformance/interaction.v1.json").read_text())
    found = [(case["id"], case) for case in vectors["cases"] if case["id"] in SHARED_CASES]
    if len(found) != len(SHARED_CASES):
        raise RuntimeError("a shared interaction case is missing from Conformance/interaction.v1.json")
    return found


def enabled(context, item):
    card = context.card(item)
    if card is None:
        return None
    return [name for name, selector in SELECTORS.items()
            if any(b.is_enabled() for b in card.find_elements(By.CSS_SELECTOR, selector))]


def click(context, item, name):
    try:
        context.card(item).find_element(By.CSS_SELECTOR, SELECTORS[name]).click()
    except (AttributeError, NoSuchElementException, StaleElementReferenceException):
        pass  # the card is gone (the page navigated): the tap cannot happen, which is what the vector expects


def run(context, case, *, item, neutral_url, journey_prefix, arrange, check):
    posts = lambda: context.api_requests("POST", "/v2/handoff-sessions")
    keys = {}  # vector Idempotency-Key -> (the key the page sent, the body it sent)
    steps = case["steps"]
    case_mark = context.mark()  # navigations are counted from here: one may land while a later step is prepared
    navigated = 0
    for number, step in enumerate(steps, 1):
        event, expect = step["event"], step["expect"]
        where = f"step {number} ({event['type']})"
        before = len(posts())
        wanted_posts = [e for e in expect if e.get("request") == POST]
        if wanted_posts:
            answer = next((s["event"] for s in steps[number:] if s["event"]["type"] == "share_response"), None)
            respond = {k: v for k, v in (answer or {}).items() if k in ("status", "retryAfter", "transport")}
            arrange(context, {"respond": respond})
        kind = event["type"]
        if kind == "cta":
            context.open_disclosure(item)
        elif kind == "share_tap":
            click(context, item, "share")
        elif kind == "continue_tap":
            click(context, item, "continue")
        elif kind == "share_response" and event.get("status", 201) >= 300:
            # The page says so when the answer arrives (the backend may first retry Chia itself for a while).
            status = context.driver.find_element(By.ID, "status")
            context.wait(lambda status=status: status.text.strip(), where + " answer shown", timeout=60)
        elif kind not in ("projection", "share_response", "tick"):
            raise AssertionError(f"{where}: no browser mapping for {kind}")
        # What must follow: a navigation, the POSTs, then the rendered state (within 3 s of the answer: a Retry-After
        # of 10 s must not be what brings the actions back).
        navigations = [e for e in expect if "navigate" in e]
        if navigations:
            context.wait(lambda navigated=navigated: len(context.navigations(case_mark)) > navigated, where + " navigation",
                         timeout=20)
            url = context.navigations(case_mark)[navigated]
            target = navigations[0]["url"]
            if "/h/phs_" in target:
                check(url.startswith(journey_prefix), f"{where}: navigated to {url}, not the journey")
            else:
                check(url == neutral_url, f"{where}: navigated to {url}, not the neutral URL")
            navigated += 1
        if wanted_posts:
            context.wait(lambda before=before, wanted_posts=wanted_posts: len(posts()) >= before + len(wanted_posts),
                         where + " POST", timeout=20)
        else:
            time.sleep(0.5)  # a quiet period, so a request the vector does not allow would be seen
        made = posts()[before:]
        check(len(made) == len(wanted_posts), f"{where}: {len(made)} POSTs, the vector says {len(wanted_posts)}")
        for sent, wanted in zip(made, wanted_posts):
            pair = (sent["headers"].get("idempotency-key"), sent["body"])
            kept = keys.setdefault(wanted["idempotencyKey"], pair)
            check(pair == kept, f"{where}: the POST did not resend the kept key and body")
        if navigations:
            return  # the page has left; nothing after this can be tapped
        renders = [e for e in expect if "render" in e and e["render"] != "loading"]  # loading is transient here
        if renders:
            want = sorted(renders[-1]["enabled"])
            context.wait(lambda want=want: sorted(enabled(context, item) or []) == want,
                         f"{where}: enabled {want}, shown {enabled(context, item)}", timeout=3)
