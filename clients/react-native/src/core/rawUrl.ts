/**
 * The parts of an absolute `scheme://authority/path?query#fragment` URL, split strictly and never normalised
 * (a transcription of BatonCore's `RawURLComponents`, docs/CONTRACTS.md §1). The WHATWG `URL` class repairs and
 * normalises what it is given; a return link must be judged exactly as delivered.
 */
export interface RawUrl {
  readonly scheme: string;
  readonly userinfo: string | null;
  readonly host: string;
  readonly port: number | null;
  readonly path: string;
  readonly query: string | null;
  readonly fragment: string | null;
}

/** ASCII-only lowercase (`toLowerCase` would also fold non-ASCII letters, which the contract does not). */
export function asciiLowercase(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** The default port of a scheme: 443 for https and wss, 80 for http and ws, else null. */
export function defaultPort(scheme: string): number | null {
  switch (asciiLowercase(scheme)) {
    case 'https':
    case 'wss':
      return 443;
    case 'http':
    case 'ws':
      return 80;
    default:
      return null;
  }
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=%]|[^\x00-\x7F])*$/;
const IPV6_INNER = /^[0-9A-Fa-f:.%]+$/;

/** Splits `text`, or answers null when it is not a strictly well-formed absolute URL with an authority. */
export function parseRawUrl(text: string): RawUrl | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return null;
  }
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const scheme = text.slice(0, colon);
  if (!SCHEME.test(scheme)) return null;
  if (!text.startsWith('//', colon + 1)) return null;
  const authorityStart = colon + 3;
  let authorityEnd = text.length;
  for (let i = authorityStart; i < text.length; i++) {
    const c = text[i];
    if (c === '/' || c === '?' || c === '#') {
      authorityEnd = i;
      break;
    }
  }
  const authority = text.slice(authorityStart, authorityEnd);
  if (authority.includes('\\')) return null;
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : null;
  const hostAndPort = at >= 0 ? authority.slice(at + 1) : authority;
  let host: string;
  let portText: string | null;
  if (hostAndPort.startsWith('[')) {
    const close = hostAndPort.indexOf(']');
    if (close < 0) return null;
    host = hostAndPort.slice(0, close + 1);
    const after = hostAndPort.slice(close + 1);
    if (after === '') portText = null;
    else if (after.startsWith(':')) portText = after.slice(1);
    else return null;
    if (!IPV6_INNER.test(host.slice(1, -1))) return null;
  } else {
    const portColon = hostAndPort.indexOf(':');
    host = portColon >= 0 ? hostAndPort.slice(0, portColon) : hostAndPort;
    portText = portColon >= 0 ? hostAndPort.slice(portColon + 1) : null;
    if (!REG_NAME.test(host)) return null;
  }
  let port: number | null = null;
  if (portText !== null && portText !== '') {
    if (portText.length > 5 || !/^[0-9]+$/.test(portText)) return null;
    port = Number(portText);
    if (port > 65535) return null;
  }
  let rest = text.slice(authorityEnd);
  let fragment: string | null = null;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let query: string | null = null;
  const question = rest.indexOf('?');
  if (question >= 0) {
    query = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  return { scheme, userinfo, host, port, path: rest, query, fragment };
}

/** The port, or the scheme's default. */
export function effectivePort(url: RawUrl): number | null {
  return url.port ?? defaultPort(url.scheme);
}

/** The path; an empty http(s) path reads as `/`. */
export function effectivePath(url: RawUrl): string {
  const scheme = asciiLowercase(url.scheme);
  return url.path === '' && (scheme === 'https' || scheme === 'http') ? '/' : url.path;
}

/** An absolute https URL with a host and no userinfo (BatonCore `HTTPSURL`). */
export function isHttpsUrl(text: string): boolean {
  const url = parseRawUrl(text);
  return url !== null && url.host !== '' && url.userinfo === null && asciiLowercase(url.scheme) === 'https';
}

/** `scheme://host[:port]`, ASCII-lowercased, default port omitted; null when `text` does not split strictly. */
export function originOf(text: string): string | null {
  const url = parseRawUrl(text);
  if (url === null || url.userinfo !== null || url.host === '') return null;
  const scheme = asciiLowercase(url.scheme);
  const showPort = url.port !== null && url.port !== defaultPort(scheme);
  return `${scheme}://${asciiLowercase(url.host)}${showPort ? `:${url.port}` : ''}`;
}
