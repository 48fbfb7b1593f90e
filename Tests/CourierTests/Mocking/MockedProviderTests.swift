import Courier
import CourierTestServer
import Foundation
import Testing

@testable import TodoExample

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A mocked answer travels the pipeline of a live one: same plugins, same response shape, same decoding and
/// errors, and nothing reaches the network.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct MockedProviderTests {
    /// Answers every request with `response`.
    func mocked(
        _ response: MockedResponse?,
        baseUrl: URL? = nil,
        plugins: [Plugin<TestApi>] = []
    ) -> ApiProvider<TestApi> {
        ApiProvider(baseUrl: baseUrl, plugins: plugins, mockingBehavior: MockingBehavior { _ in response })
    }

    @Test(arguments: [404, 500, 302])
    func aMockedErrorAnswerGivesTheResultAndPluginCallsOfTheLiveOne(status: Int) async throws {
        try await TestServer.withServer { server in
            let liveLog = EventLog<String>()
            let live = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [RecordingPlugin("p", log: liveLog)])
            let liveResponse = await live.fullResponse(on: .status(status), decodeBodyTo: Todo.self)

            let mockedLog = EventLog<String>()
            let mockedPlugin = RecordingPlugin("p", log: mockedLog)
            let mockBody = #"{"code":\#(status),"message":"status \#(status)"}"#
            let mocked = mocked(
                MockedResponse(status: HttpStatus(code: status), bodyJson: mockBody),
                baseUrl: server.baseUrl,
                plugins: [mockedPlugin]
            )
            let mockedResponse = await mocked.fullResponse(on: .status(status), decodeBodyTo: Todo.self)

            #expect(mockedResponse.result == liveResponse.result)
            #expect(mockedLog.events == liveLog.events)
            #expect(mockedLog.events == ["p.modify", "p.will", "p.did"])
            #expect(mockedResponse.httpUrlResponse?.url == liveResponse.httpUrlResponse?.url)
            #expect(mockedResponse.httpUrlResponse?.statusCode == status)
        }
    }

    @Test func aBodyThatDoesNotDecodeFailsAsALiveOneDoes() async throws {
        try await TestServer.withServer { server in
            let live = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let liveResult = await live.response(on: .plain(200), decodeBodyTo: [Todo].self)
            let mockedResult = await mocked(MockedResponse(status: .ok, bodyJson: "status 200"))
                .response(on: .plain(200), decodeBodyTo: [Todo].self)
            #expect(
                liveResult == .failure(.responseDataConversionFailed(type: "Array<Todo>", error: URLError(.unknown)))
            )
            #expect(mockedResult == liveResult)
        }
    }

    @Test func theResponseIsForTheFullRequestUrlWithTheMockedHeadersAndBody() async throws {
        let provider = mocked(
            MockedResponse(status: .created, bodyJson: #"{"title":"x"}"#, headers: ["X-Request-Id": "7"]),
            baseUrl: URL(string: "https://staging.example.com/api")
        )
        let response = await provider.fullResponse(
            on: .echo(.post(Data("{}".utf8)), path: "items", query: ["q": "a b", "page": "2"]),
            decodeBodyTo: Todo.self
        )
        #expect(response.result == .success(Todo(title: "x")))
        #expect(response.request?.url?.absoluteString == "https://staging.example.com/api/echo/items?page=2&q=a%20b")
        #expect(response.httpUrlResponse?.url == response.request?.url)
        #expect(response.httpUrlResponse?.value(forHTTPHeaderField: "X-Request-Id") == "7")
        #expect(response.body == Data(#"{"title":"x"}"#.utf8))
    }

    @Test(arguments: Door.allCases) func aMockedProviderSendsNothingToTheServer(door: Door) async throws {
        try await TestServer.withServer { server in
            let recorder = RequestRecorderPlugin<TestApi>()
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [recorder],
                mockingBehavior: MockingBehavior { _ in MockedResponse(status: .noContent) }
            )
            let result = await provider.result(through: door, on: .echo(.delete), decodeBodyTo: EmptyBodyResponse.self)
            #expect(result == .success(EmptyBodyResponse()))
            #expect(recorder.requests.map { $0.urlRequest.url } == [server.url("/echo/")])
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test(arguments: Door.allCases) func aMissingMockFailsNamingTheEndpointAndThePluginsSeeTheRequestFinish(
        door: Door
    ) async {
        let plugin = RecordingPlugin("p")
        let result = await mocked(nil, plugins: [plugin])
            .result(through: door, on: .status(404), decodeBodyTo: Todo.self)
        #expect(result == .failure(.emptyMockedResponse(endpoint: "TestApi.status(404)")))
        guard case .failure(.emptyMockedResponse(let endpoint)) = result else { return }
        #expect(endpoint == "TestApi.status(404)")
        #expect(
            result.failureDescription?.hasPrefix(
                "The mocked provider has no mocked response for TestApi.status(404): return one from the closure"
            ) == true
        )
        #expect(plugin.log.events == ["p.modify", "p.will", "p.did"])
        #expect(plugin.results.events == [#"ApiError.emptyMockedResponse(endpoint: "TestApi.status(404)")"#])
    }

    @Test(arguments: [
        (
            URLError(.notConnectedToInternet),
            ApiError<TestError>.noResponseReceived(error: URLError(.notConnectedToInternet))
        ),
        (URLError(.timedOut), .noResponseReceived(error: URLError(.timedOut))),
        (URLError(.cancelled), .cancelled),
    ])
    func aTransportFailureIsDecodedAsALiveOne(failure: URLError, expected: ApiError<TestError>) async {
        let plugin = RecordingPlugin("p")
        let response = await mocked(.transportFailure(failure), plugins: [plugin])
            .fullResponse(on: .echo(), decodeBodyTo: Data.self)
        #expect(response.result == .failure(expected))
        #expect(response.httpUrlResponse == nil)
        #expect(plugin.log.events == ["p.modify", "p.will", "p.did"])
    }

    @Test func anEmptySuccessBodyWhereAValueIsExpectedIsNoData() async {
        let provider = mocked(MockedResponse(status: .ok))
        #expect(
            await provider.response(on: .echo(), decodeBodyTo: [Todo].self)
                == .failure(.noDataInResponse(statusCode: 200))
        )
        #expect(await provider.response(on: .echo()) == .success(EmptyBodyResponse()))
        #expect(await provider.rawDataResponse(on: .echo()) == .success(Data()))
    }

    @Test func theProviderCanScriptAnswersByCallNumberAndSeesTheRequestAsThePluginsLeftIt() async {
        let seen = EventLog<String>()
        let behavior = MockingBehavior<TestApi> { endpoint, request, callNumber in
            seen.append("\(callNumber): \(request.value(forHTTPHeaderField: "Authorization") ?? "-")")
            return callNumber == 1
                ? endpoint.mock(status: .unauthorized, bodyJson: #"{"code":401,"message":"expired"}"#)
                : endpoint.mock(status: .ok, bodyJson: #"[{"title":"a"}]"#)
        }
        let token = EventLog<String>()
        token.append("old")
        let provider = ApiProvider<TestApi>(
            plugins: [HttpAuthPlugin(scheme: .bearer) { token.events.last }],
            mockingBehavior: behavior
        )

        let first = await provider.response(on: .echo(), decodeBodyTo: [Todo].self)
        #expect(first == .failure(.clientError(statusCode: 401, clientError: TestError(code: 401, message: "expired"))))
        token.append("new")
        let second = await provider.response(on: .echo(), decodeBodyTo: [Todo].self)
        #expect(second == .success([Todo(title: "a")]))
        #expect(seen.events == ["1: Bearer old", "2: Bearer new"])
    }

    @Test func anInvalidRequestNeverReachesTheMocks() async {
        let asked = EventLog<Int>()
        let provider = ApiProvider<TestApi>(
            mockingBehavior: MockingBehavior { _, _, callNumber in
                asked.append(callNumber)
                return MockedResponse(status: .ok)
            }
        )
        let result = await provider.response(on: .echo(headers: ["X-Bad": "a\r\nb"]))
        #expect(result.invalidRequestReason != nil)
        _ = await provider.response(on: .echo())
        #expect(asked.events == [1])
    }

    @Test func aMockingBehaviorOfNilMakesALiveProvider() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, mockingBehavior: nil)
            #expect(provider.mockingBehavior == nil)
            #expect(await provider.response(on: .echo()) == .success(EmptyBodyResponse()))
            #expect(await server.receivedRequests().count == 1)
        }
    }

    @Test func aMockThatCannotBecomeAnHttpResponseFailsAsNoResponseAfterThePluginsSawItSent() async {
        let plugin = RecordingPlugin("p")
        let provider = ApiProvider<TestApi>(
            plugins: [plugin, UrlRemovingPlugin()],
            mockingBehavior: MockingBehavior { _ in MockedResponse(status: .ok) }
        )
        let result = await provider.response(on: .echo())
        guard case .failure(.noResponseReceived(let error?)) = result else {
            Issue.record("expected noResponseReceived, got \(result)")
            return
        }
        #expect(error.localizedDescription.contains("could not be made into an HTTP response"))
        #expect(plugin.log.events == ["p.modify", "p.will", "p.did"])
    }

    @Test func theMicroyaSpellingsOfAMissingMockStillWork() {
        let error = ApiError<TestError>.emptyMockedResponse(endpoint: "TestApi.drop")
        #expect(error == .emptyMockedResponse)
        #expect(ApiError<TestError>.emptyMockedResponse == error)
        #expect(error != .emptyMockedResponse(endpoint: "TestApi.challenge"))
        #expect(error == .emptyMockedResponse(endpoint: "TestApi.drop"))
        let matched: Bool
        switch error {
        case .emptyMockedResponse: matched = true
        default: matched = false
        }
        #expect(matched)
    }
}

/// Takes the URL off the request, which no transport and no mock can answer.
final class UrlRemovingPlugin: Plugin<TestApi>, @unchecked Sendable {
    override func modifyRequest(_ request: inout URLRequest, endpoint: TestApi) {
        request.url = nil
    }
}
