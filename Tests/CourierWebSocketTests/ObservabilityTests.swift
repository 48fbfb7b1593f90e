#if WebSocket
import Courier
import CourierTestServer
import CourierTestServerWebSocket
import CourierWebSocket
import Foundation
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

/// A connection's metrics and span, from the provider's MetricsPlugin and TracingPlugin, checked against what went
/// over the loopback connection.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ObservabilityTests {
    struct Observing {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()

        func provider(_ server: WebSocketTestServer, scheduler: TestScheduler? = nil) -> ApiProvider<ChatApi> {
            ApiProvider<ChatApi>(
                baseUrl: server.baseUrl,
                plugins: [MetricsPlugin(factory: metrics), TracingPlugin(tracer: tracer)],
                scheduler: scheduler
            )
        }

        func dimensions(_ server: WebSocketTestServer, endpoint: String) -> [(String, String)] {
            let port = server.baseUrl.port.map { String($0) } ?? ""
            return [("courier.endpoint", endpoint), ("server.address", "127.0.0.1"), ("server.port", port)]
        }
    }

    @Test func aConnectionReportsItsMessagesBytesAndClosureUnderItsEndpoint() async throws {
        try await WebSocketTestServer.withServer { server in
            let observing = Observing()
            let socket = try await observing.provider(server)
                .webSocket(on: .echo, receiving: WebSocketMessage.self, sending: WebSocketMessage.self).get()
            var iterator = socket.makeAsyncIterator()
            for message in [WebSocketMessage.text("hello"), .binary(Data([1, 2, 3]))] {
                try await socket.send(message)
                #expect(try await iterator.next() == message)
            }
            await socket.close()
            let metrics = observing.metrics
            let dimensions = observing.dimensions(server, endpoint: "ChatApi.echo")
            for direction in ["received", "sent"] {
                let directed = dimensions + [("courier.websocket.direction", direction)]
                #expect(metrics.counterTotal(label: HttpClientMetrics.webSocketMessages, dimensions: directed) == 2)
                #expect(metrics.counterTotal(label: HttpClientMetrics.webSocketBytes, dimensions: directed) == 8)
            }
            let closed = dimensions + [("courier.websocket.close_code", "1000")]
            #expect(metrics.counterTotal(label: HttpClientMetrics.webSocketClosures, dimensions: closed) == 1)
            let active = metrics.meters(label: HttpClientMetrics.webSocketActiveConnections, dimensions: dimensions)
            #expect(active.map { $0.values } == [[1, 0]])

            let spans = observing.tracer.finishedSpans
            let connection = try #require(spans.first { $0.operationName == "WebSocket ChatApi.echo" })
            #expect(connection.kind == .client)
            #expect(connection.attributes["courier.websocket.close_code"]?.toSpanAttribute() == .int64(1000))
            #expect(connection.attributes["courier.websocket.messages_received"]?.toSpanAttribute() == .int64(2))
            #expect(connection.attributes["courier.websocket.messages_sent"]?.toSpanAttribute() == .int64(2))
            #expect(connection.attributes["server.address"]?.toSpanAttribute() == .string("127.0.0.1"))
            #expect(connection.status == nil)
            // The upgrade request's span, from the pipeline, is the connection's child.
            let upgrade = try #require(spans.first { $0.operationName == "GET ChatApi.echo" })
            #expect(upgrade.parentSpanID == connection.spanID)
        }
    }

    @Test func aReconnectionIsCountedAndItsUpgradeTracedUnderTheConnection() async throws {
        try await WebSocketTestServer.withServer { server in
            let observing = Observing()
            let scheduler = TestScheduler()
            let socket = try await observing.provider(server, scheduler: scheduler)
                .webSocket(
                    on: .drops(count: 1),
                    receiving: Numbered.self,
                    sending: WebSocketMessage.self,
                    options: ReconnectionTests.options()
                ) { send in
                    try await send(.text("subscribe"))
                }.get()
            var iterator = socket.makeAsyncIterator()
            try await socket.send(.text("subscribe"))
            #expect(try await iterator.next() == Numbered(number: 1))
            await scheduler.waitForPendingWork(count: 1)
            await scheduler.advance(by: .seconds(1))
            #expect(try await iterator.next() == Numbered(number: 2))
            await socket.close()
            let dimensions = observing.dimensions(server, endpoint: "ChatApi.drops")
            let metrics = observing.metrics
            #expect(metrics.counterTotal(label: HttpClientMetrics.webSocketReconnections, dimensions: dimensions) == 1)
            let sent = dimensions + [("courier.websocket.direction", "sent")]
            #expect(metrics.counterTotal(label: HttpClientMetrics.webSocketMessages, dimensions: sent) == 2)

            let spans = observing.tracer.finishedSpans
            let connection = try #require(spans.first { $0.operationName == "WebSocket ChatApi.drops" })
            #expect(connection.events.map(\.name) == ["reconnecting", "reconnected"])
            #expect(
                connection.events.first?.attributes["courier.reconnection.delay_ms"]?.toSpanAttribute() == .int64(1000)
            )
            #expect(connection.attributes["courier.websocket.reconnections"]?.toSpanAttribute() == .int64(1))
            let upgrades = spans.filter { $0.operationName == "GET ChatApi.drops" }
            #expect(upgrades.count == 2)
            #expect(upgrades.allSatisfy { $0.parentSpanID == connection.spanID })
        }
    }

    @Test func aRefusedUpgradeEndsTheConnectionsSpanAsAnError() async throws {
        try await WebSocketTestServer.withServer { server in
            let observing = Observing()
            let outcome = await observing.provider(server)
                .webSocket(on: .refuse(status: 403), receiving: Line.self, sending: Line.self)
            #expect(
                outcome.failure == .clientError(statusCode: 403, clientError: Refusal(code: 403, message: "refused"))
            )
            let connection = try #require(
                observing.tracer.finishedSpans.first { $0.operationName == "WebSocket ChatApi.refuse" }
            )
            #expect(connection.attributes["error.type"]?.toSpanAttribute() == .string("clientError"))
            #expect(connection.status?.code == .error)
            // Never opened: no connection series.
            #expect(observing.metrics.meters(label: HttpClientMetrics.webSocketActiveConnections).isEmpty)
        }
    }
}
#endif
