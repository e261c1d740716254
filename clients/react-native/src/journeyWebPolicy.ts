import { asciiLowercase, effectivePort, parseRawUrl } from './core/rawUrl';
import { RegisteredReturnUrl } from './core/returnLinks';
import { acceptsAsSecure, PRODUCTION_URL_POLICY, UrlPolicy } from './core/urlPolicy';

/** What the camera web view does with a navigation (Swift `JourneyWebPolicy.NavigationDecision`). */
export type JourneyNavigationDecision = { decision: 'allow' } | { decision: 'intercept_return'; url: string } | { decision: 'cancel' };

/**
 * The Privue camera web view's rules (Swift `JourneyWebPolicy`, docs/CONTRACTS.md "Camera web view"): a navigation to
 * a registered return URL (no userinfo) is intercepted and ends the journey; `https` is allowed (DigiLocker consent
 * is on another domain); `about:`/`blob:`/`data:` stay in the page; `http` only to a loopback host and only under the
 * development policy; everything else — other schemes, userinfo — is cancelled, never handed to another app.
 * Camera is granted to the journey's own origin (scheme, host, effective port) alone; the microphone never.
 */
export class JourneyWebPolicy {
  private readonly returnUrls: RegisteredReturnUrl[];
  private readonly journeyOrigin: { scheme: string; host: string; port: number | null } | null;

  constructor(journeyUrl: string, returnUrls: readonly string[], private readonly urls: UrlPolicy = PRODUCTION_URL_POLICY) {
    this.returnUrls = returnUrls.map((text) => new RegisteredReturnUrl(text));
    const parts = parseRawUrl(journeyUrl);
    this.journeyOrigin = parts === null ? null : { scheme: asciiLowercase(parts.scheme), host: asciiLowercase(parts.host), port: effectivePort(parts) };
  }

  decideNavigation(url: string): JourneyNavigationDecision {
    const parts = parseRawUrl(url);
    if (parts === null) {
      const colon = url.indexOf(':');
      const scheme = colon < 0 ? '' : asciiLowercase(url.slice(0, colon));
      return ['about', 'blob', 'data'].includes(scheme) ? { decision: 'allow' } : { decision: 'cancel' };
    }
    if (parts.userinfo === null && this.returnUrls.some((r) => r.matches(parts))) return { decision: 'intercept_return', url };
    return parts.userinfo === null && acceptsAsSecure(url, this.urls) ? { decision: 'allow' } : { decision: 'cancel' };
  }

  /** Whether a capture request for `kind` from `origin` (`scheme://host[:port]`) is granted: camera, journey origin only. */
  grantsMediaCapture(kind: 'camera' | 'microphone' | 'camera_and_microphone', origin: string): boolean {
    if (kind !== 'camera' || this.journeyOrigin === null) return false;
    const parts = parseRawUrl(origin);
    if (parts === null) return false;
    const journey = this.journeyOrigin;
    return (
      asciiLowercase(parts.scheme) === journey.scheme &&
      asciiLowercase(parts.host) === journey.host &&
      effectivePort(parts) === journey.port &&
      acceptsAsSecure(origin, this.urls)
    );
  }
}
