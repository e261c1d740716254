// The few Node APIs the tests use, declared here because Debian ships no @types/node.
declare module 'node:test' {
  type Body = (context: { test: typeof test }) => void | Promise<void>;
  export function test(name: string, body: Body): Promise<void>;
  export function test(name: string, options: { skip?: string | boolean }, body: Body): Promise<void>;
  export function describe(name: string, body: () => void): void;
  export const it: typeof test;
}
declare module 'node:assert/strict' {
  function assert(value: unknown, message?: string): asserts value;
  namespace assert {
    function equal(actual: unknown, expected: unknown, message?: string): void;
    function deepEqual(actual: unknown, expected: unknown, message?: string): void;
    function notEqual(actual: unknown, expected: unknown, message?: string): void;
    function ok(value: unknown, message?: string): asserts value;
    function match(value: string, pattern: RegExp, message?: string): void;
    function doesNotMatch(value: string, pattern: RegExp, message?: string): void;
    function throws(block: () => unknown, expected?: unknown, message?: string): void;
    function rejects(promise: Promise<unknown>, expected?: unknown, message?: string): Promise<void>;
  }
  export = assert;
}
declare module 'fs' {
  export function readFileSync(path: string, encoding: 'utf8'): string;
  export function existsSync(path: string): boolean;
  export function readdirSync(path: string): string[];
  export function statSync(path: string): { isDirectory(): boolean };
}
declare module 'path' {
  export function join(...parts: string[]): string;
  export function dirname(path: string): string;
  export function resolve(...parts: string[]): string;
}
declare const process: { execPath: string; pid: number; exit(code?: number): never; kill(pid: number, signal?: string): boolean; env: Record<string, string | undefined>; cwd(): string; stdout: { write(text: string): void }; exitCode?: number };
declare module 'util' {
  export function format(...args: unknown[]): string;
}
declare module 'child_process' {
  export function spawnSync(
    command: string,
    args: string[],
    options: { encoding: 'utf8'; cwd?: string; env?: Record<string, string | undefined>; input?: string; timeout?: number },
  ): { status: number | null; stdout: string; stderr: string };
}
declare const __dirname: string;
declare function require(id: string): any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare module 'child_process' {
  export interface ChildProcess {
    pid?: number;
    exitCode: number | null;
    kill(signal?: string): boolean;
    on(event: 'exit', listener: (code: number | null) => void): this;
  }
  export function spawn(
    command: string,
    args: string[],
    options: { cwd?: string; stdio?: Array<'ignore' | 'pipe' | 'inherit' | number>; env?: Record<string, string | undefined>; detached?: boolean },
  ): ChildProcess;
}
declare module 'net' {
  export interface Server {
    listen(port: number, host: string, callback: () => void): this;
    address(): { port: number } | string | null;
    close(callback?: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }
  export function createServer(): Server;
}
declare module 'os' {
  export function tmpdir(): string;
}
declare module 'fs' {
  export function mkdtempSync(prefix: string): string;
  export function rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
  export function openSync(path: string, flags: string): number;
  export function closeSync(fd: number): void;
}
