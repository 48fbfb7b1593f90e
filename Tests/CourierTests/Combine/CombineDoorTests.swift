#if Combine
import CourierCombine
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Combine door over both transports against the loopback server: the same pipeline as the other doors, and
/// Combine's contract (nothing before demand, a request per subscription, one value or one failure, cancel).
@Suite struct CombineDoorTests {
    @Test(arguments: TransportKind.allCases)
    func aDecodedBodyIsOneValueThenFinished(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl) { provider in
                let outcome = await provider.publisher(
                    on: .echo(.post(body: .data(Data("hello".utf8), contentType: "text/plain")), path: "combine"),
                    decodeBodyTo: ReceivedRequest.self
                ).outcome()
                #expect(outcome.finishedWithOneValue)
                #expect(outcome.values.first?.path == "/echo/combine")
                #expect(outcome.values.first?.bodyText == "hello")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aClientErrorFailsWithItsDecodedBody(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl) { provider in
                let outcome = await provider.publisher(on: .status(404)).outcome()
                #expect(outcome.values.isEmpty)
                #expect(
                    outcome.failure
                        == .clientError(statusCode: 404, clientError: TestError(code: 404, message: "status 404"))
                )
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aServerErrorFails(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl) { provider in
                let outcome = await provider.rawDataPublisher(on: .status(503)).outcome()
                #expect(outcome.failure == .serverError(statusCode: 503))
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRefusedConnectionFails(kind: TransportKind) async throws {
        // Port 1 (tcpmux) has no listener here. AsyncHTTPClient is told not to try again, so the refusal ends the
        // request at once, and its connect timeout (the hang guard) only stops a hung test.
        let refused = URL(string: "http://127.0.0.1:1")
        try await kind.withProvider(TestApi.self, baseUrl: refused) { provider in
            let outcome = await provider.publisher(on: .echo()).outcome()
            #expect(outcome.failure == .noResponseReceived(error: URLError(.cannotConnectToHost)))
        }
    }

    /// `/silent` never answers while the test runs: only the timeout ends the request, and the server sees the
    /// connection close (when the request reached it before the timeout, as it does but on a starved machine).
    @Test(arguments: TransportKind.allCases)
    func aTimeoutFails(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let id = "combine-timeout-\(kind.rawValue)"
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl) { provider in
                let endpoint = FreeEndpoint(subpath: "silent/\(id)", timeout: .milliseconds(300))
                let outcome = await provider.rawDataPublisher(on: endpoint).outcome()
                #expect(outcome.failure == .noResponseReceived(error: URLError(.timedOut)))
            }
            if await server.receivedRequests().contains(where: { $0.path == "/silent/\(id)" }) {
                await server.waitForDisconnect(of: id)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingMidFlightClosesTheConnectionAndDeliversNothing(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            // What the plugins see of each request: they see the pipeline's outcome just before the door does.
            let (outcomes, outcome) = AsyncStream<String>.makeStream()
            let watcher = ResultWatcher { outcome.yield($0) }
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl, plugins: [watcher]) { provider in
                let deliveries = EventLog<String>()
                let id = "combine-\(kind.rawValue)"
                let cancellable = provider.rawDataPublisher(on: .hold(id: id)).sink(
                    receiveCompletion: { deliveries.append("completion \($0)") },
                    receiveValue: { deliveries.append("value \($0.count) bytes") }
                )
                await server.waitForRequests()
                cancellable.cancel()
                await server.waitForDisconnect(of: id)
                // The pipeline answers a cancelled request with `.cancelled`, and the subscription must swallow it:
                // once the plugins have seen it, a later request of the same provider is answered, and by then
                // the subscriber has still received nothing.
                var seen = outcomes.makeAsyncIterator()
                #expect(await seen.next() == "cancelled")
                #expect(await provider.rawDataPublisher(on: .echo(path: "later")).outcome().finishedWithOneValue)
                #expect(await seen.next() == "success")
                #expect(deliveries.events.isEmpty)
            }
        }
    }

    @Test func nothingIsSentBeforeASubscriberAsks() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            _ = provider.publisher(on: .echo(path: "dropped"), decodeBodyTo: ReceivedRequest.self)
            let subscriber = OnDemandSubscriber<ReceivedRequest, ApiError<TestError>>()
            provider.publisher(on: .echo(path: "asked"), decodeBodyTo: ReceivedRequest.self).subscribe(subscriber)
            // A request of the same provider, answered: either publisher would have sent before it.
            _ = await provider.rawDataResponse(on: .echo(path: "marker"))
            #expect(await server.receivedRequests().map(\.path) == ["/echo/marker"])

