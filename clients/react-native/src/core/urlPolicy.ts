import { asciiLowercase, parseRawUrl } from './rawUrl';
import { SensitiveUrl } from './retry';

/**
 * Which URLs pass where the contract says `https` (BatonCore `URLPolicy`): production accepts `https` only;
 * development also accepts plain `http` to a loopback host (`127.0.0.0/8`, `[::1]`, `localhost`), so the SDK runs
 * against `baton serve --sandbox`. Development is only ever chosen by the app, explicitly.
 */
export interface UrlPolicy {
  readonly allowsLoopbackHttp: boolean;
}

export const PRODUCTION_URL_POLICY: UrlPolicy = Object.freeze({ allowsLoopbackHttp: false });
export const DEVELOPMENT_URL_POLICY: UrlPolicy = Object.freeze({ allowsLoopbackHttp: true });

/** Whether `host` (lowercased; IPv6 in brackets) names this machine. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host === '[::1]') return true;
  const parts = host.split('.');
  return parts.length === 4 && parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255) && parts[0] === '127' && Number(parts[0]) === 127;
}

/** Whether an absolute URL with a host and no userinfo passes where `https` is required under `policy`. */
export function acceptsAsSecure(text: string, policy: UrlPolicy): boolean {
  const url = parseRawUrl(text);
  if (url === null || url.host === '' || url.userinfo !== null) return false;
  const scheme = asciiLowercase(url.scheme);
  return scheme === 'https' || (scheme === 'http' && policy.allowsLoopbackHttp && isLoopbackHost(asciiLowercase(url.host)));
}

/** `text` as a journey URL when `policy` accepts it, else null. */
export function journeyUrl(text: string, policy: UrlPolicy): SensitiveUrl | null {
  return acceptsAsSecure(text, policy) ? new SensitiveUrl(text) : null;
}
