import Courier
import CourierTestServer
import Foundation
import MetricsTestKit

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
}
