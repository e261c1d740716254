/// `baton doctor`'s check of the PostgreSQL link: the server is authenticated, and no password sits in the URL.
extension ConfigurationDoctor {
    /// Nothing for SQLite. For PostgreSQL: `fail` unless the URL has `sslmode=verify-full` (or `verify-ca` with
    /// `sslrootcert`) — libpq's default `prefer` accepts any server and falls back to plain text, so anyone in between
    /// can relay the login and read or rewrite rows — except over a Unix-domain socket, and only `warn` in development
    /// mode; `warn` when the URL carries a password (it belongs in `BATON_DATABASE_PASSWORD` or a libpq passfile).
    static func databaseLinkFindings(_ configuration: BackendConfiguration) -> [DoctorFinding] {
        guard case .postgres(let uri)? = (try? StoreURL(configuration.database))?.location,
            let link = PostgresLink(uri: uri)
        else { return [] }
        var findings: [DoctorFinding] = []
        if link.isUnixSocket {
            findings.append(
                DoctorFinding(.ok, "database", "connects over a Unix-domain socket (no network in between)"))
        } else if link.authenticatesServer {
            findings.append(
                DoctorFinding(
                    .ok, "database", "sslmode=\(link.sslMode): the server's certificate is verified (TLS, no fallback)")
            )
        } else {
            let problem =
                link.sslMode == "verify-ca"
                ? "sslmode=verify-ca without sslrootcert: the root the server's certificate must chain to is not named"
                : "sslmode=\(link.sslMode) does not authenticate the server: anyone in between can relay the login "
                    + "and read or rewrite rows"
            findings.append(
                DoctorFinding(
                    configuration.allowsLoopbackHTTP ? .warn : .fail, "database", problem,
                    fix: "add ?sslmode=verify-full&sslrootcert=/path/to/root.crt (the CA that signed the server's "
                        + "certificate) to the postgres:// URL, or connect over a Unix socket on the same host"))
        }
        if link.carriesPassword {
            findings.append(
                DoctorFinding(
                    .warn, "database",
                    "the URL carries a password (the configuration file and command line hold no secret)",
                    fix: "remove it from the URL; set \(OptionalSecretVariable.databasePassword.rawValue) "
                        + "or use a libpq passfile (~/.pgpass, mode 0600, or PGPASSFILE)"))
        }
        return findings
    }
}
