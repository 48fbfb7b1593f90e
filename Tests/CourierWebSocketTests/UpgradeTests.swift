#if WebSocket
import Courier
import CourierTestServer
import CourierTestServerWebSocket
import CourierWebSocket
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The upgrade request: built and sent as any request of the provider's, and refused as one.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct UpgradeTests {
    /// Adds a header, as an app's plugin adds its token.
    final class Stamp: Plugin<ChatApi>, @unchecked Sendable {
        override func modifyRequest(_ request: inout URLRequest, endpoint: ChatApi) {
            request.setValue("Bearer stamped", forHTTPHeaderField: "Authorization")
        }
    }

    @Test func theServerReceivesTheEndpointsPathQueryHeadersAndThePluginsChanges() async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider(plugins: [Stamp()])
                .webSocket(on: .room(name: "lobby & more"), receiving: Line.self, sending: Line.self).get()
            await socket.close()
            let upgrades = await server.receivedUpgrades()
            #expect(upgrades.count == 1)
            let upgrade = try #require(upgrades.first)
            #expect(upgrade.path == "/ws/echo")
            #expect(upgrade.query == ["room": "lobby & more"])
            #expect(upgrade.headers["x-room"] == "lobby & more")
            #expect(upgrade.headers["authorization"] == "Bearer stamped")
            #expect(upgrade.headers["upgrade"]?.lowercased() == "websocket")
            #expect(upgrade.headers["sec-websocket-version"] == "13")
            #expect(upgrade.headers["host"] == "127.0.0.1:\(server.http.port)")
        }
    }

    @Test(arguments: [401, 403, 404, 429])
    func aRefusedUpgradeIsAClientErrorWithTheBodyDecoded(status: Int) async throws {
        try await WebSocketTestServer.withServer { server in
            let outcome = await server.provider()
                .webSocket(on: .refuse(status: status), receiving: Line.self, sending: Line.self)
            #expect(
                outcome.failure
                    == .clientError(statusCode: status, clientError: Refusal(code: status, message: "refused"))
            )
        }
    }

    @Test func aRefusalWithAServerErrorIsAServerError() async throws {
        try await WebSocketTestServer.withServer { server in
            let outcome = await server.provider().webSocket(
                on: .refuse(status: 503),
                receiving: Line.self,
                sending: Line.self
            )
            #expect(outcome.failure == .serverError(statusCode: 503))
        }
    }

    @Test func anAnswerThatDoesNotSwitchIsAnUnexpectedStatus() async throws {
        // A server that knows no WebSocket answers the upgrade request as a plain request.
        try await TestServer.withServer { server in
            let provider = ApiProvider<ChatApi>(baseUrl: server.baseUrl)
            let outcome = await provider.webSocket(on: .plainEcho, receiving: Line.self, sending: Line.self)
            #expect(outcome.failure == .unexpectedStatusCode(statusCode: 200))
        }
    }

    @Test func aRefusedConnectionIsNoResponse() async throws {
        let provider = ApiProvider<ChatApi>(baseUrl: URL(string: "http://127.0.0.1:1"))
        let outcome = await provider.webSocket(on: .echo, receiving: Line.self, sending: Line.self)
        #expect(outcome.failure == .noResponseReceived(error: URLError(.cannotConnectToHost)))
    }

    @Test func aServerThatClosesWithoutAnsweringIsALostConnection() async throws {
        try await WebSocketTestServer.withServer { server in
            let outcome = await server.provider().webSocket(on: .hangUp, receiving: Line.self, sending: Line.self)
            #expect(outcome.failure == .noResponseReceived(error: URLError(.networkConnectionLost)))
        }
    }

    @Test func aRejectedTokenIsRefreshedOnceAndTheUpgradeSentAgain() async throws {
        try await WebSocketTestServer.withServer { server in
            let refreshes = EventCount()
            let plugin = TokenRefreshPlugin<ChatApi>(token: "stale") { _ in
                await refreshes.add()
                return "fresh"
            }
            let socket = try await server.provider(plugins: [plugin])
                .webSocket(on: .protected(accept: "fresh"), receiving: Line.self, sending: Line.self).get()
            try await socket.send(Line(author: "a", text: "after the refresh"))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == Line(author: "a", text: "after the refresh"))
            await socket.close()
            #expect(await refreshes.value == 1)
            let tokens = await server.receivedUpgrades().map { $0.headers["authorization"] }
            #expect(tokens == ["Bearer stale", "Bearer fresh"])
        }
    }

    @Test func aMockedProviderOpensNothing() async throws {
        let provider = ApiProvider<ChatApi>(mockingBehavior: MockingBehavior { _ in nil })
        let outcome = await provider.webSocket(on: .echo, receiving: Line.self, sending: Line.self)
        guard case .invalidRequest(let reason) = outcome.failure else {
            Issue.record("not refused: \(String(describing: outcome.failure))")
            return
        }
        #expect(reason.contains("mocked"))
    }

    @Test func cancellingTheCallerEndsTheUpgradeAsCancelled() async throws {
        // `/silent/echo` answers nothing, not even a status line, until the client goes.
        try await TestServer.withServer { server in
            let provider = ApiProvider<ChatApi>(baseUrl: server.url("/silent"))
            let task = Task { await provider.webSocket(on: .plainEcho, receiving: Line.self, sending: Line.self) }
            await server.waitForRequests()
            task.cancel()
            #expect(await task.value.failure == .cancelled)
            await server.waitForDisconnect(of: "echo")
        }
    }
}

/// A count shared with a plugin's closure.
actor EventCount {
    private(set) var value = 0
    func add() { value += 1 }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
#endif
