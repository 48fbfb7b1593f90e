import CoreMetrics
import Tracing

/// What ``MetricsPlugin`` and ``TracingPlugin`` make of one long-lived connection (a WebSocket of CourierWebSocket):
/// its metrics series and its span, from the first upgrade to the end, across reconnections.
///
/// Made by the provider only when one of those plugins is in its list; a connection without them observes nothing.
package final class ConnectionTelemetry: Sendable {
    private struct State {
        var series: ConnectionSeries?
        var received = 0
        var sent = 0
        var reconnections = 0
        var ended = false
    }

    private let endpointName: String
    private let factory: (any MetricsFactory)?
    private let span: (any Span)?
    private let state = Locked(State())

    init(endpointName: String, factory: (any MetricsFactory)?, tracer: (any Tracer)?) {
        self.endpointName = endpointName
        self.factory = factory
        span = tracer.map { tracer in
            tracer.startSpan("WebSocket \(endpointName)", context: ServiceContext.current ?? .topLevel, ofKind: .client)
        }
        span?.attributes[HttpClientMetrics.endpointDimension] = endpointName
    }

    /// Runs `body` (an upgrade) with the connection's span as the current context, so that the upgrade request's span
    /// is its child.
    package func withSpanContext<Result>(_ body: () async -> Result) async -> Result {
        guard let span else { return await body() }
        return await ServiceContext.withValue(span.context) { await body() }
    }

    /// The first upgrade switched, to `host` on `port`.
    package func opened(host: String, port: Int) {
        span?.updateAttributes { attributes in
            attributes["server.address"] = host
            attributes["server.port"] = port
        }
        guard let factory else { return }
        let series = ConnectionSeries(endpointName: endpointName, host: host, port: port, factory: factory)
        state.withLock { $0.series = series }
        series.active.increment()
    }

    /// A whole message of `bytes` came in.
    package func received(bytes: Int) {
        let series = state.withLock { state in
            state.received += 1
            return state.series
        }
        series?.received.increment()
        series?.receivedBytes.increment(by: Int64(bytes))
    }

    /// A whole message of `bytes` went out.
    package func sent(bytes: Int) {
        let series = state.withLock { state in
            state.sent += 1
            return state.series
        }
        series?.sent.increment()
        series?.sentBytes.increment(by: Int64(bytes))
    }

    /// The connection dropped; attempt number `attempt` to open it again starts after `delay`.
    package func reconnecting(attempt: Int, delay: Duration) {
        span?.addEvent(
            SpanEvent(
                name: "reconnecting",
                attributes: [
                    "courier.reconnection.attempt": .int64(Int64(attempt)),
                    "courier.reconnection.delay_ms": .int64(delay.milliseconds),
                ]
            )
        )
    }

    /// A dropped connection was opened again.
    package func reconnected() {
        let series = state.withLock { state in
            state.reconnections += 1
            return state.series
        }
        series?.reconnections.increment()
        span?.addEvent("reconnected")
    }

    /// The connection ended for good with `closeCode` and `reason`; `errorType` names the failure the reader got, or
    /// the failure to open, if there was one.
    package func ended(closeCode: UInt16?, reason: String?, errorType: String?) {
        let (series, received, sent, reconnections, first) = state.withLock { state in
            defer { state.ended = true }
            return (state.series, state.received, state.sent, state.reconnections, !state.ended)
        }
        guard first else { return }
        if let series {
            series.active.decrement()
            series.closure(code: closeCode).increment()
        }
        guard let span else { return }
        span.updateAttributes { attributes in
            attributes["courier.websocket.close_code"] = closeCode.map { Int($0) }
            attributes["courier.websocket.close_reason"] = reason
            attributes["courier.websocket.messages_received"] = received
            attributes["courier.websocket.messages_sent"] = sent
            if reconnections > 0 { attributes["courier.websocket.reconnections"] = reconnections }
            attributes["error.type"] = errorType
        }
        if let errorType { span.setStatus(SpanStatus(code: .error, message: errorType)) }
        span.end()
    }
}

extension Duration {
    fileprivate var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
