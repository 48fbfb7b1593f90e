#if WebSocket
import Courier
import CourierTestServer
import CourierTestServerWebSocket
import CourierWebSocket
import Foundation
import Testing

// snippet: WebSocket declaring
enum ChatRoomApi: Endpoint {
    typealias ClientErrorType = ChatRefusal

    case rooms
    case room(id: Int)

    var subpath: String {
        switch self {
        case .rooms: "rooms"
        case .room: "ws/echo"
        }
    }

    var method: HttpMethod { .get }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .rooms: [:]
        case .room(let id): ["room": .int(id), "count": 1]
        }
    }
}

enum ChatCommand: Encodable, Sendable {
    case join(name: String)
    case say(text: String)
}

enum ChatEvent: Decodable, Sendable {
    case join(name: String)
    case say(text: String)
}
// end snippet

struct ChatRefusal: Decodable, Sendable {
    let code: Int
    let message: String
}

/// The WebSocket article's snippets and the door's doc comment, run against the loopback server.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct WebSocketSnippets {
    static func chat(_ provider: ApiProvider<ChatRoomApi>) async throws {
        // snippet: WebSocket door
        switch await provider.webSocket(on: .room(id: 7), receiving: ChatEvent.self, sending: ChatCommand.self) {
        case .success(let room):
            try await room.send(.join(name: "ada"))
            for try await event in room { print(event) }
        case .failure(let error):
            print(error)  // e.g. .clientError(statusCode: 403, clientError: …)
        }
        // end snippet
    }

    @Test func theDoorsExampleJoinsTheRoomAndEndsWithIt() async throws {
        try await WebSocketTestServer.withServer { server in
            try await Self.chat(ApiProvider<ChatRoomApi>(baseUrl: server.baseUrl))
            let upgrade = try #require(await server.receivedUpgrades().first)
            #expect(upgrade.query == ["room": "7", "count": "1"])
        }
    }

    @Test func closingReturnsHowTheConnectionEnded() async throws {
        try await WebSocketTestServer.withServer { server in
            let provider = ApiProvider<ChatRoomApi>(baseUrl: server.baseUrl)
            let room =
                try await provider
                .webSocket(on: .room(id: 7), receiving: ChatEvent.self, sending: ChatCommand.self).get()
            // snippet: WebSocket closing
            let closure = await room.close(.goingAway, reason: "leaving")
            print(closure.code, closure.reason ?? "")  // 1001 (going away) leaving
            // end snippet
            #expect(closure == WebSocketClosure(code: .goingAway, reason: "leaving"))
        }
    }

    @Test func theReconnectingExampleJoinsOnceWhenTheServerClosesNormally() async throws {
        try await WebSocketTestServer.withServer { server in
            let provider = ApiProvider<ChatRoomApi>(baseUrl: server.baseUrl)
            // snippet: WebSocket reconnecting
            let options = WebSocketOptions(reconnection: WebSocketReconnection())
            let room = try await provider.webSocket(
                on: .room(id: 7),
                receiving: ChatEvent.self,
                sending: ChatCommand.self,
                options: options
            ) { send in
                // A new connection knows nothing of the old one: join again, before anything else is sent on it.
                try await send(.join(name: "ada"))
            }.get()
            try await room.send(.join(name: "ada"))
            // end snippet
            var joined: [String] = []
            for try await case .join(let name) in room { joined.append(name) }
            #expect(joined == ["ada"])
            // The room closes with 1000 after one message: an end, not a drop, so nothing is opened again.
            #expect(await room.closure == WebSocketClosure(code: .normalClosure, reason: "done"))
            #expect(await server.receivedUpgrades().count == 1)
        }
    }
}
#endif
