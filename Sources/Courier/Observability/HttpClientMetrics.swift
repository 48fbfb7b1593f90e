/// The names ``MetricsPlugin`` reports under, and the buckets OpenTelemetry recommends for its duration histogram.
public enum HttpClientMetrics {
    /// OpenTelemetry's `http.client.request.duration`: a timer per sending, in seconds.
    public static let requestDuration = "http.client.request.duration"
    /// OpenTelemetry's `http.client.active_requests`: a meter of the requests under way.
    public static let activeRequests = "http.client.active_requests"
    /// A counter of the requests started.
    public static let requests = "courier.client.requests"
    /// A counter of the answers received, by `http.response.status_class` (`2xx` … `5xx`).
    public static let responses = "courier.client.responses"
    /// A counter of the requests that failed, by `courier.error.kind` (the ``ApiError`` case, e.g. `clientError`).
    public static let errors = "courier.client.errors"
    /// A counter of the resends, by `courier.retry.requested_by` (the plugin that asked, e.g. `RetryPlugin`).
    public static let retries = "courier.client.retries"
    /// A counter of the answers that went through a provider's ``HttpCache``, by ``cacheStatusDimension``.
    public static let cache = "courier.client.cache"
    /// What the cache did (``CacheStatus/name``): a dimension of ``cache`` and an attribute of the request's span
    /// and of its sending's.
    public static let cacheStatusDimension = "courier.cache.status"
    /// OpenTelemetry's `dns.lookup.duration`: a timer per name lookup a transport measured (see ``SendingTimings``),
    /// in seconds, with the name looked up as `dns.question.name`; OpenTelemetry recommends ``durationBuckets`` for it
    /// too.
    public static let nameLookupDuration = "dns.lookup.duration"
    /// The dimension that names the endpoint, by its ``Endpoint/telemetryName``.
    public static let endpointDimension = "courier.endpoint"

    /// A meter of the WebSocket connections open (CourierWebSocket), one per connection across its reconnections.
    public static let webSocketActiveConnections = "courier.websocket.active_connections"
    /// A counter of the WebSocket messages, by ``webSocketDirectionDimension``.
    public static let webSocketMessages = "courier.websocket.messages"
    /// A counter of the WebSocket messages' payload bytes, by ``webSocketDirectionDimension``.
    public static let webSocketBytes = "courier.websocket.bytes"
    /// A counter of the WebSocket connections ended, by ``webSocketCloseCodeDimension``.
    public static let webSocketClosures = "courier.websocket.closures"
    /// A counter of the dropped WebSocket connections opened again.
    public static let webSocketReconnections = "courier.websocket.reconnections"
    /// `received` or `sent`: a dimension of ``webSocketMessages`` and ``webSocketBytes``.
    public static let webSocketDirectionDimension = "courier.websocket.direction"
    /// The close code a WebSocket connection ended with (e.g. `1000`, `1006`): a dimension of ``webSocketClosures``.
    public static let webSocketCloseCodeDimension = "courier.websocket.close_code"

    /// OpenTelemetry's recommended bucket boundaries for `http.client.request.duration`, 5 ms to 10 s; a backend
    /// that takes buckets per metric (swift-prometheus) is given these.
    public static let durationBuckets: [Duration] = [
        0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
    ].map { .seconds($0) }
}
