import CoreMetrics
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reports every request through apple/swift-metrics, following OpenTelemetry's HTTP client conventions, with the
/// endpoint's ``Endpoint/telemetryName`` as a dimension: `/todos/1` and `/todos/2` are one series, not two.
///
/// What it reports (names in ``HttpClientMetrics``):
/// - `http.client.request.duration`, a timer (a histogram in seconds; ``HttpClientMetrics/durationBuckets`` are the
///   buckets OpenTelemetry recommends), once per sending, retries included, with the dimensions
///   `http.request.method`, `server.address`, `server.port`, `courier.endpoint`, and `http.response.status_code`
///   when an answer came and `error.type` when it failed (the status from 400 on, or the transport's failure such as
///   `timedOut`, `cannotConnectToHost`, `cancelled`);
/// - `http.client.active_requests`, a meter: the requests under way;
/// - counters: `courier.client.requests` (started), `courier.client.responses` (by `http.response.status_class`,
///   `2xx` … `5xx`), `courier.client.errors` (by `courier.error.kind`, the ``ApiError`` case the caller got) and
///   `courier.client.retries` (by `courier.retry.requested_by`, the plugin that asked).
///
/// No dimension holds the URL's path or query. A request that cannot be built (``ApiError/invalidRequest(reason:)``)
/// is refused before it starts and is not counted. Where the plugin sits in the list does not matter: the provider
/// reports every sending and wait to it, whichever plugin decided them.
///
/// ```swift
/// let provider = ApiProvider<TodoApi>(plugins: [MetricsPlugin()])
/// ```
public final class MetricsPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, RequestObserver, @unchecked Sendable {
    private let counters: MetricHandles<Counter>
    private let meters: MetricHandles<Meter>
    private let timers: MetricHandles<CoreMetrics.Timer>

    /// Creates the plugin.
    /// - Parameter factory: Where the metrics go, e.g. a `TestMetrics` in tests; `nil` for the factory that
    ///   `MetricsSystem.bootstrap` installed, read when a series is first reported.
    public init(factory: (any MetricsFactory)? = nil) {
        counters = MetricHandles { label, dimensions in
            Counter(label: label, dimensions: dimensions, factory: factory ?? MetricsSystem.factory)
        }
        meters = MetricHandles { label, dimensions in
            Meter(label: label, dimensions: dimensions, factory: factory ?? MetricsSystem.factory)
        }
        timers = MetricHandles { label, dimensions in
            CoreMetrics.Timer(
                label: label,
                dimensions: dimensions,
                preferredDisplayUnit: .seconds,
                factory: factory ?? MetricsSystem.factory
            )
        }
    }

    func requestStarted(_ observation: RequestObservation) {
        let dimensions = Self.dimensions(of: observation)
        counters.handle(HttpClientMetrics.requests, dimensions).increment()
        meters.handle(HttpClientMetrics.activeRequests, dimensions).increment()
    }

    func sendingEnded(_ observation: RequestObservation, sending: Sending, outcome: SendingOutcome) {
        let dimensions = Self.dimensions(of: observation)
        var timed = dimensions
        if let status = outcome.statusCode {
            timed.append(("http.response.status_code", String(status)))
            let statusClass = "\(status / 100)xx"
            counters.handle(HttpClientMetrics.responses, dimensions + [("http.response.status_class", statusClass)])
                .increment()
        }
        if let errorType = outcome.errorType { timed.append(("error.type", errorType)) }
        let (seconds, attoseconds) = outcome.duration.components
        timers.handle(HttpClientMetrics.requestDuration, timed)
            .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    func retryScheduled(_ observation: RequestObservation, requestedBy plugin: String, delay: Duration) {
        let dimensions = Self.dimensions(of: observation) + [("courier.retry.requested_by", plugin)]
        counters.handle(HttpClientMetrics.retries, dimensions).increment()
    }

    func requestEnded(_ observation: RequestObservation, outcome: RequestOutcome) {
        let dimensions = Self.dimensions(of: observation)
        meters.handle(HttpClientMetrics.activeRequests, dimensions).decrement()
        if let kind = outcome.errorKind {
            counters.handle(HttpClientMetrics.errors, dimensions + [("courier.error.kind", kind)]).increment()
        }
    }

    /// Method, server and endpoint: what every series of a request shares.
    private static func dimensions(of observation: RequestObservation) -> [(String, String)] {
        let attributes = HttpClientAttributes(observation.request)
        var dimensions = [("http.request.method", attributes.method)]
        if let address = attributes.serverAddress { dimensions.append(("server.address", address)) }
        if let port = attributes.serverPort { dimensions.append(("server.port", String(port))) }
        dimensions.append((HttpClientMetrics.endpointDimension, observation.endpointName))
        return dimensions
    }
}
