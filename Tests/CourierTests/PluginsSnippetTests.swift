import Courier
import CourierTestServer
import Foundation
import Logging
import Testing

/// The plugin set-up shown in the README and the Plugins article, run against the loopback server.
@Suite(.timeLimit(.minutes(1))) struct PluginsSnippetTests {
    /// Stands in for an app's session store.
    final class Session: Sendable {
        let accessToken = "token-1"
        func refresh() async throws -> String { "token-2" }
    }

    @Test func theDocumentedPluginSetUpSendsAuthenticatedValidatedRequests() async throws {
        try await TestServer.withServer { server in
            let session = Session()
            // Plugins snippet: start
            let plugins: [Plugin<TodoApi>] = [
                ValidationPlugin { _ in ResponseExpectation(statusCodes: 200..<300, contentType: "application/json") },
                RetryPlugin(policy: RetryPolicy(maximumAttempts: 3)),
                TokenRefreshPlugin(token: session.accessToken) { _ in try await session.refresh() },
                LoggingPlugin(
                    logger: Logger(label: "todo.api"),
                    configuration: .init(redaction: LogRedaction(jsonFields: ["password"]))
                ),
            ]
            // Plugins snippet: end
            let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl, plugins: plugins)
            let todos = try await provider.response(on: .list, decodeBodyTo: [Todo].self).get()
            #expect(!todos.isEmpty)
            #expect(await server.receivedRequests().first?.header("Authorization") == "Bearer token-1")
        }
    }
}
