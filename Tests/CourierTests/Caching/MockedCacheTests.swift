import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cache in front of the mocks, on virtual time: a test of an app's caching runs without a server, and the mocks
/// answer only what the cache hands on.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct MockedCacheTests {
    /// A behavior that answers with `answer` for each request's number and its `If-None-Match`, on `clock` (at once
    /// without a delay).
    static func behavior(
        clock: TestScheduler,
        delay: Duration? = nil,
        _ answer: @escaping @Sendable (Int, String?) -> MockedResponse
    ) -> MockingBehavior<CachedResource> {
        MockingBehavior(delay: delay, scheduler: clock) { _, request, number in
            answer(number, request.value(forHTTPHeaderField: "If-None-Match"))
        }
    }

    static func body(_ version: Int) -> Data {
        Data(#"{"key":"mocked","version":\#(version),"varied":""}"#.utf8)
    }

    @Test func entriesAgeOnTheBehaviorsScheduler() async {
        let clock = TestScheduler()
        let behavior = Self.behavior(clock: clock) { number, _ in
            MockedResponse(status: .ok, headers: ["Cache-Control": "max-age=30"], bodyData: Self.body(number))
        }
        let provider = ApiProvider(mockingBehavior: behavior, cache: HttpCache())
        let endpoint = CachedResource(key: "mocked")
        #expect(await provider.version(of: endpoint) == (1, .miss))
        await clock.advance(by: .seconds(29))
        #expect(await provider.version(of: endpoint) == (1, .hit))
        await clock.advance(by: .seconds(2))
        #expect(await provider.version(of: endpoint) == (2, .miss))
        #expect(behavior.answeredRequests.withLock { $0 } == 2)
    }

    /// The sending's timeout is the network's failure to the cache, as a refused connection is: the offline fallback
    /// serves the stored answer when the endpoint's timeout passes before the answer.
    @Test func aTimeoutIsTheNetworksFailureToTheCache() async {
        let clock = TestScheduler()
        let behavior = Self.behavior(clock: clock, delay: .seconds(10)) { number, _ in
            MockedResponse(status: .ok, headers: ["Cache-Control": "max-age=1"], bodyData: Self.body(number))
        }
        let provider = ApiProvider(mockingBehavior: behavior, cache: HttpCache(servesStaleWhenOffline: true))
        var endpoint = CachedResource(key: "mocked")
        async let first = provider.version(of: endpoint)
        await clock.waitForPendingWork()
        await clock.advance(by: .seconds(10))
        #expect(await first == (1, .miss))
        endpoint.timeout = .seconds(5)
        async let second = provider.version(of: endpoint)
        // The mocked answer and the timeout.
        await clock.waitForPendingWork(count: 2)
        await clock.advance(by: .seconds(5))
        #expect(await second == (1, .stale(.offline)))
        #expect(clock.pendingWorkCount == 0)
    }

    /// Section 3.2: a `304`'s fields replace the stored ones (here its freshness and a field of the app's), and the
    /// stored body answers.
    @Test func a304UpdatesTheStoredFields() async {
        let clock = TestScheduler()
        let behavior = Self.behavior(clock: clock) { number, validator in
            guard validator == "\"a\"" else {
                return MockedResponse(
                    status: .ok,
                    headers: ["Cache-Control": "no-cache", "ETag": "\"a\"", "X-Edition": "1"],
                    bodyData: Self.body(1)
                )
            }
            return MockedResponse(status: .notModified, headers: ["Cache-Control": "max-age=60", "X-Edition": "2"])
        }
        let provider = ApiProvider(mockingBehavior: behavior, cache: HttpCache())
        let endpoint = CachedResource(key: "mocked")
        for expected in [(1, CacheStatus.miss), (1, .revalidated), (1, .hit)] {
            let response = await provider.fullResponse(on: endpoint, decodeBodyTo: CachedResource.Body.self)
            #expect((try? response.result.get())?.version == expected.0)
            #expect(response.cacheStatus == expected.1)
            if expected.1 != .miss {
                #expect(response.httpUrlResponse?.value(forHTTPHeaderField: "X-Edition") == "2")
            }
        }
        #expect(behavior.answeredRequests.withLock { $0 } == 2)
    }

    /// Section 4.3.4: a `304` that names another `ETag` confirms another response: the stored one is dropped and
    /// fetched whole.
    @Test func a304ForAnotherETagFetchesTheResponseWhole() async {
        let clock = TestScheduler()
        let behavior = Self.behavior(clock: clock) { number, validator in
            switch (number, validator) {
            case (1, _):
                MockedResponse(
                    status: .ok,
                    headers: ["Cache-Control": "no-cache", "ETag": "\"a\""],
                    bodyData: Self.body(1)
                )
            case (_, "\"a\""): MockedResponse(status: .notModified, headers: ["ETag": "\"b\""])
            default:
                MockedResponse(
                    status: .ok,
                    headers: ["Cache-Control": "no-cache", "ETag": "\"b\""],
                    bodyData: Self.body(number)
                )
            }
        }
        let provider = ApiProvider(mockingBehavior: behavior, cache: HttpCache())
        let endpoint = CachedResource(key: "mocked")
        #expect(await provider.version(of: endpoint) == (1, .miss))
        #expect(await provider.version(of: endpoint) == (3, .miss))
        #expect(behavior.answeredRequests.withLock { $0 } == 3)
    }

    /// An answer to a request that was on its way when its partition was cleared (a sign-out) is not stored.
    @Test func anAnswerArrivingAfterARemovalIsNotStored() async {
        let clock = TestScheduler()
        let behavior = Self.behavior(clock: clock, delay: .seconds(1)) { number, _ in
            MockedResponse(status: .ok, headers: ["Cache-Control": "max-age=600"], bodyData: Self.body(number))
        }
        let cache = HttpCache()
        let provider = ApiProvider(mockingBehavior: behavior, cache: cache)
        let endpoint = CachedResource(key: "mocked")
        async let first = provider.version(of: endpoint)
        await clock.waitForPendingWork(count: 1)
        cache.removeAll(inPartition: "")
        await clock.advance(by: .seconds(1))
        #expect(await first == (1, .miss))
        async let second = provider.version(of: endpoint)
        await clock.advance(by: .seconds(1))
        #expect(await second == (2, .miss))
    }

    /// One hundred identical requests in flight share one mocked answer; each caller decodes its own.
    @Test func identicalRequestsInFlightShareOneAnswer() async {
        let clock = TestScheduler()
        let behavior = Self.behavior(clock: clock, delay: .seconds(1)) { number, _ in
            MockedResponse(status: .ok, bodyData: Self.body(number))
        }
        let cache = HttpCache(sharesInFlight: true)
        let provider = ApiProvider(mockingBehavior: behavior, cache: cache)
        let endpoint = CachedResource(key: "mocked", caching: .bypass.sharingInFlight())
        await withTaskGroup(of: (Int?, CacheStatus?).self) { group in
            for _ in 0..<100 {
                group.addTask { await provider.version(of: endpoint) }
            }
            await cache.waitForCallers(100)
            await clock.advance(by: .seconds(1))
            for await answer in group {
                #expect(answer == (1, nil))
            }
        }
        #expect(behavior.answeredRequests.withLock { $0 } == 1)
    }
}
