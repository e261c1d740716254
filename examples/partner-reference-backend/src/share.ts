// POST /v2/handoff-sessions — the Chia share and its idempotency table (docs/CONTRACTS.md §2).
//
// The app's Idempotency-Key is scoped to its user here; Chia dedupes per partner, so the key sent to Chia is
// derived from (user, app key) and never the app's own. One record per (user, key): a second request with the same
// key joins the one in flight, replays a finished answer, or is refused when its body differs. Retryable failures
// (network, timeout, 429, 5xx) record nothing, so the app's retry with the same key and body proceeds.
//
// Records live in memory here: one process. With several instances, keep them in your database with a unique
// (user, key) row claimed before calling Chia; the derived key makes a retry on another instance safe too.
import { createHmac } from "node:crypto";
import { Catalog } from "./catalog";
import { Config } from "./config";
import { json, noStore, Problem, problems, readObject, Request, Response } from "./http";
import { call, retryable, ProviderAnswer } from "./providers";
import { ServiceStateEvidence } from "./renderer-contract";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const RECORD_LIFETIME_MS = 24 * 3600 * 1000;

interface Finished {
  status: number;
  body: string;
  /** A created session's URL expires; past this its replay is 410 handoff_expired. */
  expiresAt?: number;
}

interface IdempotencyRecord {
  fingerprint: string;
  createdAt: number;
  running?: Promise<void>;
  finished?: Finished;
}

export class ShareService {
  private records = new Map<string, IdempotencyRecord>();

  constructor(
    private readonly config: Config,
    private readonly catalog: Catalog,
    private readonly evidence: (user: string) => ServiceStateEvidence | undefined
  ) {}

  /** The key sent to Chia: HMAC(secret, parts) cut to a UUIDv4, the same rule as `baton serve`. */
  providerKey(user: string, appKey: string): string {
    const hmac = createHmac("sha256", Buffer.from(this.config.idempotencySecret, "base64"));
    for (const part of ["baton.provider-idempotency.v1", "chia.handoff-sessions", user, appKey]) {
      hmac.update(`${Buffer.byteLength(part)}:`).update(part);
    }
    const bytes = hmac.digest().subarray(0, 16);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Buffer.from(bytes).toString("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  async handle(user: string, request: Request): Promise<Response> {
    const key = request.headers["idempotency-key"] ?? "";
    if (!UUID_V4.test(key)) throw new Problem(400, "idempotency_key_invalid", "Idempotency-Key must be a UUIDv4.");
    const body = readObject(request.body, ["catalogItemId", "disclosureVersion", "affirmed", "affirmedAt"]);
    const { catalogItemId, disclosureVersion, affirmed, affirmedAt } = body;
    if (typeof catalogItemId !== "string" || typeof disclosureVersion !== "string" || affirmed !== true ||
        typeof affirmedAt !== "string" || !RFC3339.test(affirmedAt)) {
      throw problems.invalidRequest();
    }
    const share = { catalogItemId, disclosureVersion, affirmed, affirmedAt };
    const fingerprint = JSON.stringify(share); // members in one fixed order, so key order in the request does not matter
    const id = `${user}\u0000${key}`;
    this.forgetOld();
    for (;;) {
      const record = this.records.get(id);
      if (!record) break;
      if (record.fingerprint !== fingerprint) {
        throw new Problem(422, "idempotency_key_reused", "This key was used with another body.");
      }
      if (record.running) {
        await record.running; // a double tap or a racing retry joins the request in flight
        continue;
      }
      if (record.finished) return this.replay(record.finished);
    }
    let done!: () => void;
    const record: IdempotencyRecord = { fingerprint, createdAt: Date.now(), running: new Promise((resolve) => (done = resolve)) };
    this.records.set(id, record);
    try {
      const finished = await this.create(user, key, share);
      record.finished = finished;
      return answer(finished, false);
    } catch (error) {
      this.records.delete(id); // retryable: nothing final recorded
      throw error;
    } finally {
      record.running = undefined;
      done();
    }
  }

  private async create(user: string, key: string, share: { catalogItemId: string; disclosureVersion: string }): Promise<Finished> {
    // Tap time: the item must still be offered to this user for sharing, at this disclosure version.
    const card = this.catalog.card(share.catalogItemId, this.evidence(user));
    if (card?.handoff.mode !== "share_or_neutral" || card.handoff.primary.disclosureVersion !== share.disclosureVersion) {
      return finished(new Problem(409, "projection_changed", "The offer changed. Fetch the catalog again."));
    }
    let response: ProviderAnswer | undefined;
    try {
      response = await call(
        "POST",
        `${this.config.chia.origin}/v2/handoff-sessions`,
        { authorization: `Bearer ${this.config.chia.apiKey}`, "idempotency-key": this.providerKey(user, key) },
        share
      );
    } catch (error) {
      throw retryable(error);
    }
    if (response.status === 201 && typeof response.body?.url === "string") {
      const { url, expiresAt } = response.body;
      return { status: 201, body: JSON.stringify({ url, expiresAt }), expiresAt: Date.parse(expiresAt) };
    }
    if (response.status === 429 || response.status >= 500) throw retryable(undefined, response);
    // A definitive refusal: recorded, and replayed for this key.
    const code = response.body?.code;
    if (response.status === 404 || response.status === 409) {
      return finished(new Problem(409, "projection_changed", "The offer changed. Fetch the catalog again."));
    }
    if (response.status === 410) return finished(new Problem(410, "handoff_expired", "This link has expired."));
    if (response.status === 422 && code === "idempotency_key_reused") {
      return finished(new Problem(422, "idempotency_key_reused", "This key was used with another body."));
    }
    return finished(new Problem(422, "handoff_rejected", "Chia refused this share."));
  }

  private replay(record: Finished): Response {
    if (record.status === 201 && record.expiresAt !== undefined && record.expiresAt <= Date.now()) {
      return new Problem(410, "handoff_expired", "This link has expired.").response();
    }
    return answer(record, true);
  }

  private forgetOld(): void {
    const cutoff = Date.now() - RECORD_LIFETIME_MS;
    for (const [id, record] of this.records) if (!record.running && record.createdAt < cutoff) this.records.delete(id);
  }
}

function finished(problem: Problem): Finished {
  const response = problem.response();
  return { status: response.status, body: String(response.body) };
}

function answer(record: Finished, replayed: boolean): Response {
  const replay: Record<string, string> = replayed ? { "idempotent-replayed": "true" } : {};
  if (record.status === 201) return { ...json(201, JSON.parse(record.body), { ...noStore, ...replay }) };
  return { status: record.status, headers: { "content-type": "application/problem+json", ...replay }, body: record.body };
}
