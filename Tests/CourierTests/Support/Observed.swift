import Courier
import CourierTestServer
import Foundation
import MetricsTestKit
import Testing

/// What one request reported through both observing plugins, and what its caller got.
struct Observed {
    let result: ApiProvider<TestApi>.TypedResult<Data>
    let metrics: TestMetrics
    let tracer: W3CTracer
}

extension TransportKind {
    /// Sends what `body` sends through a provider over this transport with `plugins`, then the metrics and tracing
    /// plugins, and returns what they reported.
    func observe(
        _ server: TestServer,
        plugins: [Plugin<TestApi>] = [],
        _ body: (ApiProvider<TestApi>) async -> ApiProvider<TestApi>.TypedResult<Data>
    ) async throws -> Observed {
        let metrics = TestMetrics()
        let tracer = W3CTracer()
        let observing: [Plugin<TestApi>] = [MetricsPlugin(factory: metrics), TracingPlugin(tracer: tracer)]
        let result = try await withProvider(baseUrl: server.baseUrl, plugins: plugins + observing, body)
        return Observed(result: result, metrics: metrics, tracer: tracer)
    }

    /// A route that answers 503 twice and then 200, retried at once (5 ms and 10 ms of backoff, not waited for);
    /// fails the test unless the third answer is the caller's.
    func observeFlakyRouteRetried(_ server: TestServer, key: String) async throws -> Observed {
        let retry = RetryPlugin<TestApi>(
            policy: RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(5), jitter: 0),
            scheduler: ImmediateScheduler()
        )
        let observed = try await observe(server, plugins: [retry]) {
            await $0.rawDataResponse(on: .flaky(key: key, failures: 2))
        }
        #expect(observed.result == .success(Data(#"{"attempt":3}"#.utf8)))
        return observed
    }

    /// A request cancelled by its caller once the server has it; fails the test unless the caller got `cancelled`.
    func observeCancelledWhileSent(_ server: TestServer) async throws -> Observed {
        let observed = try await observe(server) { provider in
            let task = Task { await provider.rawDataResponse(on: .slow(milliseconds: HangGuard.seconds * 1_000)) }
            await server.waitForRequests()
            task.cancel()
            return await task.value
        }
        #expect(observed.result == .failure(.cancelled))
        return observed
    }
}
