import CourierTestServer
import Foundation
import MetricsTestKit
import Testing

@testable import Courier

/// The metrics of real requests over both transports, by exact name, dimensions and value.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct MetricsPluginTests {
    typealias Dimensions = [(String, String)]

    /// What every series of a request to `endpoint` on `server` carries.
    static func shared(_ server: TestServer, _ endpoint: String, method: String = "GET") -> Dimensions {
        [
            ("http.request.method", method), ("server.address", "127.0.0.1"), ("server.port", String(server.port)),
            ("courier.endpoint", endpoint),
        ]
    }

    /// How many durations each series of `http.client.request.duration` holds, by its status and error dimensions.
    static func durationCounts(_ metrics: TestMetrics) -> [String: Int] {
        metrics.timers(label: "http.client.request.duration").reduce(into: [:]) { counts, timer in
            let outcome = timer.dimensions.filter { ["http.response.status_code", "error.type"].contains($0.0) }
            counts[outcome.map { "\($0.0)=\($0.1)" }.joined(separator: " "), default: 0] += timer.values.count
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aSuccessIsOneSendingOfOneRequest(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            let observed = try await transport.observe(server) { await $0.rawDataResponse(on: .status(200)) }
            #expect(throws: Never.self) { try observed.result.get() }

            let shared = Self.shared(server, "TestApi.status")
            #expect(try observed.metrics.expectCounter("courier.client.requests", shared).totalValue == 1)
            #expect(try observed.metrics.expectMeter("http.client.active_requests", shared).values == [1, 0])
            let timer = try observed.metrics.expectTimer(
                "http.client.request.duration",
                shared + [("http.response.status_code", "200")]
            )
            #expect(timer.values.count == 1)
            // Positive and below the hang guard: a loopback request under ThreadSanitizer can take seconds.
            #expect(timer.values.allSatisfy { $0 > 0 && $0 < Int64(HangGuard.seconds) * 1_000_000_000 })
            #expect(timer.displayUnit == .seconds)
            #expect(observed.metrics.timers.count == 1)
            let twoHundreds = shared + [("http.response.status_class", "2xx")]
            #expect(try observed.metrics.expectCounter("courier.client.responses", twoHundreds).totalValue == 1)
            #expect(observed.metrics.counters(label: "courier.client.errors").isEmpty)
            #expect(observed.metrics.counters(label: "courier.client.retries").isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aNotFoundCountsAsAClientErrorWithItsStatusAsErrorType(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            let observed = try await transport.observe(server) { await $0.rawDataResponse(on: .status(404)) }
            #expect(observed.result.failure?.kind == "clientError")

            let shared = Self.shared(server, "TestApi.status")
            #expect(Self.durationCounts(observed.metrics) == ["http.response.status_code=404 error.type=404": 1])
            #expect(
                try observed.metrics.expectCounter(
                    "courier.client.errors",
                    shared + [("courier.error.kind", "clientError")]
                )
                .totalValue == 1
            )
            let fourHundreds = shared + [("http.response.status_class", "4xx")]
            #expect(try observed.metrics.expectCounter("courier.client.responses", fourHundreds).totalValue == 1)
            #expect(try observed.metrics.expectMeter("http.client.active_requests", shared).lastValue == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func a503RetriedTwiceThenA200IsThreeSendingsAndTwoRetries(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            let observed = try await transport.observeFlakyRouteRetried(server, key: "metrics-\(transport)")

            let shared = Self.shared(server, "TestApi.flaky")
            #expect(
                Self.durationCounts(observed.metrics) == [
                    "http.response.status_code=503 error.type=503": 2, "http.response.status_code=200": 1,
                ]
            )
            #expect(try observed.metrics.expectCounter("courier.client.requests", shared).totalValue == 1)
            let byRetry = shared + [("courier.retry.requested_by", "RetryPlugin")]
            #expect(try observed.metrics.expectCounter("courier.client.retries", byRetry).totalValue == 2)
            #expect(observed.metrics.counters(label: "courier.client.errors").isEmpty)
            #expect(await server.receivedRequests().count == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTokenRefreshIsARetryRequestedByTheRefreshPlugin(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            let auth = TokenRefreshPlugin<TestApi>(token: "stale") { _ in "fresh" }
            let observed = try await transport.observe(server, plugins: [auth]) {
                await $0.rawDataResponse(on: .protected(accept: "fresh"))
            }
            #expect(throws: Never.self) { try observed.result.get() }

            let shared = Self.shared(server, "TestApi.protected")
            #expect(
                Self.durationCounts(observed.metrics) == [
                    "http.response.status_code=401 error.type=401": 1, "http.response.status_code=200": 1,
                ]
            )
            let byRefresh = shared + [("courier.retry.requested_by", "TokenRefreshPlugin")]
            #expect(try observed.metrics.expectCounter("courier.client.retries", byRefresh).totalValue == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTimeoutIsReportedByName(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            let observed = try await transport.observe(server) {
                await $0.rawDataResponse(on: .silent(id: "timeout", timeout: .milliseconds(200)))
            }
            #expect(observed.result.failure?.kind == "noResponseReceived")

            let shared = Self.shared(server, "TestApi.silent")
            #expect(Self.durationCounts(observed.metrics) == ["error.type=timedOut": 1])
            let errors = shared + [("courier.error.kind", "noResponseReceived")]
            #expect(try observed.metrics.expectCounter("courier.client.errors", errors).totalValue == 1)
            #expect(observed.metrics.counters(label: "courier.client.responses").isEmpty)
            #expect(try observed.metrics.expectMeter("http.client.active_requests", shared).lastValue == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aCancelledRequestEndsItsSendingAsCancelled(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            let observed = try await transport.observeCancelledWhileSent(server)

            let shared = Self.shared(server, "TestApi.slow")
            #expect(Self.durationCounts(observed.metrics) == ["error.type=cancelled": 1])
            let errors = shared + [("courier.error.kind", "cancelled")]
            #expect(try observed.metrics.expectCounter("courier.client.errors", errors).totalValue == 1)
            #expect(try observed.metrics.expectMeter("http.client.active_requests", shared).values == [1, 0])
        }
    }

    @Test func aMockedProviderReportsAsALiveOne() async throws {
        let metrics = TestMetrics()
        let provider = ApiProvider<TestApi>(
            baseUrl: URL(string: "https://api.example.com:8443/v1"),
            plugins: [MetricsPlugin(factory: metrics)],
            mockingBehavior: MockingBehavior { _ in MockedResponse(status: .notFound, bodyJson: nil) }
        )
        #expect(await provider.rawDataResponse(on: .status(404)).failure?.kind == "clientError")

        let shared: Dimensions = [
            ("http.request.method", "GET"), ("server.address", "api.example.com"), ("server.port", "8443"),
            ("courier.endpoint", "TestApi.status"),
        ]
        #expect(Self.durationCounts(metrics) == ["http.response.status_code=404 error.type=404": 1])
        #expect(try metrics.expectCounter("courier.client.requests", shared).totalValue == 1)
        #expect(
            try metrics.expectCounter("courier.client.errors", shared + [("courier.error.kind", "clientError")])
                .totalValue == 1
        )
    }

    @Test func twoHundredIdsOfOneEndpointAreOneSeries() async throws {
        try await TestServer.withServer { server in
            let metrics = TestMetrics()
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [MetricsPlugin(factory: metrics)])
            await withTaskGroup(of: Void.self) { group in
                for id in 0..<200 {
                    group.addTask {
                        _ = await provider.rawDataResponse(on: .echo(path: "users/\(id)", query: ["id": .int(id)]))
                    }
                }
            }
            let timers = metrics.timers(label: "http.client.request.duration")
            #expect(timers.count == 1)
            #expect(timers.first?.values.count == 200)
            let requests = try metrics.expectCounter("courier.client.requests", Self.shared(server, "TestApi.echo"))
            #expect(requests.totalValue == 200)
            // No dimension of any series holds a path or a query.
            let values = (metrics.timers.flatMap(\.dimensions) + metrics.counters.flatMap(\.dimensions)).map(\.1)
            #expect(!values.contains { $0.contains("/") || $0.contains("?") || $0.contains("users") })
        }
    }

    @Test func aRequestThatCannotBeBuiltIsNotCounted() async throws {
        let metrics = TestMetrics()
        let provider = ApiProvider<FreeEndpoint>(plugins: [MetricsPlugin(factory: metrics)])
        let result = await provider.rawDataResponse(on: FreeEndpoint(baseUrl: URL(string: "no-scheme")!))
        #expect(result.invalidRequestReason != nil)
        #expect(metrics.counters.isEmpty)
        #expect(metrics.timers.isEmpty)
    }
}

extension Result where Failure == ApiError<TestError> {
    /// The failure's case name, or `nil` for a success.
    var failure: ApiError<TestError>? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
