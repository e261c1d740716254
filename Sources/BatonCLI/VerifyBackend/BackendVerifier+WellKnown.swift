import BatonCore
import BatonHTTP

extension BackendVerifier {
    /// The association files and the landing pages at the registered return paths, when the backend serves them.
    func runWellKnown(_ ledger: inout CheckLedger, _ probe: SandboxProbe) async {
        await ledger.check(
            "well-known.apple-app-site-association",
            "§2 GET /.well-known/apple-app-site-association: JSON with applinks, when served"
        ) {
            let reply = try await send(.get, "/.well-known/apple-app-site-association")
            if reply.status == 404 { throw CheckNotRun("the backend does not serve it (404)") }
            try expect(reply.status == 200, "expected 200, got \(reply.summary)")
            try expect(
                reply.headers["content-type"]?.lowercased().hasPrefix("application/json") == true,
                "not served as application/json")
            try expect(reply.json?["applinks"]?.members != nil, "no applinks object")
        }
        await ledger.check(
            "well-known.assetlinks", "§2 GET /.well-known/assetlinks.json: a JSON array, when served"
        ) {
            let reply = try await send(.get, "/.well-known/assetlinks.json")
            if reply.status == 404 { throw CheckNotRun("the backend does not serve it (404)") }
            try expect(reply.status == 200, "expected 200, got \(reply.summary)")
            try expect(reply.json?.arrayValue != nil, "not a JSON array")
        }
        await ledger.check(
            "landing.return-paths",
            "§2.1 landing pages at the registered https return paths: 200 text/html, no-store, no-referrer, noindex; "
                + "the query never echoed, when served"
        ) {
            let paths = try await returnPaths(probe)
            guard !paths.isEmpty else { throw CheckNotRun("no https return URL was seen at the providers") }
            var served = 0
            for path in paths.sorted() {
                let marker = "verifyquery" + Self.newKey().prefix(8)
                let reply = try await send(.get, path + "?status=\(marker)&sessionId=\(marker)")
                if reply.status == 404 { continue }
                served += 1
                try expect(reply.status == 200, "\(path): expected 200, got \(reply.summary)")
                try expect(
                    reply.headers["content-type"]?.lowercased().hasPrefix("text/html") == true, "\(path): not text/html"
                )
                try expect(reply.isNoStore, "\(path): no Cache-Control: no-store")
                try expect(
                    reply.headers["referrer-policy"]?.lowercased() == "no-referrer", "\(path): no Referrer-Policy")
                try expect(
                    reply.headers["x-robots-tag"]?.lowercased().contains("noindex") == true, "\(path): no X-Robots-Tag")
                try expect(
                    !String(decoding: reply.body, as: UTF8.self).contains(marker), "\(path): the page echoes the query")
            }
            if served == 0 { throw CheckNotRun("the backend serves no landing page at \(paths.sorted())") }
        }
    }

    /// The paths of the https return URLs the backend registered with Privue and BB (from the sandbox's state).
    private func returnPaths(_ probe: SandboxProbe) async throws -> Set<String> {
        var urls: [String] = []
        if options.flows.contains(.privue) {
            urls += try await probe.privueVerifications().compactMap { $0["returnUrl"]?.stringValue }
        }
        if options.flows.contains(.bb) {
            urls += try await probe.bbSessions().compactMap { $0["returnUrl"]?.stringValue }
        }
        return Set(
            urls.filter { $0.hasPrefix("https://") }.map { url in
                let path = VerifyHTTP.pathOnly(url)
                return path.isEmpty ? "/" : path
            })
    }
}
