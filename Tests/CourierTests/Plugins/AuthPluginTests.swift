@testable import Courier
import CourierTestServer
import Foundation
import Testing

/// `HttpAuthPlugin`'s Basic, Bearer and API key forms: what the server receives, and what is refused instead of sent.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct AuthPluginTests {
    /// The credentials a Basic `Authorization` header carries, decoded as the server would.
    static func basicCredentials(_ header: String?) -> String? {
        guard let header, header.hasPrefix("Basic "), let data = Data(base64Encoded: String(header.dropFirst(6)))
        else { return nil }
        return String(data: data, encoding: .utf8)
    }

    @Test func basicAuthCarriesAColonAndNonAsciiInThePassword() async throws {
        try await TestServer.withServer { server in
            // "é" written decomposed (e + combining accent) is sent composed, as RFC 7617 asks.
            let plugin = HttpAuthPlugin<TestApi>(username: "Zoë", password: "p:ss w\u{0065}\u{0301}rd✓")
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let received = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(Self.basicCredentials(received.header("Authorization")) == "Zoë:p:ss w\u{00E9}rd✓")
        }
    }

    @Test func basicAuthRefusesAUsernameWithAColonWithoutSending() async throws {
        try await TestServer.withServer { server in
            let plugin = HttpAuthPlugin<TestApi>(username: "a:b", password: "secret")
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let result = await provider.response(on: .echo(), decodeBodyTo: Data.self)
            guard case .failure(.pluginFailed("HttpAuthPlugin", let error)) = result else {
                Issue.record("expected pluginFailed, got \(result)")
                return
            }
            #expect(error.localizedDescription.contains("cannot contain \":\""))
            #expect(!(result.failureDescription ?? "").contains("secret"))
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test func anEndpointsOwnAuthorizationWins() async throws {
        try await TestServer.withServer { server in
            let plugins: [Plugin<TestApi>] = [
                HttpAuthPlugin(username: "ann", password: "pw"), HttpAuthPlugin { "token" },
            ]
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: plugins)
            let endpoint = TestApi.echo(headers: ["Authorization": "Custom own"])
            let received = try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
            #expect(received.headerValues("Authorization") == ["Custom own"])
        }
    }

    @Test func bearerAuthAwaitsItsTokenForEachSending() async throws {
        try await TestServer.withServer { server in
            let calls = Locked(0)
            let plugin = HttpAuthPlugin<TestApi> {
                await Task.yield()  // a real suspension, as a keychain or network lookup makes
                return "token-\(calls.withLock { count in count += 1; return count })"
            }
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            _ = await provider.response(on: .echo(), decodeBodyTo: Data.self)
            _ = await provider.response(on: .echo(), decodeBodyTo: Data.self)
            #expect(
                await server.receivedRequests().map { $0.header("Authorization") } == [
                    "Bearer token-1", "Bearer token-2",
                ]
            )
        }
    }

    @Test func bearerAuthWithoutATokenSendsNoHeaderAndAFailingClosureFailsTheRequest() async throws {
        struct KeychainLocked: Error {}
        try await TestServer.withServer { server in
            let none = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [HttpAuthPlugin { nil }])
            let received = try await none.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(received.header("Authorization") == nil)
            let failing = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [HttpAuthPlugin { throw KeychainLocked() }]
            )
            #expect(
                await failing.response(on: .echo(), decodeBodyTo: Data.self)
                    == .failure(.pluginFailed(plugin: "HttpAuthPlugin", error: KeychainLocked()))
            )
            #expect(await server.receivedRequests().count == 1)
        }
    }

    @Test func apiKeyInAHeader() async throws {
        try await TestServer.withServer { server in
            let plugin = HttpAuthPlugin<TestApi>(apiKey: "k-123", in: .header("X-Api-Key"))
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let received = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(received.headerValues("X-Api-Key") == ["k-123"])
        }
    }

    @Test func apiKeyInTheQueryArrivesAsGivenAfterTheEndpointsParameters() async throws {
        try await TestServer.withServer { server in
            let plugin = HttpAuthPlugin<TestApi>(
                apiKey: "a+b&c=d é",
                in: .queryParameter("api_key"),
                appliesTo: { _ in true }
            )
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let received = try await provider.response(
                on: .echo(query: ["page": .int(2)]),
                decodeBodyTo: ReceivedRequest.self
            )
            .get()
            #expect(received.decodedQuery.map(\.description) == ["page=2", "api_key=a+b&c=d é"])
        }
    }

    @Test func apiKeyLeavesAnEndpointThatItDoesNotApplyTo() async throws {
        try await TestServer.withServer { server in
            let plugin = HttpAuthPlugin<TestApi>(apiKey: "k", in: .queryParameter("api_key")) { endpoint in
                if case .echo = endpoint { return false }
                return true
            }
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let received = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(received.query == nil || received.query == "")
        }
    }
}
