import Courier
import CourierTestServer
import Foundation
import Logging
import Testing

#if AsyncHTTPClient
import AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

@testable import TodoExample

/// The examples in the doc comments of Courier's public types, run against the loopback server or mocks.
///
/// A provider made in a snippet names no test server; setting its ``ApiProvider/baseUrl`` afterwards points it at
/// the loopback one.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct DocCommentSnippets {
    let session = Session()

    /// Compiled, not run: the provider goes to the endpoints' own server, which tests cannot reach.
    static func apiProvider() async {
        // snippet: ApiProvider doc
        let provider = ApiProvider<TodoApi>()
        let todos = await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
        // end snippet
        print(todos)
    }

    @Test func testSchedulerAndMockingBehavior() async throws {
        // snippet: TestScheduler doc
        let scheduler = TestScheduler()
        let provider = ApiProvider<TodoApi>(
            mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler)
        )
        async let todos = provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
        await scheduler.advance(by: .milliseconds(300))
        let loaded = await todos
        try scheduler.checkNoPendingWork()
        // end snippet
        #expect(loaded == .success([Todo(id: 1, title: "Buy milk")]))
        #expect(scheduler.now == .milliseconds(300))
        async let deleted = provider.response(on: .delete(id: 1))
        await scheduler.waitForPendingWork()  // the exact handshake: the request has entered the provider
        await scheduler.advance(by: .milliseconds(300))
        #expect(await deleted == .success(EmptyBodyResponse()))
        // snippet: checkNoPendingWork doc
        try scheduler.checkNoPendingWork()  // Swift Testing or XCTest, in a throwing test
        // end snippet
    }

    @Test func aMockingBehaviorOnATestScheduler() async {
        // snippet: MockingBehavior doc
        let scheduler = TestScheduler()
        let provider = ApiProvider<TodoApi>(
            mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler)
        )
        // end snippet
        async let shown = provider.response(on: .show(id: 4), decodeBodyTo: Todo.self)
        await scheduler.waitForPendingWork()  // the exact handshake: the request has entered the provider
        await scheduler.advance(by: .milliseconds(299))
        #expect(scheduler.pendingWorkCount == 1)
        await scheduler.advance(by: .milliseconds(1))
        #expect(await shown == .success(Todo(id: 4, title: "Buy milk")))
    }

    @Test func httpAuthForms() async throws {
        let session = session
        let weatherKey = "k-123"
        try await TestServer.withServer { server in
            // snippet: HttpAuthPlugin doc
            let bearer = HttpAuthPlugin<TodoApi> { await session.validAccessToken() }
            let basic = HttpAuthPlugin<TodoApi>(username: "ann", password: "pä:ss")
            let apiKey = HttpAuthPlugin<WeatherApi>(apiKey: weatherKey, in: .header("X-Api-Key"))
            // end snippet
            for plugin in [bearer, basic] {
                let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl, plugins: [plugin])
                _ = try await provider.response(on: .show(id: 1), decodeBodyTo: Todo.self).get()
            }
            #expect(
                await server.receivedRequests().map { $0.header("Authorization") } == [
                    "Bearer token-1", "Basic YW5uOnDDpDpzcw==",
                ]
            )
            let weather = ApiProvider<WeatherApi>(baseUrl: server.url("/echo"), plugins: [apiKey])
            let received = try await weather.response(
                on: .forecast(city: "Oslo", days: 2),
                decodeBodyTo: ReceivedRequest.self
            ).get()
            #expect(received.header("X-Api-Key") == "k-123")
        }
    }

    @Test func tokenRefresh() async throws {
        let session = session
        try await TestServer.withServer { server in
            // snippet: TokenRefreshPlugin doc
            let auth = TokenRefreshPlugin<TodoApi>(token: session.accessToken) { rejectedToken in
                try await session.refresh()  // returns the new access token
            }
            let provider = ApiProvider<TodoApi>(plugins: [auth])
            // end snippet
            provider.baseUrl = server.baseUrl
            _ = try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
            #expect(await server.receivedRequests().map { $0.header("Authorization") } == ["Bearer token-1"])
        }
    }

    @Test func retry() async throws {
        try await TestServer.withServer { server in
            // snippet: RetryPlugin doc
            let provider = ApiProvider<TodoApi>(plugins: [RetryPlugin(policy: RetryPolicy(maximumAttempts: 4))])
            // end snippet
            provider.baseUrl = server.baseUrl
            _ = try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
            #expect(await server.receivedRequests().count == 1)  // a success is not sent again
        }
    }

    @Test func validation() async throws {
        try await TestServer.withServer { server in
            // snippet: ValidationPlugin doc
            let validation = ValidationPlugin<TodoApi> { endpoint in
                switch endpoint {
                case .delete: ResponseExpectation(statusCodes: [204])
                default: ResponseExpectation(statusCodes: 200..<300, contentType: "application/json")
                }
            }
            // end snippet
            let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl, plugins: [validation])
            #expect(await provider.response(on: .delete(id: 2)) == .success(EmptyBodyResponse()))
            let listed = try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
            #expect(listed.count == 3)
        }
    }

    @Test func requestRecorder() async {
        // snippet: RequestRecorderPlugin doc
        let recorder = RequestRecorderPlugin<TodoApi>()
        let provider = ApiProvider<TodoApi>(plugins: [recorder], mockingBehavior: MockingBehavior())
        _ = await provider.response(on: .delete(id: 3))
        #expect(recorder.requests.map(\.urlRequest.httpMethod) == ["DELETE"])
        // end snippet
    }

    @Test func logging() async throws {
        try await TestServer.withServer { server in
            // snippet: RequestLoggerPlugin doc
            let logger = Logger(label: "todo.api")
            let redaction = LogRedaction(queryParameters: ["api_key"], jsonFields: ["password"])
            let plugins: [Plugin<TodoApi>] = [
                RequestLoggerPlugin(logger: logger, redaction: redaction),
                ResponseLoggerPlugin(logger: logger, redaction: redaction),
            ]
            // end snippet
            let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl, plugins: plugins)
            let listed = try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
            #expect(listed.count == 3)
        }
    }

    @Test func metricsAndTracingPlugins() async throws {
        try await TestServer.withServer { server in
            let token = "t0ken"
            // snippet: MetricsPlugin doc
            let provider = ApiProvider<TodoApi>(plugins: [MetricsPlugin()])
            // end snippet
            provider.baseUrl = server.baseUrl
            let measured = try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
            #expect(measured.count == 3)
            do {
                // snippet: TracingPlugin doc
                let provider = ApiProvider<TodoApi>(
                    plugins: [
                        HttpAuthPlugin { token },
                        TracingPlugin(),
                        RequestLoggerPlugin(logger: Logger(label: "todo.api")),
                        ResponseLoggerPlugin(logger: Logger(label: "todo.api")),
                    ]
                )
                // end snippet
                provider.baseUrl = server.baseUrl
                let traced = try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
                #expect(traced.count == 3)
            }
            #expect(await server.receivedRequests().last?.header("Authorization") == "Bearer t0ken")
        }
    }

    #if AsyncHTTPClient
    @Test func asyncHttpClientTransport() async throws {
        try await TestServer.withServer { server in
            // snippet: AsyncHTTPClientTransport doc
            let client = HTTPClient(configuration: .init(connectionPool: .init(idleTimeout: .seconds(60))))
            let provider = ApiProvider<TodoApi>(transport: AsyncHTTPClientTransport(client: client))
            // … and when done with it:
            try await client.shutdown()
            // end snippet
            // A client is good until it is shut down: a provider then fails instead of hanging.
            provider.baseUrl = server.baseUrl
            let afterShutdown = await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
            guard case .failure(.noResponseReceived) = afterShutdown else {
                Issue.record("expected noResponseReceived after shutdown, got \(afterShutdown)")
                return
            }
        }
    }
    #endif

    @Test func curlTransport() async throws {
        try await TestServer.withServer { server in
            // snippet: CurlTransport doc
            let provider = ApiProvider<TodoApi>(transport: CurlTransport())
            // end snippet
            provider.baseUrl = server.baseUrl
            let todos = try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
            #expect(todos.count == 3)
        }
    }

    @Test func curlTransportWithOneEngine() async throws {
        try await TestServer.withServer { server in
            // snippet: CurlTransport with one engine
            let provider = ApiProvider<TodoApi>(transport: CurlTransport(engines: 1))
            // end snippet
            provider.baseUrl = server.baseUrl
            let todos = try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
            #expect(todos.count == 3)
        }
    }
}
