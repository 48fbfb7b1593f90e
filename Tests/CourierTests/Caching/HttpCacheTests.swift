import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// RFC 9111 against the loopback server, over both transports: what is stored, when it is fresh, what is revalidated
/// and how, variants, invalidation and partitions. Entries age on a ``TestScheduler``: no test waits for time to
/// pass.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct HttpCacheTests {
    /// Runs `body` with a provider of `cache` on the server, over `kind`, its time on `clock`.
    func withProvider(
        _ kind: TransportKind,
        cache: HttpCache = HttpCache(),
        clock: TestScheduler = TestScheduler(),
        _ body: (TestServer, ApiProvider<CachedResource>) async throws -> Void
    ) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(CachedResource.self, baseUrl: server.baseUrl, scheduler: clock, cache: cache) {
                try await body(server, $0)
            }
        }
    }

    /// Section 4.2.1: fresh for `max-age`, answered without the server; then fetched again.
    @Test(arguments: TransportKind.allCases)
    func aFreshAnswerIsServedWithoutTheServerUntilItsMaxAgePasses(kind: TransportKind) async throws {
        let clock = TestScheduler()
        try await withProvider(kind, clock: clock) { server, provider in
            let endpoint = CachedResource(key: "fresh", query: ["cc": "max-age=60"])
            #expect(await provider.version(of: endpoint) == (1, .miss))
            await server.send(.post(), "change/fresh")
            await clock.advance(by: .seconds(59))
            #expect(await provider.version(of: endpoint) == (1, .hit))
            await clock.advance(by: .seconds(2))
            #expect(await provider.version(of: endpoint) == (2, .miss))
            #expect(await server.requests(forCached: "fresh").count == 2)
        }
    }

    /// Section 4.2.1: `Expires` less `Date` when there is no `max-age`; an `Expires` that is not a date is stale.
    @Test(arguments: TransportKind.allCases)
    func expiresCountsFromTheServersDate(kind: TransportKind) async throws {
        let clock = TestScheduler()
        try await withProvider(kind, clock: clock) { server, provider in
            let expiring = CachedResource(key: "expires", query: ["expires": "600"])
            let invalid = CachedResource(key: "invalid", query: ["expires": "never"])
            #expect(await provider.version(of: expiring) == (1, .miss))
            #expect(await provider.version(of: invalid) == (1, .miss))
            await clock.advance(by: .seconds(300))
            #expect(await provider.version(of: expiring) == (1, .hit))
            #expect(await provider.version(of: invalid) == (1, .miss))
            await clock.advance(by: .seconds(400))
            #expect(await provider.version(of: expiring) == (1, .miss))
            #expect(await server.requests(forCached: "expires").count == 2)
        }
    }

    /// Sections 4.3.1 and 4.3.4: a stale answer is validated with its `ETag`; a `304` confirms it, a `200` replaces
    /// it.
    @Test(arguments: TransportKind.allCases)
    func aStaleAnswerIsRevalidatedWithItsETag(kind: TransportKind) async throws {
        try await withProvider(kind) { server, provider in
            let endpoint = CachedResource(key: "etag", query: ["cc": "no-cache", "etag": "1"])
            #expect(await provider.version(of: endpoint) == (1, .miss))
            #expect(await provider.version(of: endpoint) == (1, .revalidated))
            await server.send(.post(), "change/etag")
            #expect(await provider.version(of: endpoint) == (2, .miss))
            #expect(await provider.version(of: endpoint) == (2, .revalidated))
            let validators = await server.requests(forCached: "etag").map { $0.header("If-None-Match") }
            #expect(validators == [nil, "\"v1\"", "\"v1\"", "\"v2\""])
        }
    }

    /// Section 4.3.1: without an `ETag`, `Last-Modified` is sent back as `If-Modified-Since`.
    @Test(arguments: TransportKind.allCases)
    func lastModifiedIsSentBackAsIfModifiedSince(kind: TransportKind) async throws {
        try await withProvider(kind) { server, provider in
            let endpoint = CachedResource(key: "modified", query: ["cc": "max-age=0", "lastModified": "100"])
            #expect(await provider.version(of: endpoint) == (1, .miss))
            #expect(await provider.version(of: endpoint) == (1, .revalidated))
            let received = await server.requests(forCached: "modified")
            #expect(received.count == 2)
            #expect(received.first?.header("If-Modified-Since") == nil)
            #expect(received.last?.header("If-Modified-Since").flatMap(HttpDate.parse) != nil)
        }
    }

    /// Section 4.2.2: heuristic freshness only when the cache turns it on: a tenth of the time since
    /// `Last-Modified`, here 1000 s, so about 100 s.
    @Test(arguments: TransportKind.allCases)
    func heuristicFreshnessOnlyWhenTurnedOn(kind: TransportKind) async throws {
        let clock = TestScheduler()
        try await withProvider(kind, cache: HttpCache(heuristicFreshness: 0.1), clock: clock) { server, provider in
            let endpoint = CachedResource(key: "heuristic", query: ["lastModified": "1000"])
            #expect(await provider.version(of: endpoint) == (1, .miss))
            await clock.advance(by: .seconds(90))
            #expect(await provider.version(of: endpoint) == (1, .hit))
            await clock.advance(by: .seconds(60))
            #expect(await provider.version(of: endpoint) == (1, .revalidated))
        }
        try await withProvider(kind) { server, provider in
            let endpoint = CachedResource(key: "heuristic", query: ["lastModified": "1000"])
            #expect(await provider.version(of: endpoint) == (1, .miss))
            #expect(await provider.version(of: endpoint) == (1, .revalidated))
        }
    }

    /// Section 4.1: one stored answer per variant of the fields `Vary` names.
    @Test(arguments: TransportKind.allCases)
    func varyKeepsOneAnswerPerVariant(kind: TransportKind) async throws {
        try await withProvider(kind) { server, provider in
            let query = ["cc": "max-age=60", "vary": "X-Lang"]
            let english = CachedResource(key: "vary", query: query, headers: ["X-Lang": "en"])
            let german = CachedResource(key: "vary", query: query, headers: ["X-Lang": "de"])
            var answers: [String] = []
            var statuses: [CacheStatus?] = []
            for endpoint in [english, german, english, german] {
                let response = await provider.fullResponse(on: endpoint, decodeBodyTo: CachedResource.Body.self)
                answers.append((try? response.result.get())?.varied ?? "")
                statuses.append(response.cacheStatus)
            }
            #expect(answers == ["en", "de", "en", "de"])
            #expect(statuses == [.miss, .miss, .hit, .hit])
            #expect(await server.requests(forCached: "vary").count == 2)
        }
    }

    /// Section 4.4: a successful unsafe request removes what is stored for its URL and its `Location`.
    @Test(arguments: TransportKind.allCases)
    func anUnsafeRequestRemovesWhatIsStoredForItsUrlAndLocation(kind: TransportKind) async throws {
        try await withProvider(kind) { server, provider in
            let target = CachedResource(key: "target", query: ["cc": "max-age=60"])
            #expect(await provider.version(of: target) == (1, .miss))
            #expect(await provider.version(of: target) == (1, .hit))
            var delete = target
            delete.method = .delete
            _ = await provider.response(on: delete)
            #expect(await provider.version(of: target) == (2, .miss))
            // A `POST` elsewhere whose `Location` names the target, on the same origin.
            await server.send(.post(), "change/target")
            var post = CachedResource(key: "elsewhere", method: .post())
            let stored = try #require(try provider.urlRequest(for: target).get().url)
            post.query = ["location": stored.absoluteString]
            _ = await provider.response(on: post)
            #expect(await provider.version(of: target) == (3, .miss))
            #expect(await provider.version(of: target) == (3, .hit))
        }
    }

    /// Answers to authenticated requests are stored, each partition apart; a partition is cleared alone.
    @Test(arguments: TransportKind.allCases)
    func partitionsKeepAccountsApart(kind: TransportKind) async throws {
        let cache = HttpCache()
        try await withProvider(kind, cache: cache) { server, provider in
            let endpoint = CachedResource(
                key: "account",
                query: ["cc": "max-age=60"],
                headers: ["Authorization": "Bearer a"]
            )
            cache.partition = "alice"
            #expect(await provider.version(of: endpoint) == (1, .miss))
            await server.send(.post(), "change/account")
            cache.partition = "bob"
            #expect(await provider.version(of: endpoint) == (2, .miss))
            cache.partition = "alice"
            #expect(await provider.version(of: endpoint) == (1, .hit))
            cache.removeAll(inPartition: "alice")
            #expect(await provider.version(of: endpoint) == (2, .miss))
            cache.partition = "bob"
            #expect(await provider.version(of: endpoint) == (2, .hit))
        }
    }

    /// Sections 3 and 5.2: `no-store` is never stored; a request's `no-cache` revalidates; `only-if-cached` with
    /// nothing stored is a `504` without the server; `.reloadIgnoringLocalCacheData` fetches anew.
    @Test(arguments: TransportKind.allCases)
    func directivesOfTheRequestAndTheResponse(kind: TransportKind) async throws {
        try await withProvider(kind) { server, provider in
            let unstored = CachedResource(key: "unstored", query: ["cc": "no-store, max-age=60"])
            #expect(await provider.version(of: unstored) == (1, .miss))
            #expect(await provider.version(of: unstored) == (1, .miss))
            #expect(await server.requests(forCached: "unstored").count == 2)

            let fresh = CachedResource(key: "directives", query: ["cc": "max-age=60", "etag": "1"])
            #expect(await provider.version(of: fresh) == (1, .miss))
            var revalidating = fresh
            revalidating.headers = ["Cache-Control": "no-cache"]
            #expect(await provider.version(of: revalidating) == (1, .revalidated))
            var reloading = fresh
            reloading.cachePolicy = .reloadIgnoringLocalCacheData
            #expect(await provider.version(of: reloading) == (1, .miss))
            let sent = await server.requests(forCached: "directives").map { $0.header("If-None-Match") }
            #expect(sent == [nil, "\"v1\"", nil])

            let absent = CachedResource(key: "absent", headers: ["Cache-Control": "only-if-cached"])
            let result = await provider.response(on: absent)
            #expect(result.failureStatusCode == 504)
            #expect(await server.requests(forCached: "absent").isEmpty)
        }
    }

    /// RFC 5861: `stale-if-error` serves the stored answer while the server fails, within its window.
    @Test(arguments: TransportKind.allCases)
    func staleIfErrorServesTheStoredAnswerWithinItsWindow(kind: TransportKind) async throws {
        let clock = TestScheduler()
        try await withProvider(kind, clock: clock) { server, provider in
            let endpoint = CachedResource(key: "failing", query: ["cc": "max-age=10, stale-if-error=60"])
            #expect(await provider.version(of: endpoint) == (1, .miss))
            await server.send(.post(), "outage/failing", query: ["status": "503"])
            await clock.advance(by: .seconds(30))
            #expect(await provider.version(of: endpoint) == (1, .stale(.afterError)))
            await clock.advance(by: .seconds(50))
            #expect(await provider.version(of: endpoint) == (nil, .miss))
        }
    }

    /// Section 4.2.4: `must-revalidate` forbids a stale answer, even where `stale-if-error` would allow one.
    @Test(arguments: TransportKind.allCases)
    func mustRevalidateForbidsStaleIfError(kind: TransportKind) async throws {
        let clock = TestScheduler()
        try await withProvider(kind, clock: clock) { server, provider in
            let endpoint = CachedResource(
                key: "strict",
                query: ["cc": "max-age=10, must-revalidate, stale-if-error=60"]
            )
            #expect(await provider.version(of: endpoint) == (1, .miss))
            await server.send(.post(), "outage/strict", query: ["status": "503"])
            await clock.advance(by: .seconds(30))
            #expect(await provider.version(of: endpoint) == (nil, .miss))
        }
    }

    /// An answer that came after a redirect is not stored for the URL asked: the hop may not be stored.
    @Test(arguments: TransportKind.allCases)
    func anAnswerAfterARedirectIsNotStored(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl, cache: HttpCache()) { provider in
                let hop = FreeEndpoint(
                    subpath: "redirect",
                    queryParameters: ["to": .string("/cached/hop?cc=max-age=60")]
                )
                for _ in 0..<2 {
                    let response = await provider.fullResponse(on: hop, decodeBodyTo: CachedResource.Body.self)
                    #expect((try? response.result.get())?.key == "hop")
                    #expect(response.cacheStatus == .miss)
                }
                #expect(await server.receivedRequests().filter { $0.path == "/redirect" }.count == 2)
            }
        }
    }

    /// RFC 5861: within `stale-while-revalidate`, the stale answer at once, and the cache revalidates it meanwhile.
    @Test(arguments: TransportKind.allCases)
    func staleWhileRevalidateAnswersAtOnceAndRevalidates(kind: TransportKind) async throws {
        let clock = TestScheduler()
        try await withProvider(kind, clock: clock) { server, provider in
            let endpoint = CachedResource(
                key: "swr",
                query: ["cc": "max-age=10, stale-while-revalidate=60", "etag": "1"]
            )
            #expect(await provider.version(of: endpoint) == (1, .miss))
            await server.send(.post(), "change/swr")
            await clock.advance(by: .seconds(20))
            #expect(await provider.version(of: endpoint) == (1, .stale(.whileRevalidating)))
            // The revalidation in the background brings version 2, fresh again: served from then on.
            while provider.cache?.isRevalidationDone == false, !Task.isCancelled { await Task.yield() }
            #expect(await provider.version(of: endpoint) == (2, .hit))
            let validators = await server.requests(forCached: "swr").map { $0.header("If-None-Match") }
            #expect(validators == [nil, "\"v1\""])
        }
    }

    /// The offline fallback: the server cannot be reached, and a stale answer is served, saying so; never one that
    /// must be revalidated, and not without the fallback.
    @Test(arguments: TransportKind.allCases)
    func theOfflineFallbackServesAStaleAnswerWhenTheServerCannotBeReached(kind: TransportKind) async throws {
        let cache = HttpCache(servesStaleWhenOffline: true)
        try await withProvider(kind, cache: cache) { server, provider in
            let endpoint = CachedResource(key: "offline", query: ["etag": "1"])
            let strict = CachedResource(key: "strict", query: ["etag": "1", "cc": "max-age=0, must-revalidate"])
            var without = CachedResource(key: "without", query: ["etag": "1"])
            without.caching = Caching.standard.servingStaleWhenOffline(false)
            for resource in [endpoint, strict, without] {
                #expect(await provider.version(of: resource) == (1, .miss))
            }
            await server.stop()
            #expect(await provider.version(of: endpoint) == (1, .stale(.offline)))
            #expect(await provider.version(of: strict) == (nil, nil))
            #expect(await provider.version(of: without) == (nil, nil))
        }
    }
}

extension Result {
    /// The status of a failure that came with an answer, e.g. `504`.
    var failureStatusCode: Int? {
        guard case .failure(let error) = self else { return nil }
        switch error as? ApiError<TestError> {
        case .serverError(let status), .clientError(let status, _), .unexpectedStatusCode(let status): return status
        default: return nil
        }
    }
}
