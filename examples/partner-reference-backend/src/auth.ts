// App tokens. Your backend already signs its users in; keep that and replace this file. What the contract needs is
// only: every /v2 route refuses a missing or bad token with the same bare 401 unauthorized.
import { createHmac, timingSafeEqual } from "node:crypto";
import { problems, Request } from "./http";

const PREFIX = "rb1";

export function mintToken(key: string, user: string, ttlSeconds = 3600): string {
  const payload = Buffer.from(JSON.stringify({ sub: user, exp: Math.floor(Date.now() / 1000) + ttlSeconds })).toString("base64url");
  const signature = createHmac("sha256", key).update(`${PREFIX}.${payload}`).digest("base64url");
  return `${PREFIX}.${payload}.${signature}`;
}

/** The signed-in user of `request`, or a thrown 401. */
export function authenticate(key: string, request: Request): string {
  const match = /^Bearer ([A-Za-z0-9._-]+)$/.exec(request.headers["authorization"] ?? "");
  const parts = match ? match[1].split(".") : [];
  if (parts.length !== 3 || parts[0] !== PREFIX) throw problems.unauthorized();
  const expected = createHmac("sha256", key).update(`${PREFIX}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], "base64url");
  // Only the canonical encoding: a lenient decoder would let two spellings of one signature through.
  if (given.toString("base64url") !== parts[2]) throw problems.unauthorized();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw problems.unauthorized();
  let claims: { sub?: unknown; exp?: unknown };
  try {
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  } catch {
    throw problems.unauthorized();
  }
  const { sub, exp } = claims;
  // eslint-disable-next-line no-control-regex
  if (typeof sub !== "string" || sub === "" || /[\u0000-\u001f\u007f-\u009f]/.test(sub)) throw problems.unauthorized();
  if (typeof exp !== "number" || exp <= Date.now() / 1000) throw problems.unauthorized();
  return sub;
}
