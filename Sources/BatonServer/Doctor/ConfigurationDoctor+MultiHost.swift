/// `baton doctor` on a PostgreSQL URL that lists several hosts (`postgres://a:5432,b:5432/db?…`): which hosts, and
/// whether libpq is told to pick the one that takes writes, so the store follows a failover (docs/production.md).
extension ConfigurationDoctor {
    /// One finding for a URL naming two or more hosts; none for a single host or a URL libpq cannot parse (the
    /// connect check reports that one). Never shows the user, password or any other option's value.
    static func postgresHostsFinding(uri: String) -> DoctorFinding? {
        guard let options = PostgresConnection.options(of: uri) else { return nil }
        let hosts = (options["host"] ?? options["hostaddr"] ?? "").split(
            separator: ",", omittingEmptySubsequences: false)
        guard hosts.count > 1 else { return nil }
        let ports = (options["port"] ?? "").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let listed = hosts.enumerated().map { index, host -> String in
            // libpq: one port for every host, or one per host; none means 5432.
            let port = ports.count == hosts.count ? ports[index] : (ports.first ?? "")
            return "\(host.isEmpty ? "localhost" : String(host)):\(port.isEmpty ? "5432" : port)"
        }
        let summary = "\(hosts.count) hosts (\(listed.joined(separator: ", ")))"
        let target = options["target_session_attrs"] ?? ""
        switch target {
        case "read-write", "primary":
            return DoctorFinding(
                .ok, "database",
                "\(summary), target_session_attrs=\(target): libpq tries them in order and keeps the one that "
                    + "takes writes; after a failover the store reconnects to the new primary")
        case "":
            return DoctorFinding(
                .warn, "database",
                "\(summary), no target_session_attrs: baton asks for read-write itself, but any other tool given "
                    + "this URL (psql, a migration, a backup) stops at the first host that answers, a standby perhaps",
                fix: "add ?target_session_attrs=read-write to the URL")
        default:
            return DoctorFinding(
                .fail, "database",
                "\(summary), target_session_attrs=\(target): libpq may keep a standby, where every write of baton "
                    + "fails (baton refuses such a connection, so the store stays unavailable)",
                fix: "use target_session_attrs=read-write")
        }
    }
}
