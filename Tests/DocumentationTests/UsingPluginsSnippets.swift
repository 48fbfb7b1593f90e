import Courier
import CourierTestServer
import Foundation
import Logging
import Testing

@testable import TodoExample

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An API whose sign-in must not carry the token that the other calls carry.
enum AccountApi: Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    case login(user: String)
    case profile

    var subpath: String {
        switch self {
        case .login: "echo/login"
        case .profile: "protected"
        }
    }
    var method: HttpMethod { .get }
    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .login(let user): ["user": .string(user)]
        case .profile: ["accept": "token-2"]  // the test server's answer to token-2 only
        }
    }
}

// snippet: a plugin that says its hooks
final class ApiVersionPlugin: Plugin<TodoApi>, @unchecked Sendable {
    override var implementedHooks: PluginHooks { [] }

    override func modifyRequest(_ request: inout URLRequest, endpoint: TodoApi) {
        request.setValue("2", forHTTPHeaderField: "Api-Version")
    }
}
// end snippet

/// The Plugins article's snippets, run against the loopback server or mocks.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct UsingPluginsSnippets {
    let session = Session()

    @Test func theDocumentedPluginSetUpSendsAuthenticatedValidatedRequests() async throws {
        let session = session
        try await TestServer.withServer { server in
            // snippet: plugin set-up
            let plugins: [Plugin<TodoApi>] = [
                ValidationPlugin { _ in ResponseExpectation(statusCodes: 200..<300, contentType: "application/json") },
                RetryPlugin(policy: RetryPolicy(maximumAttempts: 3)),
                TokenRefreshPlugin(token: session.accessToken) { _ in try await session.refresh() },
                RequestLoggerPlugin(logger: Logger(label: "todo.api")),
                ResponseLoggerPlugin(
                    logger: Logger(label: "todo.api"),
                    redaction: LogRedaction(jsonFields: ["password"])
                ),
            ]
            // end snippet
            let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl, plugins: plugins)
            let todos = try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
            #expect(!todos.isEmpty)
            #expect(await server.receivedRequests().first?.header("Authorization") == "Bearer token-1")
        }
    }

    @Test func aPluginThatSaysItHasNoHooksStillChangesTheRequest() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl, plugins: [ApiVersionPlugin()])
            _ = try await provider.response(on: .show(id: 1), decodeBodyTo: Todo.self).get()
            #expect(await server.receivedRequests().first?.header("Api-Version") == "2")
        }
    }

    @Test func authPluginsSendTheirCredentials() async throws {
        let session = session
        let weatherKey = "k-9"
        try await TestServer.withServer { server in
            // snippet: auth plugins
            let basic = HttpAuthPlugin<TodoApi>(username: "ann", password: "pä:ss")
            let bearer = HttpAuthPlugin<TodoApi> { await session.validAccessToken() }
            let apiKey = HttpAuthPlugin<WeatherApi>(apiKey: weatherKey, in: .queryParameter("api_key"))
            // end snippet
            for plugin in [basic, bearer] {
                let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl, plugins: [plugin])
                _ = try await provider.response(on: .show(id: 1), decodeBodyTo: Todo.self).get()
            }
            let weather = ApiProvider<WeatherApi>(baseUrl: server.url("/echo"), plugins: [apiKey])
            let received = try await weather.response(
                on: .forecast(city: "Oslo", days: 1),
                decodeBodyTo: ReceivedRequest.self
            ).get()
            #expect(received.query == "city=Oslo&days=1&api_key=k-9")
            let authorizations = await server.receivedRequests().prefix(2).map { $0.header("Authorization") }
            #expect(authorizations == ["Basic YW5uOnDDpDpzcw==", "Bearer token-1"])
        }
    }

    @Test func aRejectedTokenIsRefreshedButNotForTheSignIn() async throws {
        let session = session
        try await TestServer.withServer { server in
            // snippet: token refresh
            let auth = TokenRefreshPlugin<AccountApi>(
                token: session.accessToken,
                appliesTo: { endpoint in if case .login = endpoint { false } else { true } }
            ) { rejectedToken in
                try await session.refresh()
            }
            // end snippet
            let provider = ApiProvider<AccountApi>(baseUrl: server.baseUrl, plugins: [auth])
            _ = try await provider.response(on: .login(user: "ann")).get()
            _ = try await provider.response(on: .profile).get()
            let sent = await server.receivedRequests().map { $0.header("Authorization") }
            #expect(sent == [nil, "Bearer token-1", "Bearer token-2"])
        }
    }

    @Test func retriesWaitOnTheTestScheduler() async throws {
        // snippet: retry on a test scheduler
        let scheduler = TestScheduler()
        let retry = RetryPlugin<TodoApi>(policy: RetryPolicy(jitter: 0), scheduler: scheduler)
        let provider = ApiProvider<TodoApi>(
            plugins: [retry],
            mockingBehavior: MockingBehavior { endpoint, _, callNumber in
                callNumber == 1 ? endpoint.mock(status: .serviceUnavailable) : endpoint.mockedResponse
            }
        )
        async let todos = provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
        await scheduler.waitForPendingWork()
        #expect(scheduler.pendingDueTimes == [.milliseconds(500)])  // the first backoff, on virtual time
        await scheduler.advance(by: .milliseconds(500))
        #expect(try await todos.get().count == 1)
        // end snippet
    }
}
