#if WebSocket
import Courier
import CourierTestServer
import CourierTestServerWebSocket
import Foundation

/// What the test server says when it refuses: the endpoints' client error.
struct Refusal: Decodable, Equatable, Sendable {
    let code: Int
    let message: String
}

/// The test server's WebSocket routes as a user declares them: cases of the same enum as the HTTP API's.
enum ChatApi: Endpoint {
    typealias ClientErrorType = Refusal

    case echo
    case room(name: String)
    case push(count: Int)
    case close(code: Int, reason: String)
    case drop
    case large(size: Int)
    case strayContinuation
    case notUtf8
    case refuse(status: Int)
    case protected(accept: String)
    case ping(after: Int)
    case deaf
    case hangUp
    /// `/ws/drops`: the first `count` connections dropped (or closed with `code`), later ones refused with `refuse`.
    case drops(count: Int, code: Int? = nil, refuse: Int? = nil)
    /// `/ws/echo` with these TLS options.
    case echoOver(tls: TlsOptions?)
    /// A plain HTTP route, which answers an upgrade request without switching.
    case plainEcho

    var subpath: String {
        switch self {
        case .echo, .room, .echoOver: "ws/echo"
        case .push: "ws/push"
        case .close: "ws/close"
        case .drop: "ws/drop"
        case .large: "ws/large"
        case .strayContinuation: "ws/stray-continuation"
        case .notUtf8: "ws/not-utf8"
        case .refuse: "ws/refuse"
        case .protected: "ws/protected"
        case .ping: "ws/ping"
        case .deaf: "ws/deaf"
        case .hangUp: "ws/hang-up"
        case .drops: "ws/drops"
        case .plainEcho: "echo"
        }
    }

    var method: HttpMethod { .get }

    var tls: TlsOptions? {
        guard case .echoOver(let tls) = self else { return nil }
        return tls
    }

    var headers: [String: String] {
        if case .room(let name) = self { return ["X-Room": name] }
        return [:]
    }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .room(let name): ["room": .string(name)]
        case .push(let count): ["count": .string(String(count))]
        case .close(let code, let reason): ["code": .string(String(code)), "reason": .string(reason)]
        case .large(let size): ["size": .string(String(size))]
        case .refuse(let status): ["status": .string(String(status))]
        case .protected(let accept): ["accept": .string(accept)]
        case .ping(let after): ["after": .string(String(after))]
        case .drops(let count, let code, let refuse):
            [
                "count": .string(String(count)), "code": code.map { .string(String($0)) },
                "refuse": refuse.map { .string(String($0)) },
            ]
            .compactMapValues { $0 }
        default: [:]
        }
    }
}

/// A chat message, sent and received as JSON.
struct Line: Codable, Equatable, Sendable {
    let author: String
    let text: String
}

/// What `/ws/push` sends.
struct Numbered: Codable, Equatable, Sendable {
    let number: Int
}

extension WebSocketTestServer {
    /// A provider of this server's endpoints over the default transport.
    func provider(plugins: [Plugin<ChatApi>] = []) -> ApiProvider<ChatApi> {
        ApiProvider<ChatApi>(baseUrl: baseUrl, plugins: plugins)
    }
}
#endif
