// BB: POST /v2/connect-sessions (a hosted session returning to the callback the device can catch) and
// GET /v2/connect-sessions/{sessionId} (the outcome, read from BB; another user's session is 404).
import { Config } from "./config";
import { json, noStore, Problem, problems, readObject, Request, Response } from "./http";
import { call, retryable, ProviderAnswer } from "./providers";

type AppStatus = "pending" | "ok" | "error" | "cancelled" | "expired";

export class ConnectService {
  /** The owner of each session this backend created. */
  private owners = new Map<string, string>();

  constructor(private readonly config: Config) {}

  private get headers(): Record<string, string> {
    return { "x-api-key": this.config.bb.apiKey, "x-client-id": this.config.bb.clientId };
  }

  async create(user: string, request: Request): Promise<Response> {
    const { callback } = readObject(request.body, ["callback"]);
    if (callback !== "https" && callback !== "custom-scheme") throw problems.invalidRequest();
    const returnUrl = callback === "https" ? this.config.bb.returnURLs.https : this.config.bb.returnURLs.customScheme;
    if (!returnUrl) throw new Problem(422, "callback_unavailable", "No return URL is registered for this callback kind.");
    const created = await this.provider("POST", `${this.config.bb.origin}/v2/connect-sessions`, { returnUrl });
    const sessionId = created.body.sessionId as string;
    this.owners.set(sessionId, user);
    const url = new URL(returnUrl);
    const described =
      callback === "https"
        ? { kind: "https", host: url.host, path: url.pathname }
        : { kind: "custom-scheme", scheme: url.protocol.slice(0, -1) };
    return json(201, { sessionId, hostedUrl: created.body.hostedUrl, callback: described }, noStore);
  }

  async status(user: string, request: Request): Promise<Response> {
    const sessionId = request.params.sessionId;
    if (this.owners.get(sessionId) !== user) throw problems.notFound();
    const state = await this.provider("GET", `${this.config.bb.origin}/v2/connect-sessions/${encodeURIComponent(sessionId)}`);
    const body: Record<string, unknown> = { sessionId, status: appStatus(state.body) };
    if (state.body.connectionId) body.connectionId = state.body.connectionId;
    if (state.body.error) body.error = state.body.error;
    return json(200, body);
  }

  private async provider(method: string, url: string, body?: unknown): Promise<ProviderAnswer> {
    let answer: ProviderAnswer;
    try {
      answer = await call(method, url, this.headers, body);
    } catch (error) {
      throw retryable(error);
    }
    if (answer.status === 429 || answer.status >= 500) throw retryable(undefined, answer);
    if (answer.status < 200 || answer.status > 299) throw problems.providerRejected();
    return answer;
  }
}

/** BB's session as the app reads it. */
function appStatus(state: { status?: string; resultCode?: string | null }): AppStatus {
  if (state.status === "expired") return "expired";
  if (state.status !== "completed") return "pending";
  switch (state.resultCode) {
    case "Ok":
      return "ok";
    case "Cancelled":
      return "cancelled";
    default:
      return "error";
  }
}
