// The browser of the headless app, as Sources/BatonHeadless does it: it really loads the hosted journeys from the
// provider sandbox with node's fetch (redirect: 'manual', so every hop is seen and a return link is caught, not
// followed), keeps its own cookies, and does what the scripted user does there. One class per browser style:
// the external browser (Chia), the authentication session (BB) and the camera web view (Privue).
import { AuthSessionAdapter } from '../../src/BankConnectController';
import { parseRawUrl, asciiLowercase, effectivePath } from '../../src/core/rawUrl';
import { RegisteredReturnUrl } from '../../src/core/returnLinks';
import { SensitiveUrl } from '../../src/core/retry';
import { BrowserCompletion } from '../../src/presentation';
import { VerificationPresenter } from '../../src/VerificationController';

export interface Page {
  url: string;
  status: number;
  location: string | null;
  body: string;
  marker: string | null;
}

export type SignIn = { how: 'ticket' } | { how: 'mobile_number'; reason: string };

/** One presentation as a test reads it (no URL: scheme and host only, like Swift's records). */
export interface Presentation {
  browser: 'external' | 'auth_session' | 'camera_web_view';
  firstPage: string | null;
  signIn: SignIn | null;
  completion: BrowserCompletion['kind'];
}

export function firstMatch(pattern: RegExp, text: string): string | null {
  const match = pattern.exec(text);
  return match === null || match[1] === undefined ? null : match[1].replace(/&amp;/g, '&');
}

function form(fields: Array<[string, string]>): string {
  return fields.map(([name, value]) => `${name}=${encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`).join('&');
}

/** One browser instance: its own cookies; redirects followed by hand. */
export class HeadlessBrowser {
  private cookies = new Map<string, string>();
  static readonly maxRedirects = 5;

  async send(method: string, url: string, body: string | null = null, contentType: string | null = null): Promise<Page | null> {
    const headers: Record<string, string> = {};
    if (contentType !== null) headers['Content-Type'] = contentType;
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].sort().map(([k, v]) => `${k}=${v}`).join('; ');
    try {
      const init: RequestInit = { method, headers, redirect: 'manual' };
      if (body !== null) init.body = body;
      const response = await fetch(url, init);
      const setCookie = response.headers.get('set-cookie');
      if (setCookie !== null) this.keep(setCookie);
      const text = await response.text();
      return { url, status: response.status, location: response.headers.get('location'), body: text, marker: firstMatch(/data-page="([^"]+)"/, text) };
    } catch {
      return null;
    }
  }

  /** Sends, then follows 3xx with GET while `follow` allows the target. */
  async load(method: string, url: string, follow: (link: string) => boolean, body: string | null = null, contentType: string | null = null): Promise<Page | null> {
    let page = await this.send(method, url, body, contentType);
    for (let hops = 0; page !== null && page.status >= 300 && page.status <= 399 && page.location !== null && hops < HeadlessBrowser.maxRedirects; hops++) {
      const next = new URL(page.location, page.url).toString();
      if (!follow(next)) break;
      page = await this.send('GET', next);
    }
    return page;
  }

  private keep(header: string): void {
    const pair = header.split(';', 1)[0];
    const equals = pair.indexOf('=');
    if (equals > 0) this.cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1));
  }
}

/** Counts work in flight, so a walk can wait for the app to be idle instead of sleeping. */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];
  track<T>(work: Promise<T>): Promise<T> {
    this.count += 1;
    const done = () => {
      this.count -= 1;
      if (this.count === 0) for (const waiter of this.waiters.splice(0)) waiter();
    };
    work.then(done, done);
    return work;
  }
  get idle(): boolean {
    return this.count === 0;
  }
}

/** Chia: the OS browser takes the URL and loads it; the app learns nothing more. */
export class HeadlessExternalBrowser {
  readonly presentations: Presentation[] = [];
  constructor(private readonly inFlight: InFlight) {}

