// Configuration from the environment. The provider keys use the names `baton sandbox --env-file` writes, so the
// development loop is: `baton sandbox --env-file .env`, `set -a; . ./.env; set +a`, `node dist/main.js`.

export interface Config {
  port: number;
  /** Where the app reaches this backend; mirrored catalog images are served under it. */
  publicOrigin: string;
  chia: { origin: string; apiKey: string };
  privue: { origin: string; apiKey: string; webhookSecret: string; returnURL: string; workflows: string[] };
  bb: {
    origin: string;
    apiKey: string;
    clientId: string;
    webhookSecret: string;
    returnURLs: { https: string; customScheme?: string };
  };
  /** Signs app tokens (your own sign-in replaces this) and derives the Idempotency-Key sent to Chia. */
  tokenSigningKey: string;
  idempotencySecret: string;
  appleAppIDs: string[];
  /** Accept plain http provider and journey URLs on loopback (a local `baton sandbox`); never in production. */
  allowLoopbackHTTP: boolean;
}

function required(env: Record<string, string | undefined>, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const port = Number(env.PORT ?? "8080");
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error("PORT must be a port number");
  const sandbox = env.SANDBOX_ORIGIN; // a `baton sandbox --port P`: Chia on P, Privue on P+1, BB on P+2
  const next = (offset: number) => {
    if (!sandbox) return undefined;
    const url = new URL(sandbox);
    return `${url.protocol}//${url.hostname}:${Number(url.port) + offset}`;
  };
  return {
    port,
    publicOrigin: env.PUBLIC_ORIGIN ?? `http://127.0.0.1:${port}`,
    chia: { origin: env.CHIA_ORIGIN ?? next(0) ?? required(env, "CHIA_ORIGIN"), apiKey: required(env, "BATON_CHIA_API_KEY") },
    privue: {
      origin: env.PRIVUE_ORIGIN ?? next(1) ?? required(env, "PRIVUE_ORIGIN"),
      apiKey: required(env, "BATON_PRIVUE_API_KEY"),
      webhookSecret: required(env, "BATON_PRIVUE_WEBHOOK_SECRET"),
      returnURL: env.PRIVUE_RETURN_URL ?? "https://app.example.com/kyc/done",
      workflows: (env.PRIVUE_WORKFLOWS ?? "merchant-onboarding").split(","),
    },
    bb: {
      origin: env.BB_ORIGIN ?? next(2) ?? required(env, "BB_ORIGIN"),
      apiKey: required(env, "BATON_BB_API_KEY"),
      clientId: required(env, "BATON_BB_CLIENT_ID"),
      webhookSecret: required(env, "BATON_BB_WEBHOOK_SECRET"),
      returnURLs: {
        https: env.BB_RETURN_URL ?? "https://app.example.com/bb-callback",
        customScheme: env.BB_CUSTOM_SCHEME_RETURN_URL ?? "acmewallet://bb-callback",
      },
    },
    tokenSigningKey: required(env, "BATON_TOKEN_SIGNING_KEY"),
    idempotencySecret: required(env, "BATON_IDEMPOTENCY_SECRET"),
    appleAppIDs: (env.APPLE_APP_IDS ?? "ABCDE12345.com.example.wallet").split(","),
    allowLoopbackHTTP: env.ALLOW_LOOPBACK_HTTP === "1",
  };
}
