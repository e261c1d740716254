// Every route of the app-facing contract (docs/CONTRACTS.md §2) in one table.
import { authenticate } from "./auth";
import { ConnectService } from "./bb";
import { Catalog } from "./catalog";
import { Config } from "./config";
import { json, Request, Response, Router } from "./http";
import { VerificationService } from "./privue";
import { appleAppSiteAssociation, landingPage } from "./renderer-assets";
import { ServiceStateEvidence } from "./renderer-contract";
import { ShareService } from "./share";
import { WebhookReceiver } from "./webhooks";

/**
 * What your account service knows about the user, derived now. This reference signs in no real accounts, so every
 * signed-in user is an active account in the US; replace it with a read of your own account data.
 */
function evidenceFor(_user: string): ServiceStateEvidence {
  return { authenticated: true, accountState: "active", region: "US" };
}

export function buildApp(config: Config): { router: Router; catalog: Catalog } {
  const catalog = new Catalog(config);
  const shares = new ShareService(config, catalog, evidenceFor);
  const verifications = new VerificationService(config);
  const connect = new ConnectService(config);
  const privueHooks = new WebhookReceiver("privue", config.privue.webhookSecret, (event) => {
    if (event.type === "verification.updated") verifications.update(event.data.id, event.data.status, event.data.updated_at);
  });
  // BB's outcome is read from BB when the app asks; its webhooks are verified and acknowledged.
  const bbHooks = new WebhookReceiver("bb", config.bb.webhookSecret, () => undefined);

  const user = (request: Request) => authenticate(config.tokenSigningKey, request);
  const returnPaths = [new URL(config.bb.returnURLs.https).pathname, new URL(config.privue.returnURL).pathname];
  const router = new Router()
    .on("GET", "/v2/catalog", (r) => catalog.route(evidenceFor(user(r))))
    .on("POST", "/v2/handoff-sessions", (r) => shares.handle(user(r), r))
    .on("POST", "/v2/verification-handoffs", (r) => verifications.handoff(user(r), r))
    .on("GET", "/v2/verifications/{workflow}", (r) => verifications.status(user(r), r))
    .on("POST", "/v2/connect-sessions", (r) => connect.create(user(r), r))
    .on("GET", "/v2/connect-sessions/{sessionId}", (r) => connect.status(user(r), r))
    .on("POST", "/webhooks/privue", (r) => privueHooks.receive(r))
    .on("POST", "/webhooks/bb", (r) => bbHooks.receive(r))
    .on("GET", "/assets/{file}", (r) => catalog.asset(r))
    .on("GET", "/.well-known/apple-app-site-association", () => json(200, appleAppSiteAssociation(config.appleAppIDs, returnPaths)))
    .on("GET", "/.well-known/assetlinks.json", () => json(200, []))
    .on("GET", "/healthz", () => ({ status: 200, headers: { "content-type": "text/plain" }, body: "ok\n" }))
    .on("GET", "/readyz", (): Response =>
      catalog.isLoaded
        ? { status: 200, headers: { "content-type": "text/plain" }, body: "ready\n" }
        : { status: 503, headers: { "content-type": "text/plain", "retry-after": "1" }, body: "not ready\ncatalog: loading\n" }
    );
  for (const path of returnPaths) {
    const custom = path === returnPaths[0] ? config.bb.returnURLs.customScheme : undefined;
    router.on("GET", path, () => landingPage(path, custom?.split("?")[0]));
  }
  return { router, catalog };
}
