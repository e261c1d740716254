// Privue: POST /v2/verification-handoffs (a fresh single-use handoff URL each time, never cached) and
// GET /v2/verifications/{workflow} (the authoritative status: webhooks keep it current, a poll fills the gaps).
import { createHmac } from "node:crypto";
import { Config } from "./config";
import { json, noStore, Problem, problems, readObject, Request, Response } from "./http";
import { call, retryable, ProviderAnswer } from "./providers";

const FINAL = new Set(["approved", "rejected"]);

export class VerificationService {
  /** The verification id and last known status per (user, workflow). */
  private verifications = new Map<string, { id: string; status: string; updatedAt: string }>();

  constructor(private readonly config: Config) {}

  private get auth(): Record<string, string> {
    return { authorization: `Bearer ${this.config.privue.apiKey}` };
  }

  /** Privue sees a pseudonym, not your user id. */
  private userRef(user: string): string {
    return "u_" + createHmac("sha256", this.config.idempotencySecret).update(`privue.user-ref:${user}`).digest("hex").slice(0, 32);
  }

  async handoff(user: string, request: Request): Promise<Response> {
    const { workflow } = readObject(request.body, ["workflow"]);
    if (typeof workflow !== "string") throw problems.invalidRequest();
    if (!this.config.privue.workflows.includes(workflow)) throw new Problem(404, "unknown_workflow", "This workflow is not offered.");
    const origin = this.config.privue.origin;
    // Create-or-get: Privue is idempotent per user_ref + workflow.
    const created = await this.provider("POST", `${origin}/verifications`, {
      user_ref: this.userRef(user),
      workflow,
      return_url: this.config.privue.returnURL,
    });
    const id = created.body.id as string;
    this.remember(user, workflow, id, created.body.status, created.body.updated_at);
    const handoff = await this.provider("POST", `${origin}/verifications/${encodeURIComponent(id)}/handoff`);
    return json(200, { url: handoff.body.url, expiresInSeconds: handoff.body.expires_in_seconds }, noStore);
  }

  async status(user: string, request: Request): Promise<Response> {
    const known = this.verifications.get(`${user}\u0000${request.params.workflow}`);
    if (!known) throw problems.notFound();
    if (!FINAL.has(known.status)) {
      const current = await this.provider("GET", `${this.config.privue.origin}/verifications/${encodeURIComponent(known.id)}`);
      this.update(current.body.id, current.body.status, current.body.updated_at);
    }
    return json(200, { verificationId: known.id, status: known.status });
  }

  /** A verified `verification.updated` webhook; older news than what is stored changes nothing. */
  update(id: string, status: string, updatedAt: string): void {
    for (const known of this.verifications.values()) {
      if (known.id === id && updatedAt >= known.updatedAt) {
        known.status = status;
        known.updatedAt = updatedAt;
      }
    }
  }

  private remember(user: string, workflow: string, id: string, status: string, updatedAt: string): void {
    const key = `${user}\u0000${workflow}`;
    const known = this.verifications.get(key);
    if (known?.id === id) this.update(id, status, updatedAt);
    else this.verifications.set(key, { id, status, updatedAt });
  }

  private async provider(method: string, url: string, body?: unknown): Promise<ProviderAnswer> {
    let answer: ProviderAnswer;
    try {
      answer = await call(method, url, this.auth, body);
    } catch (error) {
      throw retryable(error);
    }
    if (answer.status === 429 || answer.status >= 500) throw retryable(undefined, answer);
    if (answer.status < 200 || answer.status > 299) throw problems.providerRejected();
    return answer;
  }
}
