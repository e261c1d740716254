// Calls to the three providers. Every call has a timeout; an answer is returned whatever its status, and a
// network failure or timeout becomes a typed `Unavailable`, so each route decides what the app may retry.
import { problems } from "./http";

export interface ProviderAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export class Unavailable extends Error {
  constructor(readonly reason: "timeout" | "network") {
    super(reason);
  }
}

export async function call(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
  timeoutMs = 10000
): Promise<ProviderAnswer> {
  let response: globalThis.Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
      signal: timeoutSignal(timeoutMs),
    });
  } catch (error) {
    throw new Unavailable((error as Error).name === "AbortError" ? "timeout" : "network");
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** A signal that aborts after `ms` (AbortSignal.timeout, which TypeScript 4.8's DOM library does not declare). */
export function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  (timer as unknown as { unref?: () => void }).unref?.();
  return controller.signal;
}

/** What the app should be told when a provider is limiting, failing or unreachable: retryable, with Retry-After. */
export function retryable(error: unknown, answer?: ProviderAnswer): Error {
  const after = Math.min(Math.max(Number(answer?.headers.get("retry-after") ?? "1") || 1, 1), 60);
  if (answer?.status === 429) return problems.providerRateLimited(after);
  if (error instanceof Unavailable && error.reason === "timeout") return problems.providerTimeout();
  return problems.providerUnavailable(after);
}
