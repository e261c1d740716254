// Standard Webhooks receivers (POST /webhooks/privue, POST /webhooks/bb): verify the signature over
// "<webhook-id>.<webhook-timestamp>.<body>" with the provider's whsec_ secret, refuse a timestamp more than five
// minutes off, dedupe by webhook-id, then apply and answer 2xx. A refusal never says why (it is only logged).
import { createHmac, timingSafeEqual } from "node:crypto";
import { json, Problem, Request, Response } from "./http";

const TOLERANCE_SECONDS = 5 * 60;
const SEEN_FOR_MS = 7 * 24 * 3600 * 1000;

export class WebhookReceiver {
  private seen = new Map<string, number>();

  constructor(
    private readonly provider: string,
    secret: string,
    private readonly apply: (event: { type: string; data: any }) => void
  ) {
    if (!secret.startsWith("whsec_")) throw new Error(`${provider}: the webhook secret must start with whsec_`);
    this.key = Buffer.from(secret.slice("whsec_".length), "base64");
  }

  private readonly key: Buffer;

  receive(request: Request): Response {
    const id = request.headers["webhook-id"];
    const timestamp = request.headers["webhook-timestamp"];
    const signatures = request.headers["webhook-signature"];
    if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) {
      throw this.refuse(400, "webhook_malformed", "missing_headers");
    }
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
      throw this.refuse(401, "webhook_rejected", "timestamp_out_of_tolerance");
    }
    const expected = createHmac("sha256", this.key)
      .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), request.body]))
      .digest();
    const matches = signatures.split(" ").some((entry) => {
      const [version, value] = entry.split(",", 2);
      const given = Buffer.from(value ?? "", "base64");
      return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!matches) throw this.refuse(401, "webhook_rejected", "signature_mismatch");
    let event: { type?: unknown; data?: unknown };
    try {
      event = JSON.parse(request.body.toString("utf8"));
    } catch {
      throw this.refuse(400, "webhook_malformed", "not_json");
    }
    if (typeof event.type !== "string" || typeof event.data !== "object" || event.data === null) {
      throw this.refuse(400, "webhook_malformed", "unknown_shape");
    }
    this.forgetOld();
    if (this.seen.has(id)) return json(200, { status: "duplicate" });
    this.apply({ type: event.type, data: event.data });
    this.seen.set(id, Date.now());
    return json(200, { status: "accepted" });
  }

  private refuse(status: number, code: string, reason: string): Problem {
    process.stderr.write(JSON.stringify({ level: "warning", event: "webhook_rejected", provider: this.provider, reason }) + "\n");
    return new Problem(status, code, status === 400 ? "Standard Webhooks headers required." : "The delivery could not be verified.");
  }

  private forgetOld(): void {
    const cutoff = Date.now() - SEEN_FOR_MS;
    for (const [id, at] of this.seen) if (at < cutoff) this.seen.delete(id);
  }
}
