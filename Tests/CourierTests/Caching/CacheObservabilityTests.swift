import CourierTestServer
import Foundation
import MetricsTestKit
import Testing

@testable import Courier

/// What the cache did reaches the metrics and the spans: counted by status, set on the request's span and its
/// sending's; an answer the cache gave alone is not an HTTP request's duration.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct CacheObservabilityTests {
    @Test(arguments: TransportKind.allCases)
    func hitsMissesAndRevalidationsAreCountedAndTraced(kind: TransportKind) async throws {
        let metrics = TestMetrics()
        let tracer = W3CTracer()
        let plugins: [Plugin<CachedResource>] = [MetricsPlugin(factory: metrics), TracingPlugin(tracer: tracer)]
        try await TestServer.withServer { server in
            try await kind.withProvider(
                baseUrl: server.baseUrl,
                plugins: plugins,
                scheduler: TestScheduler(),
                cache: HttpCache()
            ) { provider in
                let fresh = CachedResource(key: "observed", query: ["cc": "max-age=60"])
                let validated = CachedResource(key: "validated", query: ["cc": "no-cache", "etag": "1"])
                for endpoint in [fresh, fresh, validated, validated] {
                    _ = await provider.version(of: endpoint)
                }
            }
        }
        var counts: [String: Double] = [:]
        for counter in metrics.counters(label: HttpClientMetrics.cache) {
            for (name, value) in counter.dimensions where name == HttpClientMetrics.cacheStatusDimension {
                counts[value, default: 0] += Double(counter.totalValue)
            }
        }
        #expect(counts == ["miss": 2, "hit": 1, "revalidated": 1])
        // Three of the four went to the server.
        let durations = metrics.timers(label: HttpClientMetrics.requestDuration).reduce(0) { $0 + $1.values.count }
        #expect(durations == 3)

        let spans = tracer.finishedSpans
        let requests = spans.filter { $0.kind == .client }
            .sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
        #expect(requests.map { $0.attributeTexts["courier.cache.status"] } == ["miss", "hit", "miss", "revalidated"])
        let sendings = spans.filter { $0.operationName == "send" }.map { $0.attributeTexts["courier.cache.status"] }
        #expect(sendings.count == 4)
        #expect(sendings.allSatisfy { $0 != nil })
    }

    /// Trace context differs for every request and says nothing of the answer: requests that differ only by it
    /// share one exchange.
    @Test func requestsThatDifferOnlyByTraceContextShareOneExchange() async {
        let clock = TestScheduler()
        let behavior = MockingBehavior<CachedResource>(delay: .seconds(1), scheduler: clock) { _, _, number in
            MockedResponse(status: .ok, bodyData: Data(#"{"key":"k","version":\#(number),"varied":""}"#.utf8))
        }
        let tracer = W3CTracer()
        let cache = HttpCache(sharesInFlight: true)
        let provider = ApiProvider(plugins: [TracingPlugin(tracer: tracer)], mockingBehavior: behavior, cache: cache)
        await withTaskGroup(of: (Int?, CacheStatus?).self) { group in
            for _ in 0..<10 {
                group.addTask { await provider.version(of: CachedResource(key: "traced")) }
            }
            await cache.waitForCallers(10)
            await clock.advance(by: .seconds(1))
            for await answer in group {
                #expect(answer == (1, .miss))
            }
        }
        #expect(behavior.answeredRequests.withLock { $0 } == 1)
        #expect(Set(tracer.finishedSpans.filter { $0.kind == .client }.map(\.traceID)).count == 10)
    }
}
