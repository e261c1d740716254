import { asciiLowercase, effectivePath, effectivePort, parseRawUrl, RawUrl } from './rawUrl';
import { firstField, firstNonEmptyField } from './formQuery';

/** Why a URL is not a return link (the machine reason `baton parse-return` prints; never part of the URL). */
export type ReturnLinkRejection =
  | 'unparseable_url'
  | 'userinfo_present'
  | 'not_https'
  | 'unregistered_url'
  | 'unregistered_host'
  | 'unregistered_port'
  | 'missing_session_id'
  | 'missing_result_code'
  | 'invalid_result_code'
  | 'missing_verification_id';

/** A parser's answer. */
export type ReturnLinkResult<T> = { accepted: true; value: T } | { accepted: false; reason: ReturnLinkRejection };

/** Why a return URL registration cannot be used. */
export type ReturnUrlRegistrationCode =
  | 'unparseable_url'
  | 'userinfo_present'
  | 'fragment_present'
  | 'not_https'
  | 'none_registered'
  | 'registered_for_two_flows';

/** A registration that cannot be used (a configuration error). */
export class ReturnUrlRegistrationError extends Error {
  constructor(readonly code: ReturnUrlRegistrationCode) {
    super(`return URL cannot be registered: ${code}`);
  }
}

/** A return URL registered with a provider; see docs/CONTRACTS.md §1 for the matching rules. */
export class RegisteredReturnUrl {
  private readonly scheme: string;
  private readonly host: string;
  private readonly port: number | null;
  private readonly path: string;

  constructor(readonly text: string) {
    const url = parseRawUrl(text);
    if (url === null) throw new ReturnUrlRegistrationError('unparseable_url');
    if (url.userinfo !== null) throw new ReturnUrlRegistrationError('userinfo_present');
    if (url.fragment !== null) throw new ReturnUrlRegistrationError('fragment_present');
    this.scheme = asciiLowercase(url.scheme);
    this.host = asciiLowercase(url.host);
    this.port = effectivePort(url);
    this.path = effectivePath(url);
  }

  get isHttps(): boolean {
    return this.scheme === 'https';
  }

  /** Whether `candidate` is this registered URL (queries are not compared; userinfo never matches). */
  matches(candidate: RawUrl): boolean {
    return (
      candidate.userinfo === null &&
      asciiLowercase(candidate.scheme) === this.scheme &&
      effectivePort(candidate) === this.port &&
      asciiLowercase(candidate.host) === this.host &&
      effectivePath(candidate) === this.path
    );
  }
}

function isBare(text: string, registered: RegisteredReturnUrl[]): boolean {
  const url = parseRawUrl(text);
  return url !== null && url.userinfo === null && (url.query ?? '') === '' && registered.some((r) => r.matches(url));
}

function rejected(reason: ReturnLinkRejection): { accepted: false; reason: ReturnLinkRejection } {
  return { accepted: false, reason };
}

/** A BB connect return (seed 002): a UX signal only, never the outcome. */
export interface ConnectReturn {
  sessionId: string;
  resultCode: 'Ok' | 'Error' | 'Cancelled';
  connectionId: string | null;
  error: string | null;
}

/** BB connect return parser: registered URL, then `sessionId`, then `resultCode` (first occurrence wins). */
export class ConnectReturnParser {
  readonly registered: RegisteredReturnUrl[];

  constructor(registered: string[]) {
    if (registered.length === 0) throw new ReturnUrlRegistrationError('none_registered');
    this.registered = registered.map((text) => new RegisteredReturnUrl(text));
  }

  /** Whether `text` is a registered return URL with no query at all (the landing page's bare link back). */
  isBareReturn(text: string): boolean {
    return isBare(text, this.registered);
  }

  parse(text: string): ReturnLinkResult<ConnectReturn> {
    const url = parseRawUrl(text);
    if (url === null) return rejected('unparseable_url');
    if (url.userinfo !== null) return rejected('userinfo_present');
    if (!this.registered.some((r) => r.matches(url))) return rejected('unregistered_url');
    const query = url.query ?? '';
    const sessionId = firstNonEmptyField('sessionId', query);
    if (sessionId === null) return rejected('missing_session_id');
    const resultCode = firstField('resultCode', query);
    if (resultCode === null) return rejected('missing_result_code');
    if (resultCode !== 'Ok' && resultCode !== 'Error' && resultCode !== 'Cancelled') return rejected('invalid_result_code');
    return {
      accepted: true,
      value: {
        sessionId,
        resultCode,
        connectionId: firstNonEmptyField('connectionId', query),
        error: firstNonEmptyField('error', query),
      },
    };
  }
}

/** A Privue verification return (seed 001); `statusHint` is a landing hint only. */
export interface VerificationReturn {
  verificationId: string;
  statusHint: string | null;
}

/** Privue verification return parser: https, registered URL, then `verification_id`. */
export class VerificationReturnParser {
  readonly registered: RegisteredReturnUrl[];

  constructor(registered: string[]) {
    if (registered.length === 0) throw new ReturnUrlRegistrationError('none_registered');
    this.registered = registered.map((text) => new RegisteredReturnUrl(text));
    if (!this.registered.every((r) => r.isHttps)) throw new ReturnUrlRegistrationError('not_https');
  }

  /** Whether `text` is a registered return URL with no query at all (the landing page's bare link back). */
  isBareReturn(text: string): boolean {
    return isBare(text, this.registered);
  }

  parse(text: string): ReturnLinkResult<VerificationReturn> {
    const url = parseRawUrl(text);
    if (url === null) return rejected('unparseable_url');
    if (asciiLowercase(url.scheme) !== 'https') return rejected('not_https');
    if (url.userinfo !== null) return rejected('userinfo_present');
    if (!this.registered.some((r) => r.matches(url))) return rejected('unregistered_url');
    const query = url.query ?? '';
    const verificationId = firstNonEmptyField('verification_id', query);
    if (verificationId === null) return rejected('missing_verification_id');
    return { accepted: true, value: { verificationId, statusHint: firstNonEmptyField('status', query) } };
  }
}

/** The only route a generic return leads to. */
export const MARKETPLACE_HOME = 'marketplace-home';

/**
 * Chia's generic return (seed 000): https, the registered host, the default port; path, query and fragment are
 * ignored entirely, and the route is always marketplace home.
 */
export class GenericReturnParser {
  readonly registeredHost: string;

  constructor(registeredHost: string) {
    const url = parseRawUrl(`https://${registeredHost}`);
    if (
      url === null || url.userinfo !== null || url.port !== null || url.host === '' || url.path !== '' ||
      url.query !== null || url.fragment !== null
    ) {
      throw new ReturnUrlRegistrationError('unparseable_url');
    }
    this.registeredHost = asciiLowercase(url.host);
  }

  parse(text: string): ReturnLinkResult<typeof MARKETPLACE_HOME> {
    const url = parseRawUrl(text);
    if (url === null) return rejected('unparseable_url');
    if (asciiLowercase(url.scheme) !== 'https') return rejected('not_https');
    if (url.userinfo !== null) return rejected('userinfo_present');
    if (asciiLowercase(url.host) !== this.registeredHost) return rejected('unregistered_host');
    if (effectivePort(url) !== 443) return rejected('unregistered_port');
    return { accepted: true, value: MARKETPLACE_HOME };
  }
}
