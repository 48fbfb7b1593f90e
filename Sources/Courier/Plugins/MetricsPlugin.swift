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
///   buckets OpenTelemetry recommends), once per sending, retries included (not for an answer an ``HttpCache`` gave
///   without the network), with the dimensions `http.request.method`, `server.address`, `server.port`,
///   `courier.endpoint`, and `http.response.status_code` when an answer came and `error.type` when it failed (the
///   status from 400 on, or the transport's failure such as `timedOut`, `cannotConnectToHost`, `cancelled`);
/// - `http.client.active_requests`, a meter: the requests under way;
/// - counters: `courier.client.requests` (started), `courier.client.responses` (by `http.response.status_class`,
///   `2xx` … `5xx`), `courier.client.errors` (by `courier.error.kind`, the ``ApiError`` case the caller got),
///   `courier.client.retries` (by `courier.retry.requested_by`, the plugin that asked), and, for a provider with an
///   ``HttpCache``, `courier.client.cache` (by `courier.cache.status`: `hit`, `revalidated`, `miss`, `stale`);
/// - `dns.lookup.duration`, a timer with `dns.question.name`, for each name lookup a transport measured (over
///   `CurlTransport`, once per new connection to a server given by name; see ``SendingTimings``).
/// - for each WebSocket connection (CourierWebSocket), `courier.websocket.active_connections`, and counters of its
///   messages, bytes, closures and reconnections (``HttpClientMetrics/webSocketMessages`` and the names beside it).
///
/// No dimension holds the URL's path or query. A request that cannot be built (``ApiError/invalidRequest(reason:)``)
/// is refused before it starts and is not counted. Where the plugin sits in the list does not matter: the provider
/// reports every sending and wait to it, whichever plugin decided them. The metrics backend is called where each
/// sending's answer arrives, which may be a transport's own thread serving other requests: it must not block there
/// (backends made for servers do not).
///
/// ```swift
/// let provider = ApiProvider<TodoApi>(plugins: [MetricsPlugin()])
/// ```
public final class MetricsPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, RequestObserver, @unchecked Sendable {
    /// It only observes.
    override public var implementedHooks: PluginHooks { [] }
    private let factory: (any MetricsFactory)?
    private let series = Locked<[MetricSeries.Key: MetricSeries]>([:])

    /// Where the metrics go, read when a series is made.
    var metricsFactory: any MetricsFactory { factory ?? MetricsSystem.factory }

    /// Creates the plugin.
    /// - Parameter factory: Where the metrics go, e.g. a `TestMetrics` in tests; `nil` for the factory that
    ///   `MetricsSystem.bootstrap` installed, read when a series is first reported.
    public init(factory: (any MetricsFactory)? = nil) {
        self.factory = factory
    }

    func requestStarted(_ observation: RequestObservation) {
        let series = series(of: observation)
        series.requests.increment()
        series.activeRequests.increment()
    }

    func sendingEnded(_ observation: RequestObservation, sending: Sending, outcome: SendingOutcome) {
        let series = series(of: observation)
        if let status = outcome.statusCode {
            series.counter(HttpClientMetrics.responses, "http.response.status_class", "\(status / 100)xx").increment()
        }
        if let cacheStatus = outcome.cacheStatus {
            series.counter(HttpClientMetrics.cache, HttpClientMetrics.cacheStatusDimension, cacheStatus.name)
                .increment()
        }
        // An answer from the cache alone was no HTTP request: the duration histogram is the network's.
        guard outcome.cacheStatus?.askedTheNetwork ?? true else { return }
        series.duration(statusCode: outcome.statusCode, errorType: outcome.errorType)
            .recordNanoseconds(Self.nanoseconds(outcome.duration))
        if let lookup = outcome.timings?.nameLookup {
            series.nameLookup()?.recordNanoseconds(Self.nanoseconds(lookup))
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    func retryScheduled(_ observation: RequestObservation, requestedBy plugin: String, delay: Duration) {
        series(of: observation).counter(HttpClientMetrics.retries, "courier.retry.requested_by", plugin).increment()
    }

    func requestEnded(_ observation: RequestObservation, outcome: RequestOutcome) {
        let series = series(of: observation)
        series.activeRequests.decrement()
        if let kind = outcome.errorKind {
            series.counter(HttpClientMetrics.errors, "courier.error.kind", kind).increment()
        }
    }

    private func series(of observation: RequestObservation) -> MetricSeries {
        let key = MetricSeries.Key(observation)
        return series.value(for: key) { MetricSeries(key, factory: metricsFactory) }
    }
}
