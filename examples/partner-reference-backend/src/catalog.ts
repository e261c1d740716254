// Chia's catalog, fetched on a schedule with its ETag, images mirrored at this backend's own neutral URL.
import { createHash } from "node:crypto";
import { Config } from "./config";
import { json, Problem, Request, Response } from "./http";
import { call, timeoutSignal } from "./providers";
import { CatalogCard, ChiaCatalogItem, projectCard, ServiceStateEvidence } from "./renderer-contract";

interface Mirrored {
  bytes: Buffer;
  contentType: string;
}

export class Catalog {
  private items: ChiaCatalogItem[] = [];
  private loaded = false;
  private etag?: string;
  /** Image URL by Chia asset id, and the bytes by file name (`<sha256>.<ext>`). */
  private imageURLs = new Map<string, string>();
  private files = new Map<string, Mirrored>();

  constructor(private readonly config: Config) {}

  get isLoaded(): boolean {
    return this.loaded;
  }

  /** One sync: a changed publication replaces the items and mirrors any image not mirrored yet. */
  async sync(): Promise<void> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.config.chia.apiKey}` };
    if (this.etag) headers["if-none-match"] = this.etag;
    const answer = await call("GET", `${this.config.chia.origin}/v2/catalog`, headers);
    if (answer.status === 304) return;
    if (answer.status !== 200 || !Array.isArray(answer.body?.items)) throw new Error(`catalog answered ${answer.status}`);
    const items = answer.body.items as ChiaCatalogItem[];
    for (const item of items) {
      if (item.imageAssetId && !this.imageURLs.has(item.imageAssetId)) await this.mirror(item.imageAssetId);
    }
    this.items = items;
    this.etag = answer.headers.get("etag") ?? undefined;
    this.loaded = true;
  }

  private async mirror(assetId: string): Promise<void> {
    const url = `${this.config.chia.origin}/v2/assets/${encodeURIComponent(assetId)}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${this.config.chia.apiKey}` }, signal: timeoutSignal(10000) });
    const type = response.headers.get("content-type") ?? "";
    const ext = type === "image/png" ? "png" : type === "image/jpeg" ? "jpg" : undefined;
    if (response.status !== 200 || !ext) return; // not mirrored: the item stays hidden
    const bytes = Buffer.from(await response.arrayBuffer());
    const name = `${createHash("sha256").update(bytes).digest("hex")}.${ext}`;
    this.files.set(name, { bytes, contentType: type });
    this.imageURLs.set(assetId, `${this.config.publicOrigin}/assets/${name}`);
  }

  /** The cards this user sees now, hidden items left out. */
  cards(evidence: ServiceStateEvidence | undefined): CatalogCard[] {
    if (!this.loaded) throw new Problem(503, "catalog_unavailable", "The catalog is loading. Retry shortly.", { "retry-after": "1" });
    return this.items.flatMap((item) => {
      const image = item.imageAssetId ? this.imageURLs.get(item.imageAssetId) : undefined;
      const card = projectCard(item, image, evidence, this.config.allowLoopbackHTTP);
      return card ? [card] : [];
    });
  }

  /** The card for `itemId` as this user would see it now (the share's tap-time check). */
  card(itemId: string, evidence: ServiceStateEvidence | undefined): CatalogCard | undefined {
    return this.cards(evidence).find((card) => card.id === itemId);
  }

  asset(request: Request): Response {
    const file = this.files.get(request.params.file);
    if (!file) throw new Problem(404, "not_found", "Not found.");
    return { status: 200, headers: { "content-type": file.contentType, "cache-control": "public, max-age=604800, immutable" }, body: file.bytes };
  }

  route(evidence: ServiceStateEvidence | undefined): Response {
    return json(200, { items: this.cards(evidence) });
  }
}
