#if WebSocket
import Courier

/// The chat service: its rooms are WebSockets, declared beside its plain requests as any endpoint is.
enum ChatApi: Endpoint {
    typealias ClientErrorType = ChatError

    /// A room's live channel. On the example's loopback server, `/ws/drops` answers each message with its
    /// connection's number and drops the first connection after its first answer, as a restarting server would.
    case room(name: String)

    var subpath: String {
        switch self {
        case .room: "ws/drops"
        }
    }

    var method: HttpMethod { .get }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .room(let name): ["room": .string(name), "count": 1]
        }
    }
}

/// What the server says when it refuses a room.
struct ChatError: Decodable, Sendable {
    let code: Int
    let message: String
}

/// The server's answer to a message: which of the client's connections carried it.
struct Receipt: Decodable, Sendable {
    let number: Int
}
#endif