  readonly open = (url: SensitiveUrl): Promise<void> =>
    this.inFlight.track(
      (async () => {
        const page = await new HeadlessBrowser().load('GET', url.reveal(), () => true);
        this.presentations.push({ browser: 'external', firstPage: page?.marker ?? null, signIn: null, completion: 'closed_without_return' });
      })(),
    );
}

/** Whether an auth session waiting for `callbackUrl` ends on a navigation to `link` (ASWebAuthenticationSession). */
export function callbackCatches(callbackUrl: string, link: string): boolean {
  const callback = parseRawUrl(callbackUrl);
  const candidate = parseRawUrl(link);
  if (callback === null || candidate === null) return false;
  const scheme = asciiLowercase(callback.scheme);
  if (scheme !== 'https') return asciiLowercase(candidate.scheme) === scheme;
  return asciiLowercase(candidate.scheme) === 'https' && asciiLowercase(candidate.host) === asciiLowercase(callback.host) && effectivePath(candidate) === effectivePath(callback);
}

export type BbOutcome = { complete: 'Ok' | 'Error' | 'Cancelled'; error?: string } | { close: true };

/** BB: loads the hosted flow, ends it as scripted through the control API, catches the redirect the callback matches. */
export class HeadlessAuthSession implements AuthSessionAdapter {
  readonly presentations: Presentation[] = [];
  private readonly script: BbOutcome[] = [];
  constructor(private readonly inFlight: InFlight) {}

  then(outcome: BbOutcome): this {
    this.script.push(outcome);
    return this;
  }

  openAuthSession(url: SensitiveUrl, callbackUrl: string): Promise<BrowserCompletion> {
    const outcome = this.script.shift() ?? { close: true };
    return this.inFlight.track(this.run(url, callbackUrl, outcome));
  }

  private async run(url: SensitiveUrl, callbackUrl: string, outcome: BbOutcome): Promise<BrowserCompletion> {
    const catches = (link: string) => callbackCatches(callbackUrl, link);
    const browser = new HeadlessBrowser();
    const page = await browser.load('GET', url.reveal(), (link) => !catches(link));
    const end = (completion: BrowserCompletion): BrowserCompletion => {
      this.presentations.push({ browser: 'auth_session', firstPage: page?.marker ?? null, signIn: null, completion: completion.kind });
      return completion;
    };
    if (page === null) return end({ kind: 'closed_without_return' });
    const id = firstMatch(/action="([^"/]+)\/complete"/, page.body);
    if (!('complete' in outcome) || id === null) return end({ kind: 'closed_without_return' });
    const body: Record<string, string> = { resultCode: outcome.complete };
    if (outcome.error !== undefined) body.error = outcome.error;
    const answer = await browser.send('POST', new URL(`/_sandbox/journeys/${id}/complete`, page.url).toString(), JSON.stringify(body), 'application/json');
    if (answer === null || answer.status !== 200) return end({ kind: 'closed_without_return' });
    const redirect = (JSON.parse(answer.body) as { redirectUrl?: unknown }).redirectUrl;
    return end(typeof redirect === 'string' && catches(redirect) ? { kind: 'returned', url: redirect } : { kind: 'closed_without_return' });
  }
}

/**
 * Privue in the camera web view: loads the URL without its fragment, redeems `#ticket=…` as the page's script does
 * (falling back to the mobile-number form when it is refused), submits the scripted status and ends on the
 * navigation to a registered return URL.
 */
export class HeadlessCameraWebView implements VerificationPresenter {
  readonly presentations: Presentation[] = [];
  private readonly script: Array<{ status: string; beforeLoading?: () => Promise<void> }> = [];
  dismissed = 0;
  constructor(
    private readonly inFlight: InFlight,
    private readonly returnUrls: string[],
    private readonly mobileNumber = '+15550100',
  ) {}

