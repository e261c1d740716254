// Which flow a URL the OS delivered to the app belongs to (docs/CONTRACTS.md §1.2; Swift's BatonLinkRouter).
import { parseRawUrl } from './rawUrl';
import { GenericReturnParser, RegisteredReturnUrl, ReturnUrlRegistrationError } from './returnLinks';

/** The flows a link can belong to, by their wire names. */
export type LinkFlow = 'bb' | 'privue' | 'chia';

/** Where a link goes: a BB or Privue link (`landing`: the landing page's bare link), Chia's generic return, or none. */
export type LinkRoute =
  | { flow: 'bb' | 'privue'; landing: boolean }
  | { flow: 'chia' }
  | { flow: null; reason: 'unparseable_url' | 'userinfo_present' | 'unregistered_url' };

/** The handlers of the flows running now; a flow without one drops its links. */
export interface LinkHandlers {
  bankConnect?: (url: string) => void;
  verification?: (url: string) => void;
  chiaGenericReturn?: (url: string) => void;
}

/**
 * Sorts delivered links by the registered return URLs only — scheme, host, effective port, exact path — and never by
 * the query: whether a link is a return, and what it claims, stays with the flow's own parser. In order: a URL that
 * does not split strictly, or carries userinfo → none; a registered BB return URL → bb; a registered Privue return
 * URL → privue; https on Chia's approved generic return host, default port → chia; else none. A BB or Privue link
 * with no query is the landing page's bare link. Vectors: Conformance/link-routing.v1.json.
 */
export class BatonLinkRouter {
  private readonly bankConnect: RegisteredReturnUrl[];
  private readonly verification: RegisteredReturnUrl[];
  private readonly genericReturn: GenericReturnParser | null;

  /** Throws ReturnUrlRegistrationError('registered_for_two_flows') when a URL is registered for both BB and Privue. */
  constructor(registration: { bankConnect: string[]; verification: string[]; genericReturnHost: string | null }) {
    this.bankConnect = registration.bankConnect.map((url) => new RegisteredReturnUrl(url));
    this.verification = registration.verification.map((url) => new RegisteredReturnUrl(url));
    this.genericReturn =
      registration.genericReturnHost === null ? null : new GenericReturnParser(registration.genericReturnHost);
    for (const bb of this.bankConnect) {
      const parts = parseRawUrl(bb.text);
      if (parts !== null && this.verification.some((privue) => privue.matches(parts))) {
        throw new ReturnUrlRegistrationError('registered_for_two_flows');
      }
    }
  }

  /** Which flow `url` (exactly as the OS delivered it) belongs to. */
  route(url: string): LinkRoute {
    const parts = parseRawUrl(url);
    if (parts === null) return { flow: null, reason: 'unparseable_url' };
    if (parts.userinfo !== null) return { flow: null, reason: 'userinfo_present' };
    const landing = (parts.query ?? '') === '';
    if (this.bankConnect.some((r) => r.matches(parts))) return { flow: 'bb', landing };
    if (this.verification.some((r) => r.matches(parts))) return { flow: 'privue', landing };
    if (this.genericReturn !== null && this.genericReturn.parse(url).accepted) return { flow: 'chia' };
    return { flow: null, reason: 'unregistered_url' };
  }

  /** Routes `url` and hands it, unchanged, to its flow's handler (whose parser decides); returns the route. */
  deliver(url: string, handlers: LinkHandlers): LinkRoute {
    const route = this.route(url);
    if (route.flow === 'bb') handlers.bankConnect?.(url);
    else if (route.flow === 'privue') handlers.verification?.(url);
    else if (route.flow === 'chia') handlers.chiaGenericReturn?.(url);
    return route;
  }
}
