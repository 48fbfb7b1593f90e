#if WebSocket
import CourierTestServer
import CourierTestServerWebSocket
import Testing

@testable import ChatExample

/// The example as `swift run --traits WebSocket ChatExample` runs it, against the loopback server.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ChatExampleTests {
    @Test func theRoomIsJoinedAgainAfterTheDropAndLeftWithTheClientsClose() async throws {
        try await WebSocketTestServer.withServer { server in
            let log = try await ChatClient.run(baseUrl: server.baseUrl)
            #expect(
                log == [
                    "answered on connection 1", "answered on connection 2", "answered on connection 2",
                    "closed: 1000 (normal closure) bye",
                ]
            )
            #expect(await server.messages() == ["1 join swift", "2 join swift", "2 hello again"])
        }
    }
}
#endif
