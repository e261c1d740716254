// Baton web reference shell: the catalog (Chia), Privue verification and BB connect pages.
// Rules it keeps (seed 000 tap sequence, CONTRACTS.md §2): it talks only to its own partner backend; it never
// preloads, probes or frames a provider; a journey URL lives only in a local variable between the response that
// returned it and the top-level navigation, and is never stored, logged or put in history state.
"use strict";

(() => {
  const TOKEN_KEY = "baton.token";
  const PENDING_SHARE_PREFIX = "baton.pendingShare.";
  const PRIVUE_WORKFLOW_KEY = "baton.privue.workflow";
  const BB_SESSION_KEY = "baton.bb.sessionId";
  const SESSION_CREATION_PATH = "/v2/handoff-sessions";
  const LABELS = Object.freeze({
    neutral: "Continue to Chia",
    share: "Share selection and continue",
    withoutSharing: "Continue without sharing",
  });
  const BLOCKS = ["image", "title", "summary", "price"];

  // ---------- small DOM helpers: text nodes only, never markup strings ----------

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
    for (const child of children) node.append(child);
    return node;
  }

  function say(text) {
    const status = document.getElementById("status");
    status.textContent = text;
  }

  // ---------- validation: the closed MobileHandoff union, checked as strictly as BatonCore decodes it ----------

  const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  const nonEmpty = (value) => typeof value === "string" && value.length > 0;
  const hasExactly = (object, keys) =>
    isObject(object) && Object.keys(object).length === keys.length && keys.every((key) => key in object);
  const isLoopback = (host) => host === "127.0.0.1" || host === "localhost" || host === "[::1]";

  // An absolute https URL without userinfo; loopback http only while the page itself is on loopback http (sandbox).
  function acceptableURL(text) {
    if (typeof text !== "string") return false;
    let url;
    try {
      url = new URL(text);
    } catch {
      return false;
    }
    if (url.username || url.password || !url.hostname) return false;
    if (url.protocol === "https:") return true;
    return url.protocol === "http:" && location.protocol === "http:" && isLoopback(location.hostname) &&
      isLoopback(url.hostname);
  }

  function validHandoff(handoff) {
    if (!isObject(handoff)) return false;
    if (handoff.mode === "neutral_only") {
      return hasExactly(handoff, ["mode", "heading", "body", "actionLabel", "url"]) && nonEmpty(handoff.heading) &&
        nonEmpty(handoff.body) && handoff.actionLabel === LABELS.neutral && acceptableURL(handoff.url);
    }
    if (handoff.mode !== "share_or_neutral") return false;
    const keys = ["mode", "heading", "body", "recipient", "dataShared", "purpose", "compensationDisclosure",
      "policyUrls", "primary", "secondary"];
    const { recipient, dataShared, policyUrls, primary, secondary } = handoff;
    return hasExactly(handoff, keys) && nonEmpty(handoff.heading) && nonEmpty(handoff.body) &&
      hasExactly(recipient, ["legal_name", "privacy_contact"]) && nonEmpty(recipient.legal_name) &&
      nonEmpty(recipient.privacy_contact) && Array.isArray(dataShared) &&
      dataShared.every((line) => typeof line === "string") && typeof handoff.purpose === "string" &&
      typeof handoff.compensationDisclosure === "string" && isObject(policyUrls) &&
      Object.values(policyUrls).every(acceptableURL) &&
      hasExactly(primary, ["actionLabel", "sessionCreationPath", "disclosureVersion"]) &&
      primary.actionLabel === LABELS.share && primary.sessionCreationPath === SESSION_CREATION_PATH &&
      nonEmpty(primary.disclosureVersion) && hasExactly(secondary, ["actionLabel", "url"]) &&
      secondary.actionLabel === LABELS.withoutSharing && acceptableURL(secondary.url);
  }

  function validImageURL(text) {
    if (acceptableURL(text)) return true;
    try {
      return new URL(text, location.href).origin === location.origin;
    } catch {
      return false;
    }
  }

  // A card that fails any check is left out: without a valid decision there is no safe action to offer.
  function validCard(card) {
    if (!isObject(card) || !nonEmpty(card.id) || !isObject(card.presentation_contract)) return false;
    const order = card.presentation_contract.block_order;
    return Array.isArray(order) && order.length === BLOCKS.length && new Set(order).size === BLOCKS.length &&
      order.every((block) => BLOCKS.includes(block)) && nonEmpty(card.title) && nonEmpty(card.summary) &&
      nonEmpty(card.priceText) && isObject(card.image) && validImageURL(card.image.url) &&
      typeof card.image.alt === "string" && validHandoff(card.handoff);
  }

  // ---------- the partner backend ----------

  function api(method, path, { body, headers } = {}) {
    const all = { Accept: "application/json", ...headers };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) all.Authorization = "Bearer " + token;
    if (body !== undefined) all["Content-Type"] = "application/json";
    return fetch(path, {
      method, headers: all, body, cache: "no-store", credentials: "omit", redirect: "error",
      referrerPolicy: "no-referrer",
    });
  }

  class SignedOut extends Error {}

  async function readJSON(response) {
    if (response.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      throw new SignedOut();
    }
    if (!response.ok) throw new Error("status " + response.status);
    return response.json();
  }

  // GET /v2/catalog, keeping only cards that validate.
  async function fetchCards() {
    const json = await readJSON(await api("GET", "/v2/catalog"));
    const cards = json && json.items; // {"items": [card, ...]} (catalog branch, CatalogService+Routes.swift)
    return Array.isArray(cards) ? cards.filter(validCard) : [];
  }

  // ---------- sign-in ----------

  function showSignIn(onSignedIn) {
    const panel = document.getElementById("sign-in");
    panel.hidden = false;
    document.getElementById("dev-sign-in").addEventListener("submit", async (event) => {
      event.preventDefault();
      const user = document.getElementById("dev-user").value.trim();
      const secret = document.getElementById("dev-secret").value.trim();
      const response = await api("POST", "/web/dev-token?user=" + encodeURIComponent(user), {
        headers: { "X-Baton-Dev-Secret": secret },
      }).catch(() => null);
      if (response && response.status === 403) {
        say("The sandbox refused the sign-in: check the secret baton serve --sandbox printed (a new one each run).");
        return;
      }
      if (!response || !response.ok) {
        say("Sandbox sign-in is not enabled on this backend. Use a token from your partner sign-in.");
        return;
      }
      const json = await response.json();
      sessionStorage.setItem(TOKEN_KEY, json.token);
      panel.hidden = true;
      say("");
      onSignedIn();
    });
    document.getElementById("token-sign-in").addEventListener("submit", (event) => {
      event.preventDefault();
      sessionStorage.setItem(TOKEN_KEY, document.getElementById("token-input").value.replace(/\s+/g, ""));
      panel.hidden = true;
      onSignedIn();
    });
  }

  function whenSignedIn(start) {
    const run = () => start().catch((error) => {
      if (error instanceof SignedOut) {
        say("Please sign in.");
        document.getElementById("sign-in").hidden = false;
      } else {
        say("Something went wrong. Try again in a moment.");
      }
    });
    showSignIn(run);
    if (sessionStorage.getItem(TOKEN_KEY)) {
      document.getElementById("sign-in").hidden = true;
      run();
    } else {
      say("Please sign in.");
    }
  }

  // ---------- catalog ----------

  let cardCounter = 0;
  const inFlightShares = new Map();
  // Per card: a Retry-After wait in progress, {timer, queued}. Both actions stay usable during it; a share tap
  // joins the pending retry (queued), which is sent once, with the kept body and key, when the wait ends.
  const retryWaits = new Map();

  function clearRetryWait(id) {
    const wait = retryWaits.get(id);
    if (wait) clearTimeout(wait.timer);
    retryWaits.delete(id);
  }

  function renderBlocks(article, card, titleID) {
    for (const block of card.presentation_contract.block_order) {
      if (block === "image") {
        article.append(el("img", { src: card.image.url, alt: card.image.alt, "data-block": "image" }));
      } else if (block === "title") {
        article.append(el("h2", { id: titleID, "data-block": "title" }, card.title));
      } else if (block === "summary") {
        article.append(el("p", { "data-block": "summary" }, card.summary));
      } else {
        article.append(el("p", { class: "price", "data-block": "price" }, card.priceText));
      }
    }
  }

  function renderCard(card) {
    const number = ++cardCounter;
    const titleID = "card-title-" + number;
    const article = el("article", { class: "card", "aria-labelledby": titleID, "data-card-id": card.id });
    renderBlocks(article, card, titleID);
    const cta = el("button", { type: "button", class: "action", "data-action": "cta", "aria-describedby": titleID },
      "Get started");
    cta.addEventListener("click", () => openDisclosure(card.id, article, cta));
    article.append(cta);
    return article;
  }

  function describedList(entries) {
    const list = el("dl");
    for (const [term, ...details] of entries) list.append(el("dt", {}, term), el("dd", {}, ...details));
    return list;
  }

  function renderDisclosure(card, article, number) {
    const handoff = card.handoff;
    const headingID = "disclosure-heading-" + number;
    const section = el("section", { class: "disclosure", "aria-labelledby": headingID, "data-part": "disclosure" },
      el("h3", { id: headingID, tabindex: "-1" }, handoff.heading), el("p", {}, handoff.body));
    const actions = el("div", { class: "actions", role: "group", "aria-labelledby": headingID });
    if (handoff.mode === "neutral_only") {
      const only = el("button", { type: "button", class: "action", "data-action": "neutral" }, LABELS.neutral);
      only.addEventListener("click", () => continueNeutral(card, [only], handoff.url));
      actions.append(only);
    } else {
      const entries = [
        ["Who receives it", el("span", {}, handoff.recipient.legal_name), el("br"),
          "Privacy contact: " + handoff.recipient.privacy_contact],
      ];
      if (handoff.dataShared.length > 0) {
        entries.push(["What is shared", el("ul", {}, ...handoff.dataShared.map((line) => el("li", {}, line)))]);
      }
      entries.push(["Why", handoff.purpose], ["How we are paid", handoff.compensationDisclosure]);
      const policies = Object.entries(handoff.policyUrls);
      if (policies.length > 0) {
        const links = policies.map(([name, url]) =>
          el("li", {}, el("a", { href: url, rel: "noreferrer" }, name.charAt(0).toUpperCase() + name.slice(1))));
        entries.push(["Policies", el("ul", {}, ...links)]);
      }
      section.append(describedList(entries));
      const share = el("button", { type: "button", class: "action", "data-action": "share" }, LABELS.share);
      const neutral = el("button", { type: "button", class: "action", "data-action": "neutral" },
        LABELS.withoutSharing);
      const both = [share, neutral];
      share.addEventListener("click", () => startShare(card, both, share));
      neutral.addEventListener("click", () => continueNeutral(card, both, handoff.secondary.url));
      actions.append(share, neutral);
    }
    article.append(section, actions);
    return section.querySelector("h3");
  }

  // CTA tap: refetch the projection from the partner backend, then show the disclosure and the exact actions.
  async function openDisclosure(id, article, cta) {
    clearRetryWait(id);
    if (cta) cta.disabled = true;
    let card;
    try {
      card = (await fetchCards()).find((candidate) => candidate.id === id);
    } catch (error) {
      if (cta) cta.disabled = false;
      if (error instanceof SignedOut) throw error;
      say("The catalog could not be loaded. Try again in a moment.");
      return;
    }
    if (!card) {
      article.remove();
      say("This item is no longer available.");
      return;
    }
    const number = ++cardCounter;
    const titleID = "card-title-" + number;
    const fresh = el("article", { class: "card", "aria-labelledby": titleID, "data-card-id": card.id,
      "data-state": "disclosure" });
    renderBlocks(fresh, card, titleID);
    const heading = renderDisclosure(card, fresh, number);
    article.replaceWith(fresh);
    heading.focus();
  }

  function continueNeutral(card, buttons, url) {
    clearRetryWait(card.id); // a share tap that joined the wait is never sent
    for (const button of buttons) button.disabled = true;
    sessionStorage.removeItem(PENDING_SHARE_PREFIX + card.id);
    location.assign(url);
  }

  // Share tap: both actions are disabled before anything else happens; a second tap joins the first request.
  // During a Retry-After wait the tap joins the pending retry instead: no request now, "Continue without
  // sharing" stays usable, and the kept request is sent once when the wait ends.
  function startShare(card, buttons, share) {
    const running = inFlightShares.get(card.id);
    if (running) return running;
    const wait = retryWaits.get(card.id);
    if (wait) {
      if (!wait.queued) {
        wait.queued = true;
        share.disabled = true;
        share.setAttribute("aria-busy", "true");
        say("Your choice is kept: it is sent as soon as the service is ready.");
      }
      return undefined;
    }
    for (const button of buttons) button.disabled = true;
    share.setAttribute("aria-busy", "true");
    const operation = sendShare(card, buttons, share).finally(() => inFlightShares.delete(card.id));
    inFlightShares.set(card.id, operation);
    return operation;
  }

  function pendingShare(card) {
    const storageKey = PENDING_SHARE_PREFIX + card.id;
    const version = card.handoff.primary.disclosureVersion;
    try {
      const kept = JSON.parse(sessionStorage.getItem(storageKey));
      if (kept && typeof kept.key === "string" && typeof kept.body === "string" &&
        JSON.parse(kept.body).disclosureVersion === version) return kept;
    } catch {
      // Unreadable: start over with a fresh key.
    }
    const body = JSON.stringify({
      catalogItemId: card.id, disclosureVersion: version, affirmed: true, affirmedAt: new Date().toISOString(),
    });
    const fresh = { key: crypto.randomUUID(), body };
    sessionStorage.setItem(storageKey, JSON.stringify(fresh));
    return fresh;
  }

  // Retry-After (RFC 9110 §10.2.3): delay-seconds or an IMF-fixdate; anything else is no wait.
  function retryAfterSeconds(value) {
    const text = (value || "").trim();
    if (/^\d+$/.test(text)) return Number(text);
    const fixdate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
    const date = fixdate.test(text) ? Date.parse(text) : NaN;
    return Number.isNaN(date) ? 0 : Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }

  // An uncertain answer: the body and key stay kept and both actions are usable again at once. With a
  // Retry-After, a share tap before it passes joins the retry, sent when the wait ends (never earlier).
  function retryLater(card, buttons, share, message, retryAfter) {
    say(message);
    share.removeAttribute("aria-busy");
    for (const button of buttons) button.disabled = false;
    share.focus();
    const seconds = retryAfterSeconds(retryAfter);
    if (seconds <= 0) return;
    const wait = { queued: false };
    wait.timer = setTimeout(() => {
      if (retryWaits.get(card.id) !== wait) return;
      retryWaits.delete(card.id);
      if (wait.queued) startShare(card, buttons, share);
    }, Math.min(seconds * 1000, 2147483647));
    retryWaits.set(card.id, wait);
  }

  async function sendShare(card, buttons, share) {
    const storageKey = PENDING_SHARE_PREFIX + card.id;
    const pending = pendingShare(card);
    let response;
    try {
      response = await api("POST", SESSION_CREATION_PATH, { body: pending.body,
        headers: { "Idempotency-Key": pending.key } });
    } catch {
      retryLater(card, buttons, share, "We could not reach the server. Your choice is kept: try again.");
      return;
    }
    if (response.status >= 200 && response.status < 300) {
      sessionStorage.removeItem(storageKey);
      const json = await response.json().catch(() => null);
      if (json && acceptableURL(json.url)) {
        location.assign(json.url);
        return;
      }
    } else if (response.status === 408 || response.status === 429 || response.status >= 500 ||
      response.status < 400) {
      retryLater(card, buttons, share, "The service is busy. Your choice is kept: try again.",
        response.headers.get("Retry-After"));
      return;
    } else if (response.status === 401) {
      // The sign-in lapsed, and the first attempt may have reached Chia: keep the body and key, sign in again;
      // the next share sends exactly the same request.
      sessionStorage.removeItem(TOKEN_KEY);
      share.removeAttribute("aria-busy");
      for (const button of buttons) button.disabled = false;
      document.getElementById("sign-in").hidden = false;
      say("Please sign in again. Your choice is kept.");
      return;
    }
    // A definitive rejection: forget the body and key, fetch a fresh projection and show it again.
    sessionStorage.removeItem(storageKey);
    say("This offer has changed. Please review it again.");
    await openDisclosure(card.id, buttons[0].closest("article"), null);
  }

  async function startCatalog() {
    for (const id of [...retryWaits.keys()]) clearRetryWait(id);
    const list = document.getElementById("catalog");
    const cards = await fetchCards();
    list.replaceChildren(...cards.map(renderCard));
    if (cards.length === 0) say("Nothing in the catalog for you right now.");
    list.setAttribute("data-state", "ready");
  }

  // ---------- Privue verification ----------

  const VERIFICATION_TEXT = {
    pending: "Your verification is in progress.",
    submitted: "Your verification was submitted and is being reviewed.",
    approved: "Your identity is verified.",
    rejected: "Your verification was not approved.",
  };

  async function checkVerification() {
    const result = document.getElementById("result");
    const workflow = sessionStorage.getItem(PRIVUE_WORKFLOW_KEY);
    if (!workflow) return;
    const response = await api("GET", "/v2/verifications/" + encodeURIComponent(workflow));
    if (response.status === 404) {
      result.textContent = "No verification has been started yet.";
      return;
    }
    const json = await readJSON(response);
    result.textContent = VERIFICATION_TEXT[json.status] || "Status: " + json.status;
    result.setAttribute("data-status", json.status);
  }

  async function startPrivue() {
    document.getElementById("flow").hidden = false;
    // The workflow comes from the page address (?workflow=…); the backend decides which workflows exist.
    const requested = new URLSearchParams(location.search).get("workflow");
    if (requested && /^[A-Za-z0-9._-]{1,64}$/.test(requested)) {
      document.getElementById("workflow").textContent = requested;
    }
    const start = document.getElementById("start");
    document.getElementById("start-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      if (start.disabled) return;
      start.disabled = true;
      const workflow = document.getElementById("workflow").textContent;
      sessionStorage.setItem(PRIVUE_WORKFLOW_KEY, workflow);
      try {
        const json = await readJSON(await api("POST", "/v2/verification-handoffs", {
          body: JSON.stringify({ workflow }) }));
        // Passed through unchanged, fragment included: the fragment is what signs the user in.
        if (acceptableURL(json.url)) {
          location.assign(json.url);
          return;
        }
      } catch {
        // Reported below.
      }
      start.disabled = false;
      say("The verification could not be started. Try again in a moment.");
    });
    document.getElementById("refresh").addEventListener("click", () => checkVerification().catch(() =>
      say("The result could not be loaded. Try again in a moment.")));
    // The return link's status is only a landing hint: the result shown always comes from the backend.
    await checkVerification();
  }

  // ---------- BB connect ----------

  const CONNECT_TEXT = {
    pending: "The bank connection is still in progress.",
    ok: "Your bank account is connected.",
    error: "The bank connection failed.",
    cancelled: "The bank connection was cancelled.",
    expired: "The bank connection expired before it finished.",
  };

  async function checkConnection() {
    const result = document.getElementById("result");
    const sessionId = sessionStorage.getItem(BB_SESSION_KEY);
    if (!sessionId) return;
    const json = await readJSON(await api("GET", "/v2/connect-sessions/" + encodeURIComponent(sessionId)));
    result.textContent = CONNECT_TEXT[json.status] || "Status: " + json.status;
    result.setAttribute("data-status", json.status);
  }

  async function startBB() {
    document.getElementById("flow").hidden = false;
    const start = document.getElementById("start");
    start.addEventListener("click", async () => {
      if (start.disabled) return;
      start.disabled = true;
      try {
        const json = await readJSON(await api("POST", "/v2/connect-sessions", {
          body: JSON.stringify({ callback: "https" }) }));
        if (nonEmpty(json.sessionId) && acceptableURL(json.hostedUrl)) {
          sessionStorage.setItem(BB_SESSION_KEY, json.sessionId);
          location.assign(json.hostedUrl);
          return;
        }
      } catch {
        // Reported below.
      }
      start.disabled = false;
      say("The bank connection could not be started. Try again in a moment.");
    });
    document.getElementById("refresh").addEventListener("click", () => checkConnection().catch(() =>
      say("The result could not be loaded. Try again in a moment.")));
    // A return link (sessionId, resultCode) is a UX signal only; whatever it says, ask the backend.
    await checkConnection();
  }

  const pages = { catalog: startCatalog, privue: startPrivue, bb: startBB };
  const page = pages[document.body.dataset.page];
  if (page) whenSignedIn(page);

  // Back from a journey (or restored from the back/forward cache): show current state again, from the backend only.
  // Nothing is inferred from the return itself or from its timing.
  const restores = { catalog: startCatalog, privue: checkVerification, bb: checkConnection };
  window.addEventListener("pageshow", (event) => {
    const restore = restores[document.body.dataset.page];
    if (event.persisted && restore && sessionStorage.getItem(TOKEN_KEY)) {
      restore().catch(() => say("This page could not be refreshed. Try again in a moment."));
    }
  });
})();
