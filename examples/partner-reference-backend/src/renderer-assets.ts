// The web assets this backend serves next to the API: the landing page a browser shows when it loads a registered
// https return URL itself (docs/CONTRACTS.md §2.1), and the association files that make those URLs open the app.
import { createHash } from "node:crypto";
import { Response } from "./http";

const STYLE = "body{font:16px system-ui,sans-serif;margin:2rem auto;max-width:32rem;padding:0 1rem}a.back{display:block;padding:1rem;text-align:center;background:#0b5;color:#fff;border-radius:.5rem;text-decoration:none}";
const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

/** The landing page at `path`: the same page whatever the query says (it is never read or echoed). */
export function landingPage(path: string, customSchemeReturn?: string): Response {
  const customScheme = customSchemeReturn ? `<p><a href="${customSchemeReturn}">Open the app another way</a></p>` : "";
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Return to the app</title><style>${STYLE}</style></head>
<body><h1>Return to the app</h1><p>Go back to the app to see where things stand.</p>
<a class="back" href="https://open.app.example.com${path}">Return to the app</a>${customScheme}
<p>No app yet? Get it from the App Store or Google Play.</p></body></html>`;
  return {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-robots-tag": "noindex, nofollow",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "content-security-policy": `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
    body,
  };
}

/** `/.well-known/apple-app-site-association`: the return paths as universal links (BB *Mobile apps*). */
export function appleAppSiteAssociation(appIDs: string[], paths: string[]): unknown {
  return {
    applinks: { apps: [], details: [{ appIDs, components: paths.map((path) => ({ "/": path })) }] },
    webcredentials: { apps: appIDs },
  };
}
