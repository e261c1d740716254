// `baton serve --sandbox --port P` in a temporary directory, on 127.0.0.1 only: the backend on P, the Chia, Privue
// and BB simulators on P+1..P+3. The binary comes from $BATON (default .build/debug/baton at the repository root).
import { ChildProcess, spawn } from 'child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.on('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

function anyPort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** A port P with P..P+3 free right now. */
async function freePortBlock(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = await anyPort();
    if (base + 3 > 65535) continue;
    let free = true;
    for (let offset = 1; offset <= 3 && free; offset++) free = await portFree(base + offset);
    if (free) return base;
  }
  throw new Error('no block of four free ports on 127.0.0.1');
}

/** The path of the `baton` binary: $BATON, else .build/debug/baton at the repository root. */
export function batonBinary(): string {
  const repo = resolve(__dirname, '..', '..', '..', '..', '..');
  return process.env.BATON ?? join(repo, '.build', 'debug', 'baton');
}

export interface SandboxResponse {
  status: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One running `baton serve --sandbox`. */
export class Sandbox {
  readonly backend: string;
  readonly chia: string;
  readonly privue: string;
  readonly bb: string;
  private constructor(
    readonly port: number,
    private readonly process: ChildProcess,
    private readonly directory: string,
  ) {
    this.backend = `http://127.0.0.1:${port}`;
    this.chia = `http://127.0.0.1:${port + 1}`;
    this.privue = `http://127.0.0.1:${port + 2}`;
    this.bb = `http://127.0.0.1:${port + 3}`;
  }

  /** Starts the sandbox and waits (bounded) until `/readyz` answers 200: the store and a catalog publication loaded. */
  static async start(deadlineMillis = 90000): Promise<Sandbox> {
    const binary = batonBinary();
    if (!existsSync(binary)) throw new Error(`${binary} does not exist (make test builds it; or set BATON)`);
    const port = await freePortBlock();
    const directory = mkdtempSync(join(tmpdir(), 'rn-journeys-'));
    const log = openSync(join(directory, 'serve.log'), 'w');
    const child = spawn(binary, ['serve', '--sandbox', '--host', '127.0.0.1', '--port', String(port)], {
      cwd: directory,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const sandbox = new Sandbox(port, child, directory);
    const deadline = Date.now() + deadlineMillis;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`baton serve exited with ${child.exitCode}: ${sandbox.log()}`);
      try {
        const response = await fetch(`${sandbox.backend}/readyz`);
        await response.text();
        if (response.status === 200) return sandbox;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await sandbox.stop();
    throw new Error(`baton serve --sandbox was not ready within ${deadlineMillis} ms: ${sandbox.log()}`);
  }

  log(): string {
    try {
      return readFileSync(join(this.directory, 'serve.log'), 'utf8').slice(-2000);
    } catch {
      return '';
    }
  }

  /** A JSON call (control API or dev token). */
  async call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<SandboxResponse> {
    const init: { method: string; headers: Record<string, string>; body?: string } = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(url, init);
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: response.status, json };
  }

  /** This run's dev sign-in secret, which `baton serve --sandbox` writes in its folder (`.baton/dev-sign-in-secret`). */
  devSecret(): string {
    return readFileSync(join(this.directory, '.baton', 'dev-sign-in-secret'), 'utf8').trim();
  }

  /** A development token for `user` (`POST /web/dev-token`). */
  async token(user: string): Promise<string> {
    // The dev sign-in answers only with this run's secret.
    const secret = this.devSecret();
    const answer = await this.call('POST', `${this.backend}/web/dev-token?user=${encodeURIComponent(user)}`, undefined, {
      'X-Baton-Dev-Secret': secret,
    });
    if (answer.status !== 200 || typeof answer.json?.token !== 'string') throw new Error(`dev-token answered ${answer.status}`);
    return answer.json.token;
  }

  /** Moves the simulators' one clock (`POST /_sandbox/clock`). */
  async advanceClock(seconds: number): Promise<void> {
    const answer = await this.call('POST', `${this.privue}/_sandbox/clock`, { advanceSeconds: seconds });
    if (answer.status !== 200) throw new Error(`/_sandbox/clock answered ${answer.status}`);
  }

  async stop(): Promise<void> {
    if (this.process.exitCode === null) {
      const exited = new Promise<void>((done) => this.process.on('exit', () => done()));
      this.process.kill('SIGTERM');
      const timer = setTimeout(() => this.process.kill('SIGKILL'), 10000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.directory, { recursive: true, force: true });
  }
}
