import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plugins are called in order, each hook once per request, on every door, and what they change is sent.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct PluginTests {
    @Test(arguments: Door.allCases)
    func hooksRunInOrderOncePerRequest(door: Door) async throws {
        try await TestServer.withServer { server in
            let log = EventLog<String>()
            let first = RecordingPlugin("a", log: log, addsHeader: ("X-Plugin", "a"))
            let second = RecordingPlugin("b", log: log, addsHeader: ("X-Plugin-B", "b"))
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [first, second])
            let received = try await provider.result(through: door, on: .echo(), decodeBodyTo: ReceivedRequest.self)
                .get()
            #expect(log.events == ["a.modify", "b.modify", "a.will", "b.will", "a.did", "b.did"])
            #expect(received.header("X-Plugin") == "a")
            #expect(received.header("X-Plugin-B") == "b")
        }
    }

    @Test(arguments: Door.allCases)
    func didPerformRequestSeesFailuresToo(door: Door) async throws {
        try await TestServer.withServer { server in
            let plugin = RecordingPlugin("p")
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            _ = await provider.result(through: door, on: .status(500), decodeBodyTo: Data.self)
            #expect(plugin.log.events == ["p.modify", "p.will", "p.did"])
            #expect(plugin.results.events == ["\(ApiError<TestError>.serverError(statusCode: 500))"])
        }
    }

    @Test func headerAPluginCannotSendIsRefused() async throws {
        try await TestServer.withServer { server in
            let plugin = RecordingPlugin("p", addsHeader: ("Bad Name", "x"))
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let result = await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
            let reason = try #require(result.invalidRequestReason, "expected invalidRequest, got \(result)")
            #expect(reason.contains("Bad Name"))
            #expect(plugin.log.events == ["p.modify", "p.did"])
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test func authTokenWithLineBreakIsRefusedNotDropped() async throws {
        try await TestServer.withServer { server in
            let plugin = HttpAuthPlugin<TestApi>(scheme: .bearer) { "secret\r\nX-Admin: true" }
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let result = await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
            let reason = try #require(result.invalidRequestReason, "expected invalidRequest, got \(result)")
            #expect(reason.contains("Authorization"))
            #expect(!reason.contains("secret"))
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test(arguments: [
        (HttpAuthPlugin<TestApi>.Scheme.bearer, "abc.def", "Bearer abc.def"),
        (.basic, "dXNlcjpwdw==", "Basic dXNlcjpwdw=="),
    ])
    func authPluginSetsAuthorization(scheme: HttpAuthPlugin<TestApi>.Scheme, token: String, header: String) async throws
    {
        try await TestServer.withServer { server in
            let plugin = HttpAuthPlugin<TestApi>(scheme: scheme) { token }
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let received = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(received.headerValues("Authorization") == [header])
        }
    }

    @Test func authorizationSetByTheEndpointWins() async throws {
        try await TestServer.withServer { server in
            let plugin = HttpAuthPlugin<TestApi>(scheme: .bearer) { "from-plugin" }
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let endpoint = TestApi.echo(headers: ["authorization": "Bearer from-endpoint"])
            let received = try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
            #expect(received.headerValues("Authorization") == ["Bearer from-endpoint"])
        }
    }

    @Test func authPluginWithoutTokenSendsNoAuthorization() async throws {
        try await TestServer.withServer { server in
            let plugin = HttpAuthPlugin<TestApi>(scheme: .bearer) { nil }
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let received = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(received.header("Authorization") == nil)
        }
    }

    @Test func loggerPluginsSeeRequestAndRawResult() async throws {
        try await TestServer.withServer { server in
            let requests = EventLog<String>()
            let responses = EventLog<String>()
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [
                    RequestLoggerPlugin { requests.append("\($0.httpMethod ?? "") \($0.url?.absoluteString ?? "")") },
                    ResponseLoggerPlugin { result in
                        let status = (result.response as? HTTPURLResponse)?.statusCode ?? 0
                        responses.append("\(status) \(String(decoding: result.data ?? Data(), as: UTF8.self))")
                    },
                ]
            )
            _ = await provider.response(on: .plain(400))
            #expect(requests.events == ["GET \(server.baseUrl.absoluteString)/plain/400"])
            #expect(responses.events == ["400 plain text, not JSON"])
        }
    }

    @Test func microyaStyleSubclassWorks() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [MicroyaStylePlugin()])
            let received = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(received.header("X-Style") == "microya")
        }
    }

    @Test func fullResponseCarriesTheErrorBody() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let response = await provider.fullResponse(on: .plain(422), decodeBodyTo: ReceivedRequest.self)
            #expect(response.result == .failure(.clientError(statusCode: 422, clientError: nil)))
            #expect(response.statusCode == 422)
            #expect(response.body == Data("plain text, not JSON".utf8))
            #expect(response.httpUrlResponse?.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
            #expect(response.request?.url?.path == "/plain/422")
        }
    }
}

/// A plugin written the way Microya users wrote theirs: a plain subclass with `override`s. Swift 6 asks it to
/// restate `@unchecked Sendable`, its promise that hooks called from many threads at once are safe.
class MicroyaStylePlugin: Plugin<TestApi>, @unchecked Sendable {
    override func modifyRequest(_ request: inout URLRequest, endpoint: TestApi) {
        request.setValue("microya", forHTTPHeaderField: "X-Style")
    }
}
