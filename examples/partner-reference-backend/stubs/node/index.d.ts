// The few Node 20 declarations this backend uses, with the signatures of the published @types/node (v20) trimmed to
// what is called here. No npm registry is reachable on the build machines, and Debian ships no @types/node; a team
// with npm deletes this folder and adds @types/node instead.

declare module "node:http" {
  interface IncomingHttpHeaders {
    [name: string]: string | string[] | undefined;
  }
  class IncomingMessage {
    method?: string;
    url?: string;
    headers: IncomingHttpHeaders;
    socket: { remoteAddress?: string };
    on(event: "data", listener: (chunk: Buffer) => void): this;
    on(event: "end" | "close", listener: () => void): this;
    on(event: "error", listener: (error: Error) => void): this;
    destroy(error?: Error): this;
  }
  class ServerResponse {
    statusCode: number;
    headersSent: boolean;
    setHeader(name: string, value: number | string | readonly string[]): this;
    end(chunk?: string | Uint8Array, callback?: () => void): this;
  }
  class Server {
    listen(port: number, hostname: string, listeningListener?: () => void): this;
    close(callback?: (error?: Error) => void): this;
    address(): { port: number; address: string } | string | null;
  }
  function createServer(
    requestListener: (request: IncomingMessage, response: ServerResponse) => void
  ): Server;
}

declare module "node:crypto" {
  interface Hmac {
    update(data: string | Uint8Array): Hmac;
    digest(): Buffer;
    digest(encoding: "hex" | "base64" | "base64url"): string;
  }
  interface Hash {
    update(data: string | Uint8Array): Hash;
    digest(): Buffer;
    digest(encoding: "hex" | "base64" | "base64url"): string;
  }
  function createHmac(algorithm: string, key: string | Uint8Array): Hmac;
  function createHash(algorithm: string): Hash;
  function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
  function randomUUID(): string;
}

interface Buffer extends Uint8Array {
  toString(encoding?: "utf8" | "hex" | "base64" | "base64url"): string;
  equals(other: Uint8Array): boolean;
}
declare const Buffer: {
  from(data: string, encoding?: "utf8" | "hex" | "base64" | "base64url"): Buffer;
  from(data: ArrayBuffer | Uint8Array | readonly number[]): Buffer;
  concat(list: readonly Uint8Array[]): Buffer;
  byteLength(text: string, encoding?: "utf8"): number;
};

declare const process: {
  env: Record<string, string | undefined>;
  argv: string[];
  exitCode?: number;
  exit(code?: number): never;
  on(event: "SIGTERM" | "SIGINT", listener: () => void): void;
  stdout: { write(text: string): boolean };
  stderr: { write(text: string): boolean };
};
