import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

@Suite("Async handlers and graceful shutdown")
struct ConcurrencyTests {
    @Test func fiveHundredConcurrentSlowRequestsNeverWaitOnEachOther() async throws {
        var router = Router()
        router.get("/slow") { _ in
            try await Task.sleep(for: .milliseconds(200))
            return .text("done")
        }
        try await withServer(router: router) { server in
            let transport = CurlTransport()
            let clock = ContinuousClock()
            let start = clock.now
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<500 {
                    group.addTask { try await transport.send(OutboundRequest(url: server.url("/slow"))).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let elapsed = clock.now - start
            print("500 concurrent requests to a 200 ms handler took \(elapsed)")
            #expect(statuses.count == 500)
            #expect(statuses.allSatisfy { $0 == 200 })
            // If an MHD thread waited on a handler, the pool (one thread per core) would need 500 × 200 ms / cores:
            // 50 s on this 2-core machine. Alone the run takes ~0.4 s; the bound leaves room for a loaded CI host
            // running every other suite in parallel while still failing by a wide margin if handlers block.
            #expect(elapsed < .seconds(25))
        }
    }

    @Test func shutdownLetsAnInFlightRequestFinish() async throws {
        let started = Signal()
        let released = Signal()
        var router = Router()
        router.get("/work") { _ in
            started.fire()
            await released.wait()
            return .text("finished")
        }
        let server = try HTTPServer.start(testConfiguration(), router: router)
        let transport = CurlTransport()
        let url = server.url("/work")
        let inFlight = Task { try await transport.send(OutboundRequest(url: url)) }
        await started.wait()
        #expect(server.inFlightRequests == 1)
        // Runs up to its first suspension here: shutdown has begun when the handler is released.
        let shutdown = Task.immediate { await server.shutdown(grace: .seconds(5)) }
        released.fire()
        await shutdown.value
        let response = try await inFlight.value
        #expect(response.status == 200)
        #expect(response.bodyText == "finished")
        #expect(response.headers["connection"]?.lowercased() == "close")
        #expect(server.inFlightRequests == 0)
        await #expect(throws: TransportError.self) {
            _ = try await transport.send(OutboundRequest(url: url, timeout: .seconds(2)))
        }
    }

    @Test func shutdownPastGraceAnswers503AndCancelsTheHandler() async throws {
        let started = Signal()
        let cancelled = Signal()
        var router = Router()
        router.get("/stuck") { _ in
            started.fire()
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                cancelled.fire()
                throw error
            }
            return .text("never")
        }
        let server = try HTTPServer.start(testConfiguration(), router: router)
        let transport = CurlTransport()
        let url = server.url("/stuck")
        let inFlight = Task { try await transport.send(OutboundRequest(url: url)) }
        await started.wait()
        let clock = ContinuousClock()
        let start = clock.now
        await server.shutdown(grace: .milliseconds(200))
        #expect(clock.now - start < .seconds(3))
        await cancelled.wait()
        let response = try await inFlight.value
        #expect(response.status == 503)
    }

    @Test func aHandlerRunsAndWakesOnTheThreadThatReadItsRequest() async throws {
        var router = Router()
        router.get("/where") { _ in
            let before = currentThreadName()
            await Task.yield()  // a suspension, nothing to wait for
            let afterYield = currentThreadName()
            // Resumed from a thread of its own, as the store's writer and libcurl's thread resume a handler.
            await withCheckedContinuation { continuation in
                Thread { continuation.resume() }.start()
            }
            return .text("\(before)|\(afterYield)|\(currentThreadName())")
        }
        try await withServer(router: router) { server in
            let transport = CurlTransport()
            for _ in 0..<5 {
                let response = try await transport.send(OutboundRequest(url: server.url("/where")))
                let names = response.bodyText.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                // The event loop that read the request runs its handler and every continuation of it: no hop to
                // Swift's pool and back at each `await`.
                #expect(names.count == 3, "\(names)")
                #expect(names.first?.hasPrefix("baton.http.") == true, "\(names)")
                #expect(Set(names).count == 1, "\(names)")
            }
        }
    }

