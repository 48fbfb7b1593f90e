import Courier
import CourierTestServer
import Foundation
import InMemoryTracing
import Logging
import Prometheus
import Testing
import Tracing

@testable import TodoExample

/// The Observability article's snippets, run against the loopback server with a real metrics backend
/// (swift-prometheus) and an in-memory tracer.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ObservabilitySnippets {
    static func prometheusProvider(registry: PrometheusCollectorRegistry) -> ApiProvider<TodoApi> {
        // snippet: Observability prometheus
        var factory = PrometheusMetricsFactory(registry: registry)
        // Prometheus names have no dots: http.client.request.duration is scraped as http_client_request_duration.
        factory.nameAndLabelSanitizer = { name, labels in
            (name.replacing(".", with: "_"), labels.map { ($0.replacing(".", with: "_"), $1) })
        }
        factory.durationHistogramBuckets["http_client_request_duration"] = HttpClientMetrics.durationBuckets
        let provider = ApiProvider<TodoApi>(plugins: [MetricsPlugin(factory: factory)])
        // end snippet
        return provider
    }

    @Test func prometheusScrapesTheEndpointsSeries() async throws {
        try await TestServer.withServer { server in
            let registry = PrometheusCollectorRegistry()
            let provider = Self.prometheusProvider(registry: registry)
            provider.baseUrl = server.baseUrl
            for page in 1...3 { _ = await provider.response(on: .list(page: page), decodeBodyTo: [Todo].self) }
            _ = await provider.response(on: .show(id: 404), decodeBodyTo: Todo.self)

            let scraped = registry.emitToString()
            let labels = #"http_request_method="GET",server_address="127.0.0.1",server_port="\#(server.port)""#
            #expect(
                scraped.contains(
                    #"http_client_request_duration_count{\#(labels),courier_endpoint="TodoApi.list",http_response_status_code="200"} 3"#
                )
            )
            #expect(scraped.contains(#"courier_endpoint="TodoApi.list",http_response_status_code="200",le="0.005"}"#))
            #expect(
                scraped.contains(
                    #"courier_client_errors{\#(labels),courier_endpoint="TodoApi.show",courier_error_kind="clientError"} 1"#
                )
            )
            #expect(scraped.contains(#"http_client_active_requests{\#(labels),courier_endpoint="TodoApi.list"} 0"#))
            #expect(!scraped.contains("page="))
        }
    }

    static func tracedTodos(tracer: any Tracer, logger: Logger, server: URL) async throws -> [Todo] {
        // snippet: Observability tracing
        let provider = ApiProvider<TodoApi>(
            plugins: [
                TracingPlugin(tracer: tracer), RequestLoggerPlugin(logger: logger), ResponseLoggerPlugin(logger: logger),
            ]
        )
        // end snippet
        provider.baseUrl = server
        // snippet: Observability parent span
        let todos = try await tracer.withSpan("load todos") { _ in
            try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
        }
        // end snippet
        return todos
    }

    @Test func aRequestInsideASpanIsItsChild() async throws {
        try await TestServer.withServer { server in
            let tracer = InMemoryTracer()
            let todos = try await Self.tracedTodos(
                tracer: tracer,
                logger: Logger(label: "test"),
                server: server.baseUrl
            )
            #expect(!todos.isEmpty)
            let spans = tracer.finishedSpans
            let parent = try #require(spans.first { $0.operationName == "load todos" })
            let request = try #require(spans.first { $0.operationName == "GET TodoApi.list" })
            #expect(request.parentSpanID == parent.spanID)
            #expect(request.kind == .client)
            // The in-memory tracer propagates its own headers; a W3C propagator writes `traceparent`.
            let received = try #require(await server.receivedRequests().first)
            #expect(received.header(InMemoryTracer.spanIDKey) == request.spanID)
        }
    }

    /// Compiled, not run: it shows the order of plugins with the global backends of an app.
    static func everything(token: String) -> ApiProvider<TodoApi> {
        // snippet: Observability everything
        // At startup, once: MetricsSystem.bootstrap(…) and InstrumentationSystem.bootstrap(…) with your backends.
        let provider = ApiProvider<TodoApi>(
            plugins: [
                RetryPlugin(),
                HttpAuthPlugin { token },
                MetricsPlugin(),
                TracingPlugin(),
                RequestLoggerPlugin(logger: Logger(label: "todo.api")),
                ResponseLoggerPlugin(logger: Logger(label: "todo.api")),
            ]
        )
        // end snippet
        return provider
    }

    @Test func theEndpointNamesItsCasesItself() {
        #expect(ProfileApi.search(query: "swift", page: 2).telemetryName == "search")
        #expect(ProfileApi.user(login: "ann").telemetryName == "user profile")
        #expect(TodoApi.show(id: 7).telemetryName == "TodoApi.show")
    }
}

// snippet: Observability telemetry name
enum ProfileApi: Endpoint {
    typealias ClientErrorType = TodoError

    case search(query: String, page: Int)
    case user(login: String)

    var baseUrl: URL { URL(string: "https://api.example.com")! }
    var subpath: String {
        switch self {
        case .search: "search"
        case .user(let login): "users/\(login)"
        }
    }
    var method: HttpMethod { .get }

    /// One name per case, whatever the query or login: one metric series each.
    var telemetryName: String {
        switch self {
        case .search: "search"
        case .user: "user profile"
        }
    }
}
// end snippet
