#if OpenAPI
import Courier
import CourierOpenAPI
import CourierTestServer
import Foundation
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import OpenAPIRuntime
import Testing

/// Courier's plugins and mocks on a generated client's calls: named by operation, refreshing once, answered by
/// operation on virtual time.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct OperationPluginTests {
    /// Metrics and spans carry the operation ID, never the URL: two calls to different paths of one operation
    /// count as one series.
    @Test(arguments: TransportKind.allCases)
    func metricsAndSpansAreNamedByOperationID(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let metrics = TestMetrics()
            let tracer = InMemoryTracer()
            let plugins: [Plugin<OpenAPIOperation>] = [MetricsPlugin(factory: metrics), TracingPlugin(tracer: tracer)]
            try await kind.withProvider(plugins: plugins) { provider in
                for code in [200, 404] {
                    _ = try await provider.send(
                        call(.get, "/status/\(code)"),
                        body: nil,
                        baseURL: server.baseUrl,
                        operationID: "getStatus"
                    )
                }
            }
            let requests = metrics.counters(label: "courier.client.requests")
            #expect(requests.count == 1)
            #expect(requests.first?.dimensions.contains { $0 == ("courier.endpoint", "getStatus") } == true)
            #expect(requests.first?.totalValue == 2)
            let requestSpans = tracer.finishedSpans.filter { $0.kind == .client }
            #expect(requestSpans.map(\.operationName) == ["GET getStatus", "GET getStatus"])
        }
    }

    /// Twenty calls at once rejected with 401 lead to one token refresh, and each is sent again with the new token.
    @Test(arguments: TransportKind.allCases)
    func manyRejectedCallsRefreshTheTokenOnce(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let refreshes = Refreshes()
            let refresh = TokenRefreshPlugin<OpenAPIOperation>(token: "stale") { _ in
                await refreshes.count()
                return "fresh"
            }
            let statuses = try await kind.withProvider(plugins: [refresh]) { provider in
                try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 0..<20 {
                        group.addTask {
                            try await provider.send(
                                call(.get, "/protected?accept=fresh"),
                                body: nil,
                                baseURL: server.baseUrl,
                                operationID: "getProtected"
                            ).0.status
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(statuses == Array(repeating: .ok, count: 20))
            #expect(await refreshes.total == 1)
        }
    }

    /// Mocks answer by operation ID, after their delay on a TestScheduler, through the same plugins: a generated
    /// client's test needs no server.
    @Test func mocksAnswerByOperationOnVirtualTime() async throws {
        let scheduler = TestScheduler()
        let metrics = TestMetrics()
        let behavior = MockingBehavior<OpenAPIOperation>(delay: .seconds(2), scheduler: scheduler) { operation in
            switch operation.operationID {
            case "getTodo": MockedResponse(status: .ok, bodyJson: #"{"id":1,"title":"milk"}"#)
            case "deleteTodo": MockedResponse(status: .notFound, bodyJson: #"{"code":404}"#)
            default: nil
            }
        }
        let provider = ApiProvider(plugins: [MetricsPlugin(factory: metrics)], mockingBehavior: behavior)
        let server = URL(string: "https://todos.example.com/v1")!
        let pending = Task {
            let todo = try await provider.send(
                call(.get, "/todos/1"),
                body: nil,
                baseURL: server,
                operationID: "getTodo"
            )
            let gone = try await provider.send(
                call(.delete, "/todos/2"),
                body: nil,
                baseURL: server,
                operationID: "deleteTodo"
            )
            return (todo.0.status, try await #require(todo.1).collected(), gone.0.status)
        }
        await scheduler.waitForPendingWork()
        await scheduler.advance(by: .seconds(2))
        await scheduler.waitForPendingWork()
        await scheduler.advance(by: .seconds(2))
        let (status, body, goneStatus) = try await pending.value
        #expect(status == .ok)
        #expect(body == Data(#"{"id":1,"title":"milk"}"#.utf8))
        #expect(goneStatus == .notFound)
        #expect(metrics.counters(label: "courier.client.requests").count == 2)

        // An operation without a mocked response fails, naming it, at the same virtual time.
        let unknown = Task {
            await Result(awaiting: {
                try await provider.send(call(.get, "/other"), body: nil, baseURL: server, operationID: "other")
            })
        }
        await scheduler.waitForPendingWork()
        await scheduler.advance(by: .seconds(2))
        let failure = await unknown.value
        #expect(throws: ApiError<Never>.emptyMockedResponse(endpoint: "OpenAPIOperation.other")) { try failure.get() }
    }
}

extension OperationPluginTests {
    /// A mocked status that is not three digits fails the call instead of trapping in `HTTPResponse`.
    @Test func aMockedStatusThatIsNoHttpStatusFailsTheCall() async throws {
        let provider = ApiProvider<OpenAPIOperation>(
            mockingBehavior: MockingBehavior { _ in MockedResponse(status: 1_000) }
        )
        let server = URL(string: "https://todos.example.com")!
        let outcome = await Result(awaiting: {
            try await provider.send(call(.get, "/todos"), body: nil, baseURL: server, operationID: "listTodos")
        })
        #expect(throws: ApiError<Never>.unexpectedStatusCode(statusCode: 1_000)) { try outcome.get() }
    }
}

/// How many times a token was refreshed.
private actor Refreshes {
    private(set) var total = 0

    func count() {
        total += 1
    }
}

extension Result where Failure == any Error {
    /// The outcome of an `async` call.
    init(awaiting body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
#endif