            subscriber.ask()
            await subscriber.waitForEnd()
            #expect(subscriber.values.map(\.path) == ["/echo/asked"])
            #expect(await server.receivedRequests().map(\.path) == ["/echo/marker", "/echo/asked"])
        }
    }

    @Test func eachSubscriptionSendsItsOwnRequest() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let publisher = provider.publisher(on: .echo(path: "twice"))
            #expect(await publisher.outcome().finishedWithOneValue)
            #expect(await publisher.outcome().finishedWithOneValue)
            #expect(await server.receivedRequests().count == 2)
        }
    }

    @Test func retryResendsTheRequest() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let outcome = await provider.publisher(on: .status(503)).retry(2).outcome()
            #expect(outcome.failure == .serverError(statusCode: 503))
            #expect(await server.receivedRequests().map(\.path) == ["/status/503", "/status/503", "/status/503"])
        }
    }

    @Test func pluginsSeeTheRequestAndTheResult() async throws {
        try await TestServer.withServer { server in
            let recorder = RequestRecorderPlugin<TestApi>()
            let outcomes = EventLog<String>()
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [recorder, ResultWatcher { outcomes.append($0) }, HttpAuthPlugin { "t0ken" }]
            )
            let outcome = await provider.publisher(on: .echo(path: "plugged"), decodeBodyTo: ReceivedRequest.self)
                .outcome()
            #expect(outcome.values.first?.header("Authorization") == "Bearer t0ken")
            #expect(recorder.requests.map { $0.urlRequest.url?.path } == ["/echo/plugged"])
            #expect(outcomes.events == ["success"])
        }
    }

    @Test func aMultipartPublisherPostsTheFieldsThenTheFiles() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let media = MultipartMediaModel(withData: Data("GIF89a".utf8), forKey: "file")
            let outcome = await provider.multipartPublisher(
                media: [media],
                params: ["title": "cat"],
                on: .echo(path: "upload"),
                decodeBodyTo: ReceivedRequest.self
            ).outcome()
            let received = try #require(outcome.values.first)
            #expect(received.method == "POST")
            #expect(
                received.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true,
                "\(received.headers)"
            )
            #expect(received.bodyText.contains("name=\"title\"\r\n\r\ncat\r\n"))
            #expect(received.bodyText.contains("GIF89a"))
        }
    }

    @Test func aMockedAnswerIsDeliveredInsideTheTestSchedulersAdvance() async throws {
        let scheduler = TestScheduler()
        let provider = ApiProvider<TestApi>(
            baseUrl: URL(string: "http://127.0.0.1:9"),
            mockingBehavior: MockingBehavior(delay: .seconds(2), scheduler: scheduler) { _ in
                MockedResponse(subpath: "echo", statusCode: 200, bodyJson: #"{"id":7}"#)
            }
        )
        let deliveries = EventLog<String>()
        let cancellable = provider.publisher(on: .echo(), decodeBodyTo: [String: Int].self).sink(
            receiveCompletion: { deliveries.append("\($0)") },
            receiveValue: { deliveries.append("value \($0)") }
        )
        advance(scheduler, by: .seconds(1))
        #expect(deliveries.events.isEmpty)
        advance(scheduler, by: .seconds(1))
        #expect(deliveries.events == ["value [\"id\": 7]", "finished"])
        cancellable.cancel()
    }

    @Test func aRequestThatCannotBeBuiltFailsDuringTheSubscription() {
        let provider = ApiProvider<TestApi>(baseUrl: URL(string: "http://127.0.0.1:9"))
        let deliveries = EventLog<String>()
        let cancellable = provider.publisher(on: .echo(headers: ["Bad\nName": "x"])).sink(
            receiveCompletion: { completion in
                if case .failure(.invalidRequest) = completion { deliveries.append("invalidRequest") }
            },
            receiveValue: { _ in deliveries.append("value") }
        )
        #expect(deliveries.events == ["invalidRequest"])
        cancellable.cancel()
    }

    /// The synchronous `advance`, which delivers before it returns.
    private func advance(_ scheduler: TestScheduler, by duration: Duration) {
        scheduler.advance(by: duration)
    }
}

/// Records whether each request succeeded, as a plugin sees the typed result.
private final class ResultWatcher: Plugin<TestApi>, @unchecked Sendable {
    private let record: @Sendable (String) -> Void

    init(_ record: @escaping @Sendable (String) -> Void) {
        self.record = record
    }

    override func didPerformRequest<ResultType>(
        urlSessionResult: ApiProvider<TestApi>.URLSessionResult,
        typedResult: ApiProvider<TestApi>.TypedResult<ResultType>,
        endpoint: TestApi
    ) {
        switch typedResult {
        case .success: record("success")
        case .failure(.cancelled): record("cancelled")
        case .failure(let error): record("\(error)")
        }
    }
}
#endif
