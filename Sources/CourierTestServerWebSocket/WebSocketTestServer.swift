import CourierTestServer
import CourierTestServerTLS
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import NIOCore

/// The loopback ``TestServer`` with WebSocket routes beside its HTTP ones (hummingbird-websocket), started inside the
/// test process. Every upgrade request it receives is recorded (``receivedUpgrades()``), switched or refused.
///
/// Upgrade routes (any other path is refused with an empty `400`, as hummingbird-websocket refuses):
/// - `/ws/echo[?count=N]`: sends back each message as it came (text as text, binary as binary) until the client
///   closes, or after N messages closes with 1000 "done".
/// - `/ws/push?count=N`: sends the text messages `{"number":1}` … `{"number":N}`, then closes with 1000 "done".
/// - `/ws/close?code=C&reason=R`: closes at once with code C and reason R.
/// - `/ws/drop`: sends `{"number":1}`, then closes the TCP connection without a close frame.
/// - `/ws/large?size=N`: sends one binary message of N bytes (each byte its offset modulo 251).
/// - `/ws/stray-continuation`: sends a continuation frame that continues no message.
/// - `/ws/not-utf8`: sends a text message whose bytes are not UTF-8.
/// - `/ws/ping?after=N`: sends N messages as `/ws/push` does, then a ping with the payload "are you there", and records
///   the payload of each pong (``pongs()``); then reads until the client closes.
/// - `/ws/deaf`: reads nothing (so answers no ping, and no close) until the client drops the connection.
/// - `/ws/hang-up`: closes the connection without answering the upgrade request.
/// - `/ws/drops?count=N[&code=C][&refuse=S]`: its first N connections each answer the first text message with
///   `{"number":K}` (K counts this route's connections) and then drop without a close frame, or close with code C and
///   the reason "come back"; later ones answer every text message so, or are refused with status S when given. Each
///   text message is recorded as `"K <text>"` (``messages()``).
/// - `/ws/refuse?status=S`: refuses with status S and the JSON body `{"code":S,"message":"refused"}`.
/// - `/ws/protected?accept=T`: switches when the request has `Authorization: Bearer T`, and echoes as `/ws/echo`;
///   refuses with 401 and `{"code":401,"message":"bad token"}` otherwise.
public struct WebSocketTestServer: Sendable {
    /// The server, with every route of ``TestServer`` too.
    public let http: TestServer
    private let upgrades: UpgradeLog

    /// `http://127.0.0.1:<port>`.
    public var baseUrl: URL { http.baseUrl }

    /// The upgrade requests received so far, in arrival order.
    public func receivedUpgrades() async -> [ReceivedUpgrade] {
        await upgrades.received
    }

    /// The text messages `/ws/drops` received, in arrival order, each as `"<connection> <text>"`.
    public func messages() async -> [String] {
        await upgrades.messages
    }

    /// The payloads of the pongs received on `/ws/ping`, once there is at least one.
    public func pongs() async -> [String] {
        await upgrades.waitForPongs()
    }

    /// Starts a server, runs `body` with it and stops it again, also when `body` throws.
    /// - Parameters:
    ///   - tls: How it serves TLS (its `baseUrl` is then `https://127.0.0.1:<port>`), or `nil` for plain HTTP.
    ///   - body: What to do with the server.
    public static func withServer<Result>(
        tls: TestServer.TLS? = nil,
        _ body: (WebSocketTestServer) async throws -> Result
    ) async throws -> Result {
        let upgrades = UpgradeLog()
        // Pings come from the client under test; a server's own would make a test's outcome depend on time.
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            ws: WebSocketServerConfiguration(maxFrameSize: 1 << 24, autoPing: .disabled)
        )
        let builder = HTTPServerBuilder.http1WebSocketUpgrade(configuration: configuration) { request, channel, _ in
            try await WebSocketRoutes.upgrade(request, channel: channel, log: upgrades)
        }
        let server: TestServer
        if let tls {
            var configuration = try tls.serverConfiguration()
            configuration.applicationProtocols = ["http/1.1"]
            server = try await TestServer.start(
                serving: .tls(builder, tlsConfiguration: configuration),
                scheme: "https"
            )
        } else {
            server = try await TestServer.start(serving: builder, scheme: "http")
        }
        return try await TestServer.with(server) { http in
            try await body(WebSocketTestServer(http: http, upgrades: upgrades))
        }
    }
}

/// An upgrade request as the server received it.
public struct ReceivedUpgrade: Sendable, Equatable {
    /// The path, without the query.
    public let path: String
    /// The query's items, by name.
    public let query: [String: String]
    /// The headers, by lowercased name (repeated names joined with ", ").
    public let headers: [String: String]
}

/// The upgrade requests received, in arrival order, the messages of `/ws/drops` and the pongs of `/ws/ping`.
actor UpgradeLog {
    private(set) var received: [ReceivedUpgrade] = []
    private(set) var messages: [String] = []
    private var pongs: [String] = []
    private var pongWaiters: [CheckedContinuation<Void, Never>] = []

    func record(_ upgrade: ReceivedUpgrade) {
        received.append(upgrade)
    }

    func recordMessage(_ message: String) {
        messages.append(message)
    }

    func recordPong(_ payload: String) {
        pongs.append(payload)
        for waiter in pongWaiters { waiter.resume() }
        pongWaiters = []
    }

    func waitForPongs() async -> [String] {
        if pongs.isEmpty { await withCheckedContinuation { pongWaiters.append($0) } }
        return pongs
    }
}
