import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A loopback server that misbehaves on request: `/fault/<name>` answers with that ``Fault``.
///
/// It speaks HTTP by hand over raw TCP on NIO's event loops, not through an HTTP framework, because a framework
/// would refuse to send what these faults send. Each connection serves one fault and is then closed, except
/// ``Fault/none``, ``Fault/informationalFirst`` and ``Fault/staleToken``, which keep it alive for the next request as
/// a real server does.
public final class HostileServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    /// `http://127.0.0.1:<port>`.
    public let baseUrl: URL
    /// `http://127.0.0.1:<port>` for a port that nothing listens on: where ``Fault/refuse`` is sent.
    public let refusedBaseUrl: URL

    private let channel: any Channel
    private let refusingPort: RefusingPort
    private let connections: NIOLockedValueBox<Connections>

    struct Connections {
        var open = 0
        var accepted = 0
        var requests: [Fault: Int] = [:]
        /// Callers of ``waitUntilAllConnectionsClose()`` by number, resumed when `open` comes down to zero or
        /// their task is cancelled.
        var closeWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0

        /// Counts one connection closed; the waiters to resume if it was the last one open.
        mutating func closeOne() -> [CheckedContinuation<Void, Never>] {
            open -= 1
            guard open == 0 else { return [] }
            defer { closeWaiters = [:] }
            return Array(closeWaiters.values)
        }
    }

    private init(
        channel: any Channel,
        port: Int,
        refusingPort: RefusingPort,
        connections: NIOLockedValueBox<Connections>
    ) {
        self.channel = channel
        self.port = port
        self.refusingPort = refusingPort
        self.baseUrl = URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
        self.refusedBaseUrl = URL(string: "http://127.0.0.1:\(refusingPort.port)") ?? URL(fileURLWithPath: "/")
        self.connections = connections
    }

    /// Starts a server on `127.0.0.1` and a port chosen by the system.
    public static func start() async throws -> HostileServer {
        let connections = NIOLockedValueBox(Connections())
        let refusingPort = try RefusingPort()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                connections.withLockedValue {
                    $0.open += 1
                    $0.accepted += 1
                }
                channel.closeFuture.whenComplete { _ in
                    for waiter in connections.withLockedValue({ $0.closeOne() }) { waiter.resume() }
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        FaultHandler { fault in connections.withLockedValue { $0.requests[fault, default: 0] += 1 } }
                    )
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return HostileServer(
            channel: channel,
            port: channel.localAddress?.port ?? 0,
            refusingPort: refusingPort,
            connections: connections
        )
    }

    /// Runs `body` with a started server, and stops it afterwards, also when `body` throws.
    public static func withServer<Result>(_ body: (HostileServer) async throws -> Result) async throws -> Result {
        let server = try await start()
        do {
            let result = try await body(server)
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// The base URL a request for `fault` goes to: ``refusedBaseUrl`` for ``Fault/refuse``, else ``baseUrl``.
    public func baseUrl(for fault: Fault) -> URL {
        fault == .refuse ? refusedBaseUrl : baseUrl
    }

    /// The connections open now, from the server's side: zero once every client has let go of its connections.
    public var openConnections: Int { connections.withLockedValue { $0.open } }

    /// Returns once no connection is open, as the server sees it (at once when none is): every client has closed
    /// its connections, or the server its side. A request is counted in ``requestCounts`` when its head is read,
    /// which comes before its connection's close: once this returns, the counts include every request that
    /// arrived on a connection the server accepted. Also returns when the waiting task is cancelled, e.g. by a
    /// test's time limit.
    public func waitUntilAllConnectionsClose() async {
        let number = connections.withLockedValue { connections in
            defer { connections.nextWaiter += 1 }
            return connections.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = connections.withLockedValue { connections in
                    guard connections.open > 0, !Task.isCancelled else { return false }
                    connections.closeWaiters[number] = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            connections.withLockedValue { $0.closeWaiters.removeValue(forKey: number) }?.resume()
        }
    }

    /// How many requests for each fault arrived (their heads were read), since the server started.
    public var requestCounts: [Fault: Int] { connections.withLockedValue { $0.requests } }

    /// The connections accepted since the server started.
    public var acceptedConnections: Int { connections.withLockedValue { $0.accepted } }

    /// Stops listening, and lets the refusing port go; connections still open are left to their clients.
    public func stop() async throws {
        refusingPort.close()
        try await channel.close()
    }
}
