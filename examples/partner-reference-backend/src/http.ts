// A small router over node:http, RFC 9457 problems, and the JSON body reader every route uses.
import { IncomingMessage, ServerResponse } from "node:http";

export interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: Buffer;
  params: Record<string, string>;
}

export interface Response {
  status: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export type Handler = (request: Request) => Promise<Response> | Response;

/** An error that renders itself as `application/problem+json` (docs/CONTRACTS.md §2, "Problem codes"). */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly headers: Record<string, string> = {}
  ) {
    super(code);
  }

  response(): Response {
    const body = { type: `https://baton.dev/problems/${this.code}`, title: this.title, status: this.status, code: this.code };
    return { status: this.status, headers: { "content-type": "application/problem+json", ...this.headers }, body: JSON.stringify(body) };
  }
}

export const problems = {
  unauthorized: () => new Problem(401, "unauthorized", "Sign in again.", { "www-authenticate": "Bearer" }),
  invalidRequest: () => new Problem(400, "invalid_request", "The request body is not valid."),
  notFound: () => new Problem(404, "not_found", "No such resource for this user."),
  methodNotAllowed: (allow: string) => new Problem(405, "method_not_allowed", "Method not allowed.", { allow }),
  providerUnavailable: (retryAfter = 1) =>
    new Problem(502, "provider_unavailable", "The provider could not be reached. Retry later.", { "retry-after": String(retryAfter) }),
  providerTimeout: (retryAfter = 1) =>
    new Problem(503, "provider_timeout", "The provider did not answer in time. Retry later.", { "retry-after": String(retryAfter) }),
  providerRateLimited: (retryAfter = 1) =>
    new Problem(429, "provider_rate_limited", "The provider is busy. Retry later.", { "retry-after": String(retryAfter) }),
  providerRejected: () => new Problem(502, "provider_rejected", "The provider refused the request."),
};

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(value) };
}

/** Journey URLs are single-use and short-lived: never cached anywhere (§2). */
export const noStore = { "cache-control": "no-store", pragma: "no-cache" };

/** The body as a JSON object with exactly `keys` (each optional one may be absent), else 400 invalid_request. */
export function readObject(body: Buffer, required: string[], optional: string[] = []): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw problems.invalidRequest();
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw problems.invalidRequest();
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  if (!required.every((key) => keys.includes(key))) throw problems.invalidRequest();
  if (!keys.every((key) => required.includes(key) || optional.includes(key))) throw problems.invalidRequest();
  return object;
}

interface Route {
  method: string;
  parts: string[];
  handler: Handler;
}

export class Router {
  private routes: Route[] = [];

  on(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, parts: pattern.split("/"), handler });
    return this;
  }

  async respond(request: Request): Promise<Response> {
    const parts = request.path.split("/");
    const matching = this.routes.filter(
      (route) => route.parts.length === parts.length && route.parts.every((part, i) => part.startsWith("{") || part === parts[i])
    );
    if (matching.length === 0) return new Problem(404, "not_found", "Not found.").response();
    const route = matching.find((candidate) => candidate.method === request.method || (request.method === "HEAD" && candidate.method === "GET"));
    if (!route) return problems.methodNotAllowed(matching.map((r) => r.method).join(", ")).response();
    route.parts.forEach((part, i) => {
      if (part.startsWith("{")) request.params[part.slice(1, -1)] = decodeURIComponent(parts[i]);
    });
    try {
      return await route.handler(request);
    } catch (error) {
      if (error instanceof Problem) return error.response();
      // Never the error's text: it may hold a provider answer or a URL.
      process.stderr.write(JSON.stringify({ level: "error", event: "unhandled", route: route.parts.join("/") }) + "\n");
      return new Problem(500, "internal_error", "Something went wrong.").response();
    }
  }

  /** The node:http listener: reads the body (at most 64 KiB), answers, logs one line without the query. */
  listener(): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
    return (incoming, outgoing) => {
      const chunks: Buffer[] = [];
      let size = 0;
      incoming.on("data", (chunk) => {
        size += chunk.length;
        if (size > 65536) incoming.destroy();
        else chunks.push(chunk);
      });
      incoming.on("end", () => {
        const url = new URL(incoming.url ?? "/", "http://localhost");
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
        }
        const request: Request = {
          method: incoming.method ?? "GET",
          path: url.pathname,
          query: url.searchParams,
          headers,
          body: Buffer.concat(chunks),
          params: {},
        };
        this.respond(request).then((response) => {
          outgoing.statusCode = response.status;
          for (const [name, value] of Object.entries(response.headers ?? {})) outgoing.setHeader(name, value);
          outgoing.end(request.method === "HEAD" ? undefined : response.body);
        });
      });
    };
  }
}