    @Test func childTasksAndTaskGroupsRunInsideAHandler() async throws {
        var router = Router()
        router.get("/fan-out") { _ in
            async let left = Task { () -> Int in
                await Task.yield()
                return 20
            }.value
            let right = await withTaskGroup(of: Int.self) { group in
                for value in 1...4 { group.addTask { value } }
                return await group.reduce(0, +)
            }
            return .text(String(await left + right))
        }
        try await withServer(router: router) { server in
            let transport = CurlTransport()
            for _ in 0..<20 {
                let response = try await transport.send(OutboundRequest(url: server.url("/fan-out")))
                #expect(response.status == 200)
                #expect(response.bodyText == "30")
            }
        }
    }

    @Test func fastAndSuspendingHandlersShareKeptAliveConnections() async throws {
        var router = Router()
        router.get("/fast") { _ in .text("fast") }
        router.get("/slow") { _ in
            await Task.yield()
            return .text("slow")
        }
        try await withServer(router: router) { server in
            let transport = CurlTransport()
            let bodies = try await withThrowingTaskGroup(of: (String, String).self) { group in
                for index in 0..<400 {
                    let path = index.isMultiple(of: 2) ? "fast" : "slow"
                    group.addTask {
                        (path, try await transport.send(OutboundRequest(url: server.url("/" + path))).bodyText)
                    }
                }
                return try await group.reduce(into: [(String, String)]()) { $0.append($1) }
            }
            #expect(bodies.count == 400)
            #expect(bodies.allSatisfy { $0.0 == $0.1 })
        }
    }

    @Test(arguments: [
        "GET /fast HTTP/1.1\r\nHost: x\r\n\r\n", "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody",
        "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "GET /slow HTTP/1.0\r\n\r\n",
    ])
    func aClientThatHalfClosesAfterItsRequestStillGetsTheAnswer(request: String) async throws {
        // The slow handler holds its answer until the client has half-closed: the close lands while it is suspended.
        let started = Signal()
        let released = Signal()
        let slow: HTTPResponder = { _ in
            started.fire()
            await released.wait()
            return .text("answer")
        }
        var router = Router()
        router.get("/fast") { _ in .text("answer") }
        router.get("/slow", slow)
        router.post("/slow", slow)
        try await withServer(router: router) { server in
            let client = try RawClient(port: server.port)
            await client.send(request)
            if request.contains("/slow") { await started.wait() }
            client.finishSending()
            released.fire()
            let (text, _) = await client.readUntilClosed()
            #expect(text.hasPrefix("HTTP/1."), "\(text)")
            #expect(text.contains(" 200 "), "\(text)")
            #expect(text.hasSuffix("answer"), "\(text)")
        }
    }

    @Test func handlersSeeThePeerAddressOnEveryRequestOfAConnection() async throws {
        var router = Router()
        router.get("/peer") { request in HTTPResponse(status: 204, headers: ["x-peer": request.remoteAddress ?? "none"])
        }
        try await withServer(router: router) { server in
            // The address is read once per connection; every request on a kept-alive one still carries it.
            let client = try RawClient(port: server.port)
            for _ in 0..<3 {
                await client.send("GET /peer HTTP/1.1\r\nHost: x\r\n\r\n")
                let head = await client.readHead().lowercased()
                #expect(head.hasPrefix("http/1.1 204"))
                #expect(head.contains("x-peer: 127.0.0.1\r\n"), "\(head)")
            }
        }
    }

    @Test func keepAliveConnectionServesSeveralRequests() async throws {
        var router = Router()
        router.get("/r") { _ in HTTPResponse(status: 204) }
        try await withServer(router: router) { server in
            let client = try RawClient(port: server.port)
            await client.send("GET /r HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readHead().hasPrefix("HTTP/1.1 204"))
            await client.send("GET /r HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readHead().hasPrefix("HTTP/1.1 204"))
        }
    }
}
