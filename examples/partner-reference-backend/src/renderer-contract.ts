// The closed projection the app renders (seed 000, "Mobile handoff examples"), and the decision that produces it.
// The app receives presentation fields plus exactly one of these two handoffs; nothing else from Chia's catalog
// (no API key, no authenticated asset URL, no raw catalog object, no patient or order status) reaches it.

/** Chia's catalog item as `GET /v2/catalog` sends it (what this backend reads; never sent to the app). */
export interface ChiaCatalogItem {
  id: string;
  status: string;
  title?: string;
  summary?: string;
  priceText?: string;
  imageAssetId?: string;
  imageAltText?: string;
  presentation_contract?: { block_order?: string[] };
  regions: string[];
  sharingAllowed: boolean;
  neutralHeading?: string;
  neutralBody?: string;
  neutralUrl?: string;
  disclosure?: {
    disclosureVersion: string;
    heading: string;
    body: string;
    recipient: { legal_name: string; privacy_contact: string };
    dataShared: string[];
    purpose: string;
    compensationDisclosure: string;
    policyUrls: Record<string, string>;
  };
}

export type MobileHandoff =
  | {
      mode: "neutral_only";
      heading: string;
      body: string;
      actionLabel: "Continue to Chia";
      url: string;
    }
  | {
      mode: "share_or_neutral";
      heading: string;
      body: string;
      recipient: { legal_name: string; privacy_contact: string };
      dataShared: readonly string[];
      purpose: string;
      compensationDisclosure: string;
      policyUrls: Record<string, string>;
      primary: {
        actionLabel: "Share selection and continue";
        sessionCreationPath: "/v2/handoff-sessions";
        disclosureVersion: string;
      };
      secondary: { actionLabel: "Continue without sharing"; url: string };
    };

export type Block = "image" | "title" | "summary" | "price";

/** One card of `GET /v2/catalog`: presentation fields in `block_order`, then the handoff. */
export interface CatalogCard {
  id: string;
  presentation_contract: { block_order: Block[] };
  title: string;
  summary: string;
  priceText: string;
  image: { url: string; alt: string };
  handoff: MobileHandoff;
}

/** What your account service knows about the signed-in user, derived fresh at request time. */
export interface ServiceStateEvidence {
  authenticated: boolean;
  accountState: string;
  region: string;
}

const BLOCKS: Block[] = ["image", "title", "summary", "price"];

/** An https URL, or loopback http when `allowLoopbackHTTP` (a local `baton sandbox`). */
export function isAllowedURL(text: string | undefined, allowLoopbackHTTP: boolean): text is string {
  if (!text) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === "https:") return true;
  return allowLoopbackHTTP && url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

/**
 * The card for `item` and this user, or `undefined` when it is hidden. `mirroredImageURL` is the image at this
 * backend's neutral URL (undefined when mirroring failed: the item is hidden rather than shown without it).
 */
export function projectCard(
  item: ChiaCatalogItem,
  mirroredImageURL: string | undefined,
  evidence: ServiceStateEvidence | undefined,
  allowLoopbackHTTP: boolean
): CatalogCard | undefined {
  if (item.status !== "published" || !mirroredImageURL) return undefined;
  const order = item.presentation_contract?.block_order ?? [];
  const complete =
    item.title && item.summary && item.priceText && item.imageAltText &&
    order.length === 4 && BLOCKS.every((block) => order.includes(block));
  if (!complete || !isAllowedURL(item.neutralUrl, allowLoopbackHTTP)) return undefined;
  const card = (handoff: MobileHandoff): CatalogCard => ({
    id: item.id,
    presentation_contract: { block_order: order as Block[] },
    title: item.title!,
    summary: item.summary!,
    priceText: item.priceText!,
    image: { url: mirroredImageURL, alt: item.imageAltText! },
    handoff,
  });
  const neutral: MobileHandoff = {
    mode: "neutral_only",
    heading: item.neutralHeading ?? "Continue to Chia",
    body: item.neutralBody ?? "You will continue to Chia without sharing anything from this app.",
    actionLabel: "Continue to Chia",
    url: item.neutralUrl!,
  };
  // Missing or unusable evidence fails safe: neutral only, never a share.
  if (!evidence || !evidence.authenticated) return card(neutral);
  if (!item.regions.map((r) => r.toLowerCase()).includes(evidence.region.toLowerCase())) return undefined;
  if (evidence.accountState !== "active" || !item.sharingAllowed || !item.disclosure) return card(neutral);
  const d = item.disclosure;
  if (!Object.values(d.policyUrls).every((url) => isAllowedURL(url, false))) return card(neutral);
  return card({
    mode: "share_or_neutral",
    heading: d.heading,
    body: d.body,
    recipient: { legal_name: d.recipient.legal_name, privacy_contact: d.recipient.privacy_contact },
    dataShared: d.dataShared,
    purpose: d.purpose,
    compensationDisclosure: d.compensationDisclosure,
    policyUrls: d.policyUrls,
    primary: {
      actionLabel: "Share selection and continue",
      sessionCreationPath: "/v2/handoff-sessions",
      disclosureVersion: d.disclosureVersion,
    },
    secondary: { actionLabel: "Continue without sharing", url: item.neutralUrl! },
  });
}
