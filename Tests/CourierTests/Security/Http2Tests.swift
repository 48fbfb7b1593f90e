import Courier
import CourierTestServer
import CourierTestServerTLS
import Foundation
import Testing

/// HTTP/2 over AsyncHTTPClient and libcurl, negotiated by ALPN with the HTTPS test server: many requests on one connection
/// (over libcurl, one per engine), and
/// the same contract as HTTP/1.1.
///
/// It runs under ThreadSanitizer too: `Tests/tsan-suppressions.txt` names the one frame of the test server's HTTP/2
/// channel (HummingbirdHTTP2) where TSan can report a race that is not one, and why.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct Http2Tests {
    @Test(arguments: HttpsTests.applyingOptions) func sixtyFourConcurrentRequestsShareOneConnection(
        kind: TransportKind
    ) async throws {
        try await TestServer.withServer(tls: .init(http2: true)) { server in
            let outcomes = try await HttpsTests.withProvider(kind, server, tls: try .testAuthority()) { provider in
                // The server answers none of them until all 64 are in flight together.
                await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<64 {
                        group.addTask {
                            let result = await provider.response(
                                on: .gather(key: "sixty-four", count: 64),
                                decodeBodyTo: [String: Int].self
                            )
                            return (try? result.get()) == ["gathered": 64]
                        }
                    }
                    return await group.reduce(into: [Bool]()) { $0.append($1) }
                }
            }
            #expect(outcomes.count == 64)
            #expect(outcomes.allSatisfy { $0 })
            // libcurl spreads requests in flight together over its engines, each with its connections: one
            // connection per engine.
            let connections = kind == .curl ? CurlTransport.defaultEngines : 1
            #expect(await server.connectionCount() <= connections)
        }
    }

    @Test(arguments: HttpsTests.applyingOptions) func overHttp1TheSameRequestsNeedSeveralConnections(
        kind: TransportKind
    ) async throws {
        try await TestServer.withServer(tls: .init(http2: false)) { server in
            try await HttpsTests.withProvider(kind, server, tls: try .testAuthority()) { provider in
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            _ = await provider.response(on: .gather(key: "eight", count: 8), decodeBodyTo: Data.self)
                        }
                    }
                }
            }
            #expect(await server.connectionCount() == 8)
        }
    }

    @Test(arguments: HttpsTests.applyingOptions) func theTimeoutTheSizeLimitAndRedirectsHoldOverHttp2(
        kind: TransportKind
    ) async throws {
        try await TestServer.withServer(tls: .init(http2: true)) { server in
            let reachedBeforeTheTimeout = try await HttpsTests.withProvider(kind, server, tls: try .testAuthority()) {
                provider in
                // `/hold` never finishes its answer while the test runs: only the timeout ends the request, and
                // the server sees its stream end, if the request reached it first (a TLS handshake on a starved
                // machine can take longer than the timeout).
                let late = await provider.response(
                    on: .hold(id: "h2-timeout", timeout: .milliseconds(200)),
                    decodeBodyTo: Data.self
                )
                #expect(late.failure == .noResponseReceived(error: URLError(.timedOut)))
                // A request that had not reached the server when it timed out may still reach it with the next
                // frames on the connection; only one that had is followed to its end. libcurl 7.88 does not reset a
                // stream it stopped: the server sees that one end when the connection closes, below.
                let reached = await server.receivedRequests().contains(where: { $0.path == "/hold/h2-timeout" })
                if kind != .curl, reached { await server.waitForDisconnect(of: "h2-timeout") }
                let large = await provider.response(on: .bytes(count: 100_000, limit: 1_000), decodeBodyTo: Data.self)
                #expect(large.failure == .responseBodyTooLarge(limit: 1_000))
                let redirected = try await provider.response(
                    on: .redirect(to: server.url("/echo"), headers: ["Authorization": "Bearer same-origin"]),
                    decodeBodyTo: ReceivedRequest.self
                ).get()
                #expect(redirected.path == "/echo")
                #expect(redirected.header("Authorization") == "Bearer same-origin")
                return reached
            }
            if kind == .curl, reachedBeforeTheTimeout { await server.waitForDisconnect(of: "h2-timeout") }
        }
    }

    @Test(arguments: HttpsTests.applyingOptions) func cancellingEndsTheRequestAtOnceAndLeavesTheConnectionUsable(
        kind: TransportKind
    ) async throws {
        try await TestServer.withServer(tls: .init(http2: true)) { server in
            try await HttpsTests.withProvider(kind, server, tls: try .testAuthority()) { provider in
                // `/hold` never finishes its answer while the test runs: only the cancel can end the request.
                let held = Task {
                    await provider.response(on: .hold(id: "h2-cancel", timeout: nil), decodeBodyTo: Data.self)
                }
                await server.waitForRequests(count: 1)
                held.cancel()
                #expect(await held.value.failure == .cancelled)
                // The stream is reset, not the connection: the server sees the held answer's client leave, and the
                // next request goes over the same connection. (libcurl 7.88 does not reset a stream it stopped: the
                // server sees it end when the transport, and with it the connection, goes away.)
                if kind != .curl { await server.waitForDisconnect(of: "h2-cancel") }
                let next = await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
                #expect(next.failure == nil)
            }
            if kind == .curl { await server.waitForDisconnect(of: "h2-cancel") }
            #expect(await server.connectionCount() == 1)
        }
    }
}
