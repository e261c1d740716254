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
                    .warn, "applinks lists app ids the configuration does not: \(unknown.joined(separator: ", "))",
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
    static func matches(_ pattern: String, _ path: String) -> Bool {
        let p = Array(pattern)
        let s = Array(path)
        var memo: [Int: Bool] = [:]
        func match(_ i: Int, _ j: Int) -> Bool {
            if let known = memo[i * (s.count + 1) + j] { return known }
            let result: Bool
            if i == p.count {
                result = j == s.count
            } else if p[i] == "*" {
                result = match(i + 1, j) || (j < s.count && match(i, j + 1))
            } else {
                result = j < s.count && (p[i] == "?" || p[i] == s[j]) && match(i + 1, j + 1)
            }
            memo[i * (s.count + 1) + j] = result
            return result
        }
        return match(0, 0)
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
