import Foundation

/// What the fetched association files must say for this configuration.
extension LiveWellKnownCheck {
    typealias Problem = (DoctorFinding.Level, String, String)

    /// `applinks` vouches for every configured app id on every landing path; `webcredentials` lists every app id.
    static func appleProblems(_ document: [String: Any]?, configuration: BackendConfiguration) -> [Problem] {
        let appIDs = configuration.apps.appleAppIDs
        let paths = configuration.landingPaths
        guard let document, let applinks = document["applinks"] as? [String: Any] else {
            return [(.fail, "has no applinks", "serve the generated file: it lists applinks for \(appIDs[0])")]
        }
        let details = applinks["details"] as? [[String: Any]] ?? []
        var problems: [Problem] = []
        var listed: [String] = []
        for appID in appIDs {
            let entries = details.filter { detail in
                (detail["appIDs"] as? [String] ?? []).contains(appID) || detail["appID"] as? String == appID
            }
            listed += details.flatMap { $0["appIDs"] as? [String] ?? ($0["appID"] as? String).map { [$0] } ?? [] }
            guard !entries.isEmpty else {
                problems.append(
                    (
                        .fail, "applinks does not list the app id \(appID)",
                        "list \(appID) (TEAMID.bundle.id, from apps.apple.appIDs) in applinks.details"
                    ))
                continue
            }
            let missing = paths.filter { path in !entries.contains { covers($0, path: path) } }
            if !missing.isEmpty {
                problems.append(
                    (
                        .fail, "applinks for \(appID) does not cover \(missing.joined(separator: ", "))",
                        "add a component {\"/\": \"\(missing[0])\"} for \(appID) (the generated file has it)"
                    ))
            }
        }
        let unknown = Set(listed).subtracting(appIDs).sorted()
        if !unknown.isEmpty {
            problems.append(
                (
                    .warn,
                    "applinks lists app ids the configuration does not: "
                        + printable(unknown.joined(separator: ", "), limit: 400),
                    "check the team id and bundle id against apps.apple.appIDs"
                ))
        }
        let credentials = (document["webcredentials"] as? [String: Any])?["apps"] as? [String]
        guard let credentials else {
            problems.append(
                (
                    .fail, "has no webcredentials entry beside applinks",
                    "add \"webcredentials\": {\"apps\": [\(appIDs.map { "\"\($0)\"" }.joined(separator: ", "))]}: "
                        + "ASWebAuthenticationSession's .https(host:path:) callback (iOS 17.4+) requires it"
                ))
            return problems
        }
        for appID in appIDs where !credentials.contains(appID) {
            problems.append(
                (
                    .fail, "webcredentials does not list \(appID)",
                    "add \(appID) to webcredentials.apps: the .https(host:path:) callback requires it"
                ))
        }
        return problems
    }

    /// Whether an `applinks` detail's components (or legacy `paths`) send `path` to the app.
    static func covers(_ detail: [String: Any], path: String) -> Bool {
        if let components = detail["components"] as? [[String: Any]] {
            for component in components {
                guard let pattern = component["/"] as? String, matches(pattern, path) else { continue }
                return component["exclude"] as? Bool != true
            }
            return false
        }
        let legacy = detail["paths"] as? [String] ?? []
        for pattern in legacy {
            if pattern.hasPrefix("NOT "), matches(String(pattern.dropFirst(4)), path) { return false }
            if matches(pattern, path) { return true }
        }
        return false
    }

    /// Apple's path patterns: `*` matches any run of characters, `?` one character.
    ///
    /// A loop, not a recursion: the pattern comes from the fetched file (up to 128 KiB), so no depth may depend on it.
    /// On a mismatch it backs up to the last `*` and lets it take one more character, which is enough because a later
    /// `*` can absorb whatever an earlier one could: at most `pattern × path` steps.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        let p = Array(pattern)
        let s = Array(path)
        var (i, j) = (0, 0)
        var star: Int?
        var resume = 0
        while j < s.count {
            if i < p.count, p[i] == "*" {
                star = i
                resume = j
                i += 1
            } else if i < p.count, p[i] == "?" || p[i] == s[j] {
                i += 1
                j += 1
            } else if let star {
                i = star + 1
                resume += 1
                j = resume
            } else {
                return false
            }
        }
        while i < p.count, p[i] == "*" { i += 1 }
        return i == p.count
    }

    /// `text` as a line of `baton doctor` may show it: a C0 or C1 control, DEL, a line or paragraph separator or a
    /// bidirectional override (which could rewrite the terminal or reorder what the operator reads) becomes `\u{…}`,
    /// and at most `limit` characters are kept. For anything a server sent.
    static func printable(_ text: String, limit: Int = 200) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            let value = scalar.value
            let unsafe =
                scalar.properties.generalCategory == .control || value == 0x2028 || value == 0x2029
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
                || value == 0x200F || value == 0x061C
            out += unsafe ? "\\u{\(String(value, radix: 16, uppercase: true))}" : String(scalar)
        }
        return out
    }

    /// One `handle_all_urls` statement for the configured package with every configured fingerprint.
    static func androidProblems(_ document: [String: Any]?, configuration: BackendConfiguration) -> [Problem] {
        guard let package = configuration.apps.androidPackageName else { return [] }
        let statements = document?["statements"] as? [[String: Any]] ?? []
        let matching = statements.filter { statement in
            let target = statement["target"] as? [String: Any]
            return (statement["relation"] as? [String] ?? []).contains("delegate_permission/common.handle_all_urls")
                && target?["namespace"] as? String == "android_app" && target?["package_name"] as? String == package
        }
        guard !matching.isEmpty else {
            return [
                (
                    .fail, "has no handle_all_urls statement for \(package)",
                    "serve the generated file: it names \(package) and its certificate fingerprints"
                )
            ]
        }
        let served = Set(
            matching.flatMap { ($0["target"] as? [String: Any])?["sha256_cert_fingerprints"] as? [String] ?? [] }
                .map { $0.uppercased() })
        let missing = configuration.apps.androidCertificateFingerprints.filter { !served.contains($0.uppercased()) }
        guard missing.isEmpty else {
            return [
                (
                    .fail, "does not list the certificate fingerprint \(missing[0])",
                    "add every apps.android.sha256CertFingerprints value (the generated file has them)"
                )
            ]
        }
        return []
    }
}