  then(status: string, beforeLoading?: () => Promise<void>): this {
    this.script.push({ status, beforeLoading });
    return this;
  }

  present(url: SensitiveUrl): Promise<BrowserCompletion> {
    const step = this.script.shift() ?? null;
    return this.inFlight.track(this.run(url, step));
  }

  dismiss(): void {
    this.dismissed += 1;
  }

  private intercepts(link: string): boolean {
    const candidate = parseRawUrl(link);
    return candidate !== null && candidate.userinfo === null && this.returnUrls.some((r) => new RegisteredReturnUrl(r).matches(candidate));
  }

  private async run(url: SensitiveUrl, step: { status: string; beforeLoading?: () => Promise<void> } | null): Promise<BrowserCompletion> {
    if (step?.beforeLoading !== undefined) await step.beforeLoading();
    const intercepts = (link: string) => this.intercepts(link);
    const full = url.reveal();
    const hash = full.indexOf('#');
    const target = hash >= 0 ? full.slice(0, hash) : full;
    const ticket = hash >= 0 ? firstMatch(/(?:^|&)ticket=([^&]*)/, full.slice(hash + 1)) : null;
    const browser = new HeadlessBrowser();
    const first = await browser.load('GET', target, (link) => !intercepts(link));
    let signIn: SignIn | null = null;
    const end = (completion: BrowserCompletion): BrowserCompletion => {
      this.presentations.push({ browser: 'camera_web_view', firstPage: first?.marker ?? null, signIn, completion: completion.kind });
      return completion;
    };
    if (first === null) return end({ kind: 'closed_without_return' });
    let page: Page | null = first;
    if (first.marker === 'privue-sign-in') {
      let reason = 'ticket_missing';
      page = null;
      const endpoint = firstMatch(/fetch\('([^']+)'/, first.body);
      if (ticket !== null && endpoint !== null) {
        const answer = await browser.send('POST', new URL(endpoint, first.url).toString(), JSON.stringify({ ticket: decodeURIComponent(ticket) }), 'application/json');
        let object: { signedIn?: unknown; reason?: unknown } = {};
        try {
          object = answer === null ? {} : JSON.parse(answer.body);
        } catch {
          object = {};
        }
        if (object.signedIn === true) {
          page = await browser.load('GET', first.url, (link) => !intercepts(link));
          signIn = { how: 'ticket' };
        } else {
          reason = typeof object.reason === 'string' ? object.reason : 'redeem_failed';
        }
      }
      if (page === null) {
        const action = firstMatch(/action="([^"]*\/sign-in)"/, first.body);
        if (action === null) return end({ kind: 'closed_without_return' });
        const fields: Array<[string, string]> = [['mobile', this.mobileNumber]];
        const id = firstMatch(/name="verification_id" value="([^"]*)"/, first.body);
        if (id !== null) fields.push(['verification_id', id]);
        if (ticket !== null) fields.push(['ticket', ticket]);
        page = await browser.load('POST', new URL(action, first.url).toString(), (link) => !intercepts(link), form(fields), 'application/x-www-form-urlencoded');
        signIn = { how: 'mobile_number', reason };
      }
    }
    if (step === null || page === null || page.marker !== 'privue-journey') return end({ kind: 'closed_without_return' });
    const submit = firstMatch(/action="([^"]*\/submit)"/, page.body);
    if (submit === null) return end({ kind: 'closed_without_return' });
    const submitted = await browser.send('POST', new URL(submit, page.url).toString(), form([['status', step.status]]), 'application/x-www-form-urlencoded');
    if (submitted === null || submitted.status < 300 || submitted.status > 399 || submitted.location === null) return end({ kind: 'closed_without_return' });
    const link = parseRawUrl(submitted.location) !== null ? submitted.location : new URL(submitted.location, page.url).toString();
    return end(intercepts(link) ? { kind: 'returned', url: link } : { kind: 'closed_without_return' });
  }
}
