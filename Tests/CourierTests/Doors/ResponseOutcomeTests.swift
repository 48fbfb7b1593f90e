import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each way a live request can end, through each door, against the loopback server: what the server received,
/// what the caller got, and that the plugins saw that same result once.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ResponseOutcomeTests {
    /// Sends `endpoint` through `door` with a recording plugin, and checks the plugin saw the caller's result.
    func send<T: Decodable & Sendable>(
        _ endpoint: TestApi,
        through door: Door,
        to server: TestServer,
        as type: T.Type,
        over transport: (any Transport)? = nil
    ) async -> ApiProvider<TestApi>.TypedResult<T> {
        let plugin = RecordingPlugin("p")
        let provider =
            transport.map { ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin], transport: $0) }
            ?? ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
        let result = await provider.result(through: door, on: endpoint, decodeBodyTo: type)
        let expected: String
        switch result {
        case .success: expected = "success"
        case .failure(let error): expected = "\(error)"
        }
        #expect(plugin.results.events == [expected])
        #expect(plugin.log.events.filter { $0 == "p.did" }.count == 1)
        return result
    }

    @Test(arguments: Door.allCases)
    func successDecodesWhatTheServerSent(door: Door) async throws {
        try await TestServer.withServer { server in
            let endpoint = TestApi.echo(
                .post(body: Data(#"{"title":"Buy milk"}"#.utf8)),
                path: "todos/7",
                query: ["page": "2", "tag": ["a", "b"]]
            )
            let result = await send(endpoint, through: door, to: server, as: ReceivedRequest.self)
            let echoed = try result.get()
            let received = try #require(await server.receivedRequests().last)
            #expect(echoed == received)
            #expect(received.method == "POST")
            #expect(received.path == "/echo/todos/7")
            #expect(received.query == "page=2&tag=a&tag=b")
            #expect(received.header("Content-Type") == "application/json")
            #expect(received.header("Accept") == "application/json")
            #expect(received.bodyText == #"{"title":"Buy milk"}"#)
        }
    }

    @Test(arguments: Door.allCases)
    func emptyBodyResponseForNoContent(door: Door) async throws {
        try await TestServer.withServer { server in
            let result = await send(.empty(204), through: door, to: server, as: EmptyBodyResponse.self)
            #expect(result == .success(EmptyBodyResponse()))
        }
    }

    @Test(arguments: Door.allCases)
    func rawDataIsNotDecoded(door: Door) async throws {
        try await TestServer.withServer { server in
            let result = await send(.plain(200), through: door, to: server, as: Data.self)
            #expect(result == .success(Data("plain text, not JSON".utf8)))
        }
    }

    @Test(arguments: Door.allCases)
    func clientErrorWithJsonBody(door: Door) async throws {
        try await TestServer.withServer { server in
            let result = await send(.status(404), through: door, to: server, as: ReceivedRequest.self)
            #expect(
                result
                    == .failure(.clientError(statusCode: 404, clientError: TestError(code: 404, message: "status 404")))
            )
        }
    }

    @Test(arguments: Door.allCases)
    func clientErrorWithNonJsonBody(door: Door) async throws {
        try await TestServer.withServer { server in
            let result = await send(.plain(400), through: door, to: server, as: ReceivedRequest.self)
            #expect(result == .failure(.clientError(statusCode: 400, clientError: nil)))
        }
    }

    @Test(arguments: Door.allCases)
    func serverError(door: Door) async throws {
        try await TestServer.withServer { server in
            #expect(
                await send(.status(500), through: door, to: server, as: Data.self)
                    == .failure(.serverError(statusCode: 500))
            )
            #expect(
                await send(.plain(503), through: door, to: server, as: Data.self)
                    == .failure(.serverError(statusCode: 503))
            )
        }
    }

    @Test(arguments: Door.allCases)
    func unexpectedStatus(door: Door) async throws {
        try await TestServer.withServer { server in
            let result = await send(.status(300), through: door, to: server, as: ReceivedRequest.self)
            #expect(result == .failure(.unexpectedStatusCode(statusCode: 300)))
        }
    }

    @Test(arguments: Door.allCases)
    func emptySuccessBodyIsNoData(door: Door) async throws {
        try await TestServer.withServer { server in
            let result = await send(.empty(200), through: door, to: server, as: ReceivedRequest.self)
            #expect(result == .failure(.noDataInResponse(statusCode: 200)))
        }
    }

    @Test(arguments: Door.allCases)
    func undecodableSuccessBodyKeepsTheDecodingError(door: Door) async throws {
        try await TestServer.withServer { server in
            let result = await send(.plain(200), through: door, to: server, as: TestError.self)
            guard case .failure(.responseDataConversionFailed(let type, let error)) = result else {
                Issue.record("expected responseDataConversionFailed, got \(result)")
                return
            }
            #expect(type == "TestError")
            #expect(error is DecodingError)
        }
    }

    /// FoundationNetworking would wait for a stored credential that never comes; libcurl hands the 401 on.
    @Test(arguments: Door.allCases, [TransportKind.urlSession, .curl])
    func basicChallengeIsDeliveredAsClientError(door: Door, kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let result = try await kind.withTransport { transport in
                await send(.challenge, through: door, to: server, as: EmptyBodyResponse.self, over: transport)
            }
            #expect(
                result
                    == .failure(
                        .clientError(statusCode: 401, clientError: TestError(code: 401, message: "Unauthorized"))
                    )
            )
        }
    }

    @Test(arguments: Door.allCases)
    func connectionRefused(door: Door) async throws {
        // Port 1 (tcpmux) has no listener here; a port freed by a stopped server could be reused by a parallel test.
        let provider = ApiProvider<TestApi>(baseUrl: URL(string: "http://127.0.0.1:1")!)
        let result = await provider.result(through: door, on: .echo(), decodeBodyTo: ReceivedRequest.self)
        #expect(result == .failure(.noResponseReceived(error: URLError(.cannotConnectToHost))))
    }

    @Test(arguments: Door.allCases)
    func connectionClosedMidResponse(door: Door) async throws {
        try await TestServer.withServer { server in
            let result = await send(.drop, through: door, to: server, as: ReceivedRequest.self)
            guard case .failure(.noResponseReceived(let error?)) = result else {
                Issue.record("expected noResponseReceived, got \(result)")
                return
            }
            #expect(error is URLError)
        }
    }

    /// `/silent` sends nothing while the test runs: only the request's `timeoutInterval`, set by a plugin, can end
    /// it (URLSession and libcurl both honour it as an idle limit), and the server sees the client hang up.
    @Test(arguments: Door.allCases, [TransportKind.urlSession, .curl])
    func requestTimeout(door: Door, kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let timeout = TimeoutPlugin(seconds: 1)
            let id = "timeout-\(door.rawValue)-\(kind.rawValue)"
            let result = try await kind.withTransport { transport in
                let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [timeout], transport: transport)
                return await provider.result(through: door, on: .silent(id: id), decodeBodyTo: Data.self)
            }
            #expect(result == .failure(.noResponseReceived(error: URLError(.timedOut))))
            await server.waitForDisconnect(of: id)
        }
    }

    @Test(arguments: Door.allCases)
    func baseUrlThatCannotFormAUrlIsRefusedBeforeSending(door: Door) async throws {
        let plugin = RecordingPlugin("p")
        let provider = ApiProvider<TestApi>(baseUrl: URL(string: "127.0.0.1/api")!, plugins: [plugin])
        let result = await provider.result(through: door, on: .echo(), decodeBodyTo: ReceivedRequest.self)
        let reason = try #require(result.invalidRequestReason, "expected invalidRequest, got \(result)")
        #expect(reason.contains("127.0.0.1/api"))
        #expect(plugin.log.events == ["p.did"])
    }

    @Test(arguments: Door.allCases)
    func headerInjectionIsRefusedBeforeSending(door: Door) async throws {
        try await TestServer.withServer { server in
            let endpoint = TestApi.echo(headers: ["X-Note": "hi\r\nX-Admin: true"])
            let result = await send(endpoint, through: door, to: server, as: ReceivedRequest.self)
            let reason = try #require(result.invalidRequestReason, "expected invalidRequest, got \(result)")
            #expect(reason.contains("X-Note"))
            #expect(await server.receivedRequests().isEmpty)
        }
    }
}

/// Sets a request timeout, as an endpoint's own timeout setting will.
final class TimeoutPlugin: Plugin<TestApi>, @unchecked Sendable {
    let seconds: TimeInterval
    init(seconds: TimeInterval) { self.seconds = seconds }
    override func modifyRequest(_ request: inout URLRequest, endpoint: TestApi) {
        request.timeoutInterval = seconds
    }
}
