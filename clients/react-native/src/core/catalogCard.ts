import { acceptsAsSecure, PRODUCTION_URL_POLICY, UrlPolicy } from './urlPolicy';

export const CONTINUE_LABEL = 'Continue to Chia';
export const SHARE_LABEL = 'Share selection and continue';
export const CONTINUE_WITHOUT_SHARING_LABEL = 'Continue without sharing';
export const SESSION_CREATION_PATH = '/v2/handoff-sessions';

/** Seed 000's closed `MobileHandoff` union; the action labels and the session path are literals, not data. */
export type MobileHandoff =
  | { mode: 'neutral_only'; heading: string; body: string; url: string }
  | {
      mode: 'share_or_neutral';
      heading: string;
      body: string;
      recipient: { legalName: string; privacyContact: string };
      dataShared: string[];
      purpose: string;
      compensationDisclosure: string;
      policyUrls: Array<[string, string]>;
      disclosureVersion: string;
      neutralUrl: string;
    };

export type CatalogBlock = 'image' | 'title' | 'summary' | 'price';

/** One card of `GET /v2/catalog`, decoded strictly. */
export interface CatalogCard {
  id: string;
  blockOrder: CatalogBlock[];
  title: string;
  summary: string;
  priceText: string;
  image: { url: string; alt: string };
  handoff: MobileHandoff;
}

/** The action labels a handoff renders, in order. */
export function actionLabels(handoff: MobileHandoff): string[] {
  return handoff.mode === 'neutral_only' ? [CONTINUE_LABEL] : [SHARE_LABEL, CONTINUE_WITHOUT_SHARING_LABEL];
}

class InvalidCard extends Error {}

function fail(): never {
  throw new InvalidCard();
}

type Json = { [key: string]: unknown };

function object(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : fail();
}

function string(value: unknown): string {
  return typeof value === 'string' ? value : fail();
}

function nonEmpty(value: unknown): string {
  const text = string(value);
  return text === '' ? fail() : text;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(string) : fail();
}

function httpsUrl(value: unknown, policy: UrlPolicy): string {
  const text = string(value);
  return acceptsAsSecure(text, policy) ? text : fail();
}

function onlyKeys(o: Json, allowed: string[]): void {
  for (const key of Object.keys(o)) if (!allowed.includes(key)) fail();
}

function literal(value: unknown, expected: string): void {
  if (value !== expected) fail();
}

const BLOCKS: CatalogBlock[] = ['image', 'title', 'summary', 'price'];

function decodeHandoff(h: Json, policy: UrlPolicy): MobileHandoff {
  switch (h.mode) {
    case 'neutral_only':
      onlyKeys(h, ['mode', 'heading', 'body', 'actionLabel', 'url']);
      literal(h.actionLabel, CONTINUE_LABEL);
      return { mode: 'neutral_only', heading: nonEmpty(h.heading), body: nonEmpty(h.body), url: httpsUrl(h.url, policy) };
    case 'share_or_neutral': {
      onlyKeys(h, [
        'mode', 'heading', 'body', 'recipient', 'dataShared', 'purpose', 'compensationDisclosure', 'policyUrls',
        'primary', 'secondary',
      ]);
      const recipient = object(h.recipient);
      onlyKeys(recipient, ['legal_name', 'privacy_contact']);
      const policies = object(h.policyUrls);
      const primary = object(h.primary);
      onlyKeys(primary, ['actionLabel', 'sessionCreationPath', 'disclosureVersion']);
      literal(primary.actionLabel, SHARE_LABEL);
      literal(primary.sessionCreationPath, SESSION_CREATION_PATH);
      const secondary = object(h.secondary);
      onlyKeys(secondary, ['actionLabel', 'url']);
      literal(secondary.actionLabel, CONTINUE_WITHOUT_SHARING_LABEL);
      return {
        mode: 'share_or_neutral',
        heading: nonEmpty(h.heading),
        body: nonEmpty(h.body),
        recipient: { legalName: nonEmpty(recipient.legal_name), privacyContact: nonEmpty(recipient.privacy_contact) },
        dataShared: strings(h.dataShared),
        purpose: string(h.purpose),
        compensationDisclosure: string(h.compensationDisclosure),
        policyUrls: Object.keys(policies).sort().map((name) => [name, httpsUrl(policies[name], policy)] as [string, string]),
        disclosureVersion: nonEmpty(primary.disclosureVersion),
        neutralUrl: httpsUrl(secondary.url, policy),
      };
    }
    default:
      return fail();
  }
}

/**
 * Decodes a card strictly, as BatonCore's `CatalogCard` does; null when a renderer must leave it out. The handoff
 * object rejects unknown modes, changed literals, non-https URLs and any extra key; the card's own top level ignores
 * unknown keys; `block_order` names image, title, summary and price exactly once each. URLs must be https, or
 * loopback http under the development policy.
 */
export function decodeCatalogCard(json: unknown, policy: UrlPolicy = PRODUCTION_URL_POLICY): CatalogCard | null {
  try {
    const card = object(json);
    const id = nonEmpty(card.id);
    const order = strings(object(card.presentation_contract).block_order);
    if (order.length !== BLOCKS.length || new Set(order).size !== BLOCKS.length) fail();
    if (!order.every((b) => (BLOCKS as string[]).includes(b))) fail();
    const title = nonEmpty(card.title);
    const summary = nonEmpty(card.summary);
    const priceText = nonEmpty(card.priceText);
    const image = object(card.image);
    const imageUrl = httpsUrl(image.url, policy);
    const alt = string(image.alt);
    const handoff = decodeHandoff(object(card.handoff), policy);
    return { id, blockOrder: order as CatalogBlock[], title, summary, priceText, image: { url: imageUrl, alt }, handoff };
  } catch (error) {
    if (error instanceof InvalidCard) return null;
    throw error;
  }
}
