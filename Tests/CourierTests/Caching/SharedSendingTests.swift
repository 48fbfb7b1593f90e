import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Identical `GET`s in flight at once share one exchange with the loopback server: one request reaches it, every
/// caller gets the answer, a caller that cancels leaves alone, and the exchange ends when its last caller leaves.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct SharedSendingTests {
    static let callers = 100

    /// The resource, held by the server until the test lets it go (see `release`).
    static let held = CachedResource(key: "shared", query: ["gather": "2", "cc": "max-age=60"])

    /// Lets the held answer go: the route answers once two requests are held, this one and the shared one.
    static func release(_ server: TestServer) async {
        await server.send(.get, "gather/cached-shared", query: ["count": "2"])
    }

    /// Starts a caller per task, and returns once all of them wait for the shared exchange, which the server holds.
    static func startCallers(
        _ provider: ApiProvider<CachedResource>,
        cache: HttpCache,
        server: TestServer,
        in group: inout TaskGroup<(Int?, CacheStatus?)>
    ) async {
        for _ in 0..<callers {
            group.addTask { await provider.version(of: held) }
        }
        await cache.waitForCallers(callers)
        await server.waitForRequests(count: 1)
    }

    /// Runs `body` with a provider over `kind` whose cache shares identical requests in flight, its time virtual.
    static func withSharingProvider(
        _ kind: TransportKind,
        _ body: (TestServer, HttpCache, ApiProvider<CachedResource>) async throws -> Void
    ) async throws {
        let cache = HttpCache(sharesInFlight: true)
        try await TestServer.withServer { server in
            try await kind.withProvider(baseUrl: server.baseUrl, scheduler: TestScheduler(), cache: cache) {
                try await body(server, cache, $0)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aHundredIdenticalRequestsReachTheServerOnce(kind: TransportKind) async throws {
        try await Self.withSharingProvider(kind) { server, cache, provider in
            await withTaskGroup(of: (Int?, CacheStatus?).self) { group in
                await Self.startCallers(provider, cache: cache, server: server, in: &group)
                await Self.release(server)
                var answers = 0
                for await answer in group {
                    #expect(answer == (1, .miss))
                    answers += 1
                }
                #expect(answers == Self.callers)
            }
            #expect(await server.requests(forCached: "shared").count == 1)
            // Stored once, for the next caller.
            #expect(await provider.version(of: Self.held) == (1, .hit))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingAllButOneCallerLeavesTheLastItsAnswer(kind: TransportKind) async throws {
        try await Self.withSharingProvider(kind) { server, cache, provider in
            let cancelled = (0..<Self.callers - 1).map { _ in
                Task { await provider.version(of: Self.held) }
            }
            let last = Task { await provider.version(of: Self.held) }
            await cache.waitForCallers(Self.callers)
            await server.waitForRequests(count: 1)
            for task in cancelled { task.cancel() }
            for task in cancelled {
                #expect(await task.value == (nil, nil))
            }
            #expect(cache.exchanges.callerCount == 1)
            await Self.release(server)
            #expect(await last.value == (1, .miss))
            #expect(await server.requests(forCached: "shared").count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingEveryCallerCancelsTheExchange(kind: TransportKind) async throws {
        let cache = HttpCache(sharesInFlight: true)
        try await TestServer.withServer { server in
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl, cache: cache) { provider in
                // `/hold` sends a byte every 50 ms for ten minutes: only the client ends it.
                let endpoint = FreeEndpoint(subpath: "hold/shared")
                let tasks = (0..<Self.callers).map { _ in Task { await provider.rawDataResponse(on: endpoint) } }
                await cache.waitForCallers(Self.callers)
                await server.waitForRequests(count: 1)
                for task in tasks { task.cancel() }
                for task in tasks {
                    guard case .failure(.cancelled) = await task.value else {
                        Issue.record("a caller was not cancelled")
                        continue
                    }
                }
                await server.waitForDisconnect(of: "shared")
                #expect(await server.receivedRequests().filter { $0.path == "/hold/shared" }.count == 1)
                #expect(cache.exchanges.callerCount == 0)
            }
        }
    }
}
