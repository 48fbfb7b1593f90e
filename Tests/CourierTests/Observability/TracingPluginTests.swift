import CourierTestServer
import Foundation
import InMemoryTracing
import Testing
import Tracing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if AsyncHTTPClient
import AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

/// The spans of real requests over both transports, their attributes and tree, and the `traceparent` the server
/// received.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct TracingPluginTests {
    /// The request's span (the one of kind `client`) and its children, in the order they started.
    struct Tree {
        let request: FinishedInMemorySpan
        let children: [FinishedInMemorySpan]

        init(_ spans: [FinishedInMemorySpan]) throws {
            let requests = spans.filter { $0.kind == .client }
            try #require(requests.count == 1, "one request span among \(spans.map(\.operationName))")
            request = requests[0]
            children = spans.filter { $0.parentSpanID == requests[0].spanID }
                .sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
        }

        var childNames: [String] { children.map(\.operationName) }
    }

    /// The trace and parent span ids of a received `traceparent`.
    static func ids(of header: String?) -> (traceId: String, spanId: String)? {
        guard let fields = header?.split(separator: "-"), fields.count == 4 else { return nil }
        return (String(fields[1]), String(fields[2]))
    }

    @Test(arguments: TransportKind.allCases)
    func aSuccessIsAClientSpanWithOneSendingAndItsContextReachesTheServer(
        over transport: TransportKind
    )
        async throws
    {
        try await TestServer.withServer { server in
            let parent = W3CTracer().startSpan("caller", ofKind: .server)
            let observed = try await transport.observe(server) { provider in
                await ServiceContext.withValue(parent.context) {
                    await provider.rawDataResponse(on: .echo(path: "todos/7", query: ["q": "swift"]))
                }
            }
            parent.end()
            #expect(throws: Never.self) { try observed.result.get() }

            let tree = try Tree(observed.tracer.finishedSpans)
            #expect(tree.request.operationName == "GET TestApi.echo")
            #expect(tree.request.parentSpanID == parent.spanID)
            #expect(tree.request.traceID == parent.traceID)
            #expect(
                tree.request.attributeTexts == [
                    "http.request.method": "GET",
                    "url.full": server.url("/echo/todos/7?q=swift").absoluteString,
                    "server.address": "127.0.0.1",
                    "server.port": String(server.port),
                    "courier.endpoint": "TestApi.echo",
                    "http.response.status_code": "200",
                ]
            )
            #expect(tree.request.status == nil)
            #expect(tree.childNames == ["send"])
            // libcurl alone measures the sending's phases (see SendingTimingsTests).
            let measured = transport == .curl ? ["courier.connection.reused": "false"] : [:]
            #expect(
                tree.children.first?.attributeTexts == measured.merging(["http.response.status_code": "200"]) { $1 }
            )

            let received = await server.receivedRequests()
            #expect(received.count == 1)
            #expect(received.first?.headerValues("traceparent").count == 1)
            let propagated = try #require(Self.ids(of: received.first?.header("traceparent")))
            #expect(propagated.traceId == tree.request.traceID)
            #expect(propagated.spanId == tree.request.spanID)
            #expect(observed.tracer.activeSpans.isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aNotFoundMarksTheSpanAsAnError(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            let observed = try await transport.observe(server) { await $0.rawDataResponse(on: .status(404)) }

            let tree = try Tree(observed.tracer.finishedSpans)
            #expect(tree.request.status?.code == .error)
            #expect(tree.request.attributeTexts["error.type"] == "404")
            #expect(tree.request.attributeTexts["http.response.status_code"] == "404")
            #expect(tree.children.first?.status?.code == .error)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func a503RetriedTwiceThenA200HasThreeSendingsAndTheirResendCounts(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            let observed = try await transport.observeFlakyRouteRetried(server, key: "tracing-\(transport)")

            let tree = try Tree(observed.tracer.finishedSpans)
            #expect(tree.childNames == ["send", "retry wait", "send", "retry wait", "send"])
            let sendings = tree.children.filter { $0.operationName == "send" }
            #expect(sendings.map { $0.attributeTexts["http.request.resend_count"] } == [nil, "1", "2"])
            #expect(sendings.map { $0.attributeTexts["http.response.status_code"] } == ["503", "503", "200"])
            let waits = tree.children.filter { $0.operationName == "retry wait" }
            #expect(waits.map { $0.attributeTexts["courier.retry.delay_ms"] } == ["5", "10"])
            #expect(waits.allSatisfy { $0.attributeTexts["courier.retry.requested_by"] == "RetryPlugin" })
            #expect(tree.request.attributeTexts["http.request.resend_count"] == "2")
            #expect(tree.request.attributeTexts["http.response.status_code"] == "200")
            #expect(tree.request.status == nil)

            let propagated = await server.receivedRequests().map { Self.ids(of: $0.header("traceparent"))?.spanId }
            #expect(propagated == Array(repeating: tree.request.spanID, count: 3))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTokenRefreshIsAChildSpanAndTheReplayCarriesTokenAndTrace(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            // The refresh serves every waiting request, so it runs in none's trace.
            let refreshContexts = Locked<[Bool]>([])
            let auth = TokenRefreshPlugin<TestApi>(token: "stale") { _ in
                refreshContexts.withLock { $0.append(ServiceContext.current == nil) }
                return "fresh"
            }
            let observed = try await transport.observe(server, plugins: [auth]) {
                await $0.rawDataResponse(on: .protected(accept: "fresh"))
            }
            #expect(throws: Never.self) { try observed.result.get() }
            #expect(refreshContexts.withLock { $0 } == [true])

            let tree = try Tree(observed.tracer.finishedSpans)
            #expect(tree.childNames == ["send", "token refresh", "send"])
            #expect(tree.request.attributeTexts["http.request.resend_count"] == "1")
            let replay = try #require(await server.receivedRequests().last)
            #expect(replay.header("Authorization") == "Bearer fresh")
            #expect(Self.ids(of: replay.header("traceparent"))?.traceId == tree.request.traceID)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTimeoutIsAnErrorNamedTimedOut(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            let observed = try await transport.observe(server) {
                await $0.rawDataResponse(on: .silent(id: "timeout", timeout: .milliseconds(200)))
            }

            let tree = try Tree(observed.tracer.finishedSpans)
            #expect(tree.request.status?.code == .error)
            #expect(tree.request.attributeTexts["error.type"] == "timedOut")
            #expect(tree.request.attributeTexts["http.response.status_code"] == nil)
            #expect(tree.request.errors.count == 1)
            #expect(tree.children.first?.attributeTexts["error.type"] == "timedOut")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aCallersCancellationEndsTheSpansWithoutAnError(over transport: TransportKind) async throws {
        try await TestServer.withServer { server in
            let observed = try await transport.observeCancelledWhileSent(server)

            let tree = try Tree(observed.tracer.finishedSpans)
            #expect(tree.request.status == nil)
            #expect(tree.request.attributeTexts["error.type"] == nil)
            #expect(tree.childNames == ["send"])
            #expect(tree.children.first?.status == nil)
            #expect(observed.tracer.activeSpans.isEmpty)
        }
    }

    /// The trace context goes on each sending before the plugins' `prepare`, checked as any header: a tracer that
    /// writes an invalid one fails the request, blamed on the tracing plugin, before anything is sent.
    @Test func anInvalidPropagatedHeaderFailsTheRequestBeforeItIsSent() async throws {
        let behavior = MockingBehavior<TestApi> { _ in MockedResponse(status: .ok, bodyJson: "{}") }
        var tracer = W3CTracer()
        tracer.corruptsHeader = true
        let provider = ApiProvider<TestApi>(plugins: [TracingPlugin(tracer: tracer)], mockingBehavior: behavior)
        let result = await provider.rawDataResponse(on: .status(200))
        guard case .failure(.pluginFailed(let plugin, _)) = result else {
            Issue.record("Expected the tracing plugin to fail the request, got \(result)")
            return
        }
        #expect(plugin == "TracingPlugin")
        #expect(behavior.answeredRequests.withLock { $0 } == 0)
    }

    @Test func aMockedProviderTracesAsALiveOne() async throws {
        let tracer = W3CTracer()
        let provider = ApiProvider<TestApi>(
            baseUrl: URL(string: "https://user:secret@api.example.com/v1"),
            plugins: [TracingPlugin(tracer: tracer, redaction: LogRedaction(queryParameters: ["token"]))],
            mockingBehavior: MockingBehavior { _ in MockedResponse(status: .ok, bodyJson: "{}") }
        )
        let result = await provider.rawDataResponse(
            on: .echo(.post(body: .data(Data("{}".utf8))), query: ["token": "t0ps3cret", "sig": "abc", "page": 2])
        )
        #expect(throws: Never.self) { try result.get() }

        let tree = try Tree(tracer.finishedSpans)
        #expect(tree.request.operationName == "POST TestApi.echo")
        #expect(
            tree.request.attributeTexts["url.full"]
                == "https://REDACTED:REDACTED@api.example.com/v1/echo/?page=2&sig=REDACTED&token=REDACTED"
        )
        #expect(tree.request.attributeTexts["server.port"] == "443")
        #expect(tree.childNames == ["send"])
    }

    #if AsyncHTTPClient
    @Test func overAsyncHTTPClientCouriersOwnClientAddsNoSpanOrHeaderOfItsOwn() async throws {
        try await TestServer.withServer { server in
            let tracer = W3CTracer()
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [TracingPlugin(tracer: tracer)],
                transport: AsyncHTTPClientTransport()
            )
            _ = await provider.rawDataResponse(on: .echo())
            #expect(tracer.finishedSpans.map(\.operationName) == ["send", "GET TestApi.echo"])
            let received = try #require(await server.receivedRequests().first)
            #expect(received.headerValues("traceparent").count == 1)
        }
    }

    @Test func aClientWithATracerOfItsOwnWouldAddAnUnparentedSpan() async throws {
        // What the transport's documentation warns of: the client's own span is a root of another trace.
        try await TestServer.withServer { server in
            let tracer = W3CTracer()
            var configuration = HTTPClient.Configuration()
            configuration.tracing.tracer = tracer
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [TracingPlugin(tracer: tracer)],
                transport: AsyncHTTPClientTransport(client: client)
            )
            _ = await provider.rawDataResponse(on: .echo())
            try await client.shutdown()
            let clientsOwn = tracer.finishedSpans.filter { $0.operationName == "GET" }
            #expect(clientsOwn.count == 1)
            #expect(clientsOwn.first?.parentSpanID == nil)
        }
    }
    #endif

    @Test func aChildSpanStartedAfterTheRequestEndedIsEndedAtOnce() throws {
        // A cancellation can end the request while its hook task is still starting a sending.
        let tracer = W3CTracer()
        let url = try #require(URL(string: "https://api.example.com"))
        let observation = RequestObservation(
            endpointName: "TestApi.echo",
            request: URLRequest(url: url),
            context: .topLevel,
            observers: []
        )
        let cancelled: Result<Data, ApiError<TestError>> = .failure(.cancelled)
        observation.ended(with: cancelled, exchange: Exchange(error: URLError(.cancelled)))
        observation.setChildSpan(tracer.startSpan("send"), for: .sending)
        #expect(tracer.activeSpans.isEmpty)
        #expect(tracer.finishedSpans.map(\.operationName) == ["send"])
    }

    @Test func aRetryAfterTooLongForMillisecondsIsRecordedWithoutATrap() async throws {
        final class RetryOnceMuchLater: Plugin<TestApi>, @unchecked Sendable {
            override func process(_ attempt: Attempt, endpoint: TestApi) async -> AttemptDecision {
                attempt.number == 1 ? .retry(after: .seconds(Int64.max), on: ImmediateScheduler()) : .proceed
            }
        }
        let tracer = W3CTracer()
        let provider = ApiProvider<TestApi>(
            baseUrl: URL(string: "https://api.example.com"),
            plugins: [RetryOnceMuchLater(), TracingPlugin(tracer: tracer)],
            mockingBehavior: MockingBehavior { _ in MockedResponse(status: .serviceUnavailable, bodyJson: nil) }
        )
        _ = await provider.rawDataResponse(on: .status(503))
        let wait = try #require(tracer.finishedSpans.first { $0.operationName == "retry wait" })
        #expect(wait.attributeTexts["courier.retry.delay_ms"] == String(Int.max))
    }
}
