import CoreMetrics

/// The metric objects of one connection (see ``ConnectionTelemetry``), under the names in ``HttpClientMetrics``, with
/// the endpoint and the server as dimensions.
final class ConnectionSeries: Sendable {
    let active: Meter
    let received: Counter
    let sent: Counter
    let receivedBytes: Counter
    let sentBytes: Counter
    let reconnections: Counter
    private let dimensions: [(String, String)]
    private let factory: any MetricsFactory

    init(endpointName: String, host: String, port: Int, factory: any MetricsFactory) {
        let dimensions = [
            (HttpClientMetrics.endpointDimension, endpointName), ("server.address", host),
            ("server.port", String(port)),
        ]
        func counter(_ label: String, direction: String? = nil) -> Counter {
            let direction = direction.map { [(HttpClientMetrics.webSocketDirectionDimension, $0)] } ?? []
            return Counter(label: label, dimensions: dimensions + direction, factory: factory)
        }
        active = Meter(label: HttpClientMetrics.webSocketActiveConnections, dimensions: dimensions, factory: factory)
        received = counter(HttpClientMetrics.webSocketMessages, direction: "received")
        sent = counter(HttpClientMetrics.webSocketMessages, direction: "sent")
        receivedBytes = counter(HttpClientMetrics.webSocketBytes, direction: "received")
        sentBytes = counter(HttpClientMetrics.webSocketBytes, direction: "sent")
        reconnections = counter(HttpClientMetrics.webSocketReconnections)
        self.dimensions = dimensions
        self.factory = factory
    }

    /// `courier.websocket.closures` for `code` (`none` for a connection that never opened or ended without one).
    func closure(code: UInt16?) -> Counter {
        Counter(
            label: HttpClientMetrics.webSocketClosures,
            dimensions: dimensions + [
                (HttpClientMetrics.webSocketCloseCodeDimension, code.map { String($0) } ?? "none")
            ],
            factory: factory
        )
    }
}
