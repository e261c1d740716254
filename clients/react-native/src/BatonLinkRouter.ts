import { BatonReturnUrls } from './configuration';
import { parseRawUrl } from './core/rawUrl';
import { GenericReturnParser, RegisteredReturnUrl } from './core/returnLinks';

/** The flow a delivered link belongs to. */
export type BatonLinkFlow = 'bb' | 'privue' | 'chia';

/**
 * Any delivered URL → the flow it belongs to (MOBILE-SDK `BatonLinkRouter`), for an app that receives links in one
 * place and forwards them (`controller.returnLink(url)`): a registered BB return (https or custom scheme), a registered
 * Privue return, or Chia's generic return host, checked in that order; null for anything else. It only routes: each
 * flow's own parser still judges the link strictly.
 */
export class BatonLinkRouter {
  private readonly bb: RegisteredReturnUrl[];
  private readonly privue: RegisteredReturnUrl[];
  private readonly chia: GenericReturnParser | null;

  constructor(returnUrls: BatonReturnUrls) {
    this.bb = returnUrls.bb === undefined ? [] : [returnUrls.bb.https, returnUrls.bb.customScheme].map((t) => new RegisteredReturnUrl(t));
    this.privue = (returnUrls.privue ?? []).map((t) => new RegisteredReturnUrl(t));
    const host = returnUrls.chiaGenericReturnHost;
    this.chia = host === undefined || host === null ? null : new GenericReturnParser(host);
  }

  route(url: string): BatonLinkFlow | null {
    const parts = parseRawUrl(url);
    if (parts === null || parts.userinfo !== null) return null;
    if (this.bb.some((r) => r.matches(parts))) return 'bb';
    if (this.privue.some((r) => r.matches(parts))) return 'privue';
    if (this.chia !== null && this.chia.parse(url).accepted) return 'chia';
    return null;
  }
}
