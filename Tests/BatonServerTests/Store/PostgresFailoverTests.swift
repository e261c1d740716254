import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// After a failover the store must end up on whichever server takes writes: libpq is asked for a read-write session
/// (so it goes down a multi-host URL's list to the primary), a connection that lands on a read-only server anyway is
/// refused, and one whose writes are refused as read-only (SQLSTATE 25006, a demoted primary) is replaced before its
/// next use. The reliability suite's `failover` check does this with a real standby promoted under load.
@Suite(
    "PostgreSQL connections after a failover",
    .enabled(
        if: TemporaryDatabase.postgresURL != nil, "BATON_TEST_POSTGRES_URL not set: run under scripts/with-postgres"))
struct PostgresFailoverTests {
    static var url: String { TemporaryDatabase.postgresURL! }

    /// `url` with `query` added to its query string.
    static func url(adding query: String) -> String { url + (url.contains("?") ? "&" : "?") + query }

    /// What a hot standby looks like to a client: every session read-only.
    static let readOnlySessions = "options=-c%20default_transaction_read_only%3Don"

    /// A write that a read-only session refuses with 25006 and a writable one accepts, any number of times.
    static let write = "CREATE TEMP TABLE IF NOT EXISTS baton_failover_probe (x int)"

    @Test func aConnectionToAReadOnlyServerIsRefusedAsUnavailable() throws {
        let error = #expect(throws: StoreError.self) {
            _ = try PostgresConnection(
                conninfo: Self.url(adding: "target_session_attrs=any&" + Self.readOnlySessions),
                schema: nil)
        }
        #expect(error?.code == .unavailable)
        #expect(error?.engineCode == "25006")
        #expect(error.map(PostgresEngine.isConnectionLoss) == true)
    }

    @Test func withoutTargetSessionAttrsLibpqIsAskedForAReadWriteSession() throws {
        // libpq itself refuses the read-only session (no SQLSTATE): it would go on to a next host if there were one.
        let error = #expect(throws: StoreError.self) {
            _ = try PostgresConnection(conninfo: Self.url(adding: Self.readOnlySessions), schema: nil)
        }
        #expect(error?.code == .unavailable)
        // A value in the URL wins over the default.
        let connection = try PostgresConnection(conninfo: Self.url(adding: "target_session_attrs=any"), schema: nil)
        connection.close()
    }

    @Test func aMultiHostURLConnectsToTheHostThatAnswers() throws {
        // The first host refuses connections (nothing listens on port 1), as a primary that was lost does.
        let parts = Self.url.split(separator: "@", maxSplits: 1)
        try #require(parts.count == 2, "BATON_TEST_POSTGRES_URL has no user@ part")
        let multiHost = "\(parts[0])@127.0.0.1:1,\(parts[1])"
        let connection = try PostgresConnection(conninfo: multiHost, schema: nil)
        defer { connection.close() }
        let rows = try connection.query("SELECT current_setting('transaction_read_only')", [])
        #expect(try rows.first?.text(0) == "off")
    }

    /// Makes the connection that serves the next statement read-only, as a demoted primary's would be.
    static func demote(_ engine: PostgresEngine, pooled: Bool) async throws {
        let sql = "SELECT set_config('default_transaction_read_only', 'on', false)"
        if pooled {
            _ = try await engine.read("demote") { session throws(StoreError) in try session.query(sql, []) }
        } else {
            _ = try await engine.statement("demote", sql, [])
        }
    }

    static func write(_ engine: PostgresEngine, pooled: Bool) async throws {
        if pooled {
            try await engine.write("write", transaction: true) { session throws(StoreError) in
                try session.execute(Self.write)
            }
        } else {
            _ = try await engine.statement("write", Self.write, [])
        }
    }

    @Test(arguments: [false, true])
    func aWriteRefusedAsReadOnlyIsRetryableAndTheConnectionIsReplaced(pooled: Bool) async throws {
        let engine = try PostgresEngine(conninfo: Self.url, schema: nil, poolSize: 1, pipelines: 1)
        try await Self.write(engine, pooled: pooled)
        try await Self.demote(engine, pooled: pooled)
        // The write reaches a server that no longer takes writes: retryable (503 at the HTTP layer), not a 500…
        let error = await #expect(throws: StoreError.self) { try await Self.write(engine, pooled: pooled) }
        #expect(error?.code == .unavailable)
        #expect(error?.engineCode == "25006")
        // …and the next use is on a new connection, which takes writes.
        try await Self.write(engine, pooled: pooled)
        try await Self.write(engine, pooled: pooled)
        await engine.close()
    }
}

/// A primary whose machine is gone does not refuse connections: nothing answers. libpq then waits on that host for
/// `connect_timeout` (forever by default) before it tries the next one, so Baton sets 5 s unless the URL says.
@Suite(
    "PostgreSQL hosts that never answer",
    .enabled(
        if: TemporaryDatabase.postgresURL != nil, "BATON_TEST_POSTGRES_URL not set: run under scripts/with-postgres"))
struct PostgresSilentHostTests {
    /// A port that completes TCP handshakes (the kernel does, up to the backlog) and never says a word.
    static func silentPort() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        try #require(bound)
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func aHostThatNeverAnswersDelaysTheNextOneByTheConnectTimeoutOnly() async throws {
        let silent = try Self.silentPort()
        defer { close(silent.descriptor) }
        let parts = PostgresFailoverTests.url.split(separator: "@", maxSplits: 1)
        try #require(parts.count == 2, "BATON_TEST_POSTGRES_URL has no user@ part")
        let multiHost = "\(parts[0])@127.0.0.1:\(silent.port),\(parts[1])"
        let started = Date()
        // On a thread of its own: without a timeout libpq would wait on the silent host for good; the test waits for
        // the outcome at most 30 s.
        let (outcomes, reported) = AsyncStream.makeStream(of: Result<String, StoreError>.self)
        let thread = Thread {
            do throws(StoreError) {
                let connection = try PostgresConnection(conninfo: multiHost, schema: nil)
                defer { connection.close() }
                let rows = try connection.query("SELECT current_setting('port')", [])
                reported.yield(.success((try? rows.first?.text(0)) ?? "?"))
            } catch {
                reported.yield(.failure(error))
            }
            reported.finish()
        }
        thread.start()
        let bound = Task {
            try? await Task.sleep(for: .seconds(30))
            reported.finish()
        }
        var iterator = outcomes.makeAsyncIterator()
        let outcome = await iterator.next()
        bound.cancel()
        let result = try #require(outcome, "no connection within 30 s: the silent host held it")
        #expect(throws: Never.self) { try result.get() }
        let elapsed = Date().timeIntervalSince(started)
        // The default 5 s on the silent host (libpq counts whole seconds, so 4–6 s), then the real server at once.
        #expect(elapsed >= 3.5 && elapsed < 15, "took \(elapsed) s")
    }
}
