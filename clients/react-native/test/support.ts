// Shared fakes for the flow tests: a scripted backend transport, memory storage and a manual clock.
import { BackendRequest, BackendResponse } from '../src/backend/BackendTransport';
import { BatonConfiguration, BatonScheduler, BatonStorage } from '../src/configuration';

export class MemoryStorage implements BatonStorage {
  readonly items = new Map<string, string>();
  readonly log: string[] = [];
  async getItem(key: string): Promise<string | null> {
    return this.items.get(key) ?? null;
  }
  async setItem(key: string, value: string): Promise<void> {
    this.log.push(`set ${key}=${value}`);
    this.items.set(key, value);
  }
  async removeItem(key: string): Promise<void> {
    this.log.push(`remove ${key}`);
    this.items.delete(key);
  }
}

/** A clock that moves only when the test says; timers fire in order as it passes them. */
export class ManualScheduler implements BatonScheduler {
  time = Date.parse('2026-01-01T00:00:00Z');
  private timers: Array<{ at: number; fire: () => void; cancelled: boolean }> = [];
  now(): number {
    return this.time;
  }
  schedule(atMillis: number, fire: () => void): () => void {
    const timer = { at: atMillis, fire, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }
  get pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
  advance(millis: number): void {
    this.time += millis;
    for (;;) {
      const due = this.timers.filter((t) => !t.cancelled && t.at <= this.time).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) return;
      due.cancelled = true;
      due.fire();
    }
  }
}

export type Route = (request: BackendRequest, path: string) => { status: number; body: unknown; headers?: Record<string, string> } | undefined;

/** A backend transport answering from `route` (404 otherwise), recording `METHOD path`. */
export class ScriptedBackend {
  readonly requests: string[] = [];
  readonly sent: BackendRequest[] = [];
  constructor(public route: Route) {}
  readonly transport = async (request: BackendRequest): Promise<BackendResponse> => {
    const path = request.url.replace(/^https:\/\/partner\.test/, '');
    this.requests.push(`${request.method} ${path}`);
    this.sent.push(request);
    const answer = this.route(request, path) ?? { status: 404, body: { code: 'not_found' } };
    const headers = answer.headers ?? {};
    return { status: answer.status, header: (name) => headers[name] ?? null, body: JSON.stringify(answer.body) };
  };
}

export const PRIVUE_RETURN = 'https://app.example.com/kyc/done';
export const BB_RETURNS = { https: 'https://app.example.com/bb-callback', customScheme: 'acmewallet://bb-callback' };

/** The signed-in user of the tests' configurations. */
export const USER_ID = 'user-1';

export function configuration(backend: ScriptedBackend, storage: BatonStorage, scheduler: BatonScheduler): BatonConfiguration {
  return {
    backendUrl: 'https://partner.test',
    tokenProvider: () => 'app-token',
    userId: USER_ID,
    storage,
    returnUrls: { privue: [PRIVUE_RETURN], bb: BB_RETURNS },
    transport: backend.transport,
    scheduler,
  };
}

/** Lets pending promise callbacks run (the fakes answer on the microtask queue). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
