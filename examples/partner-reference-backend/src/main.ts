// node dist/main.js — the reference backend on 127.0.0.1:PORT (see README.md for the environment).
import { createServer } from "node:http";
import { buildApp } from "./app";
import { loadConfig } from "./config";

const config = loadConfig(process.env);
const { router, catalog } = buildApp(config);
const log = (event: string, fields: Record<string, unknown> = {}) =>
  process.stderr.write(JSON.stringify({ level: "info", event, ...fields }) + "\n");

async function syncCatalog(): Promise<void> {
  try {
    await catalog.sync();
  } catch {
    log("catalog_sync_failed");
  }
}

const server = createServer(router.listener());
server.listen(config.port, process.env.HOST ?? "127.0.0.1", () => log("listening", { port: config.port }));
void syncCatalog();
const timer = setInterval(syncCatalog, 30_000);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    clearInterval(timer);
    server.close(() => process.exit(0));
  });
}
