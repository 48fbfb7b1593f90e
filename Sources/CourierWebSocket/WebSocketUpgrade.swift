#if WebSocket
import Courier
import CourierNIO
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What carries a WebSocket's upgrade request for the pipeline (`webSocket(on:receiving:sending:options:)`):
/// a connection of its own, over SwiftNIO, on which the request asks to switch to the WebSocket protocol.
///
/// A `101` answers the pipeline with its head and keeps the connection for `takeConnection()`. Any other answer is
/// read whole (head and body, as for any request) and answers the pipeline, so that a refusal is the typed failure a
/// request gets: a client library that only says "the upgrade failed" would lose the status and the body.
final class WebSocketUpgrade: Transport {
    private let options: WebSocketOptions
    /// The connection of the last sending the server switched; one made by an earlier sending is closed.
    private let upgraded = NIOLockedValueBox<SwitchedConnection?>(nil)

    init(options: WebSocketOptions) {
        self.options = options
    }

    /// The connection the server switched to WebSocket, once; `nil` when none was.
    func takeConnection() -> SwitchedConnection? {
        upgraded.withLockedValue { channel in
            defer { channel = nil }
            return channel
        }
    }

    func send(
        _ request: URLRequest,
        options transportOptions: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        let deliver = DeliverOnce(completion)
        let target: UpgradeTarget
        let sslContext: NIOSSLContext?
        do {
            target = try UpgradeTarget(request)
            sslContext = try target.secure ? Self.sslContext(transportOptions.tls) : nil
        } catch {
            deliver.deliver(.failure(NIOErrors.urlError(for: error)))
            return {}
        }
        let sending = UpgradeSending()
        let clock = WebSocketClock.of(transportOptions.timer)
        let heartbeat = options.pingInterval.flatMap { interval in
            interval > .zero ? Heartbeat(interval: interval, scheduler: clock) : nil
        }
        let task = Task {
            let outcome = await self.upgrade(
                target,
                sslContext: sslContext,
                limit: transportOptions.maximumResponseBodySize,
                sending: sending,
                keeping: (heartbeat, clock)
            )
            if !deliver.deliver(outcome) { sending.close() }
        }
        return {
            task.cancel()
            sending.close()
            deliver.deliver(.failure(URLError(.cancelled)))
        }
    }

    private static func sslContext(_ tls: TlsOptions?) throws -> NIOSSLContext {
        let configuration = try tls.map { try TlsConfigurations.made(for: $0, sender: "CourierWebSocket").get() }
        return try NIOSSLContext(configuration: configuration ?? .makeClientConfiguration())
    }

    private func upgrade(
        _ target: UpgradeTarget,
        sslContext: NIOSSLContext?,
        limit: Int,
        sending: UpgradeSending,
        keeping: (heartbeat: Heartbeat?, clock: any Scheduler)
    ) async -> Result<TransportResponse, any Error> {
        do {
            let outcome = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(.allowRemoteHalfClosure, value: true)
                .connect(host: target.host, port: target.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try self.configure(
                            channel,
                            for: target,
                            sslContext: sslContext,
                            limit: limit,
                            sending: sending,
                            keeping: keeping
                        )
                    }
                }
                .get()
            switch outcome {
            case .switched(let connection, let head):
                let earlier = upgraded.withLockedValue { upgraded in
                    defer { upgraded = connection }
                    return upgraded
                }
                if let earlier { earlier.frames.channel.close(promise: nil) }
                return .success(Self.response(head, body: ByteBuffer(), url: target.url))
            case .refused(let answer):
                let (head, body) = try await answer.get()
                sending.close()
                return .success(Self.response(head, body: body, url: target.url))
            }
        } catch {
            sending.close()
            if error is NIOHTTPClientUpgradeError {
                // A 101 that is not the switch asked for (a wrong accept key, another protocol), or a broken answer.
                return .failure(URLError(.badServerResponse, underlying: error))
            }
            return .failure(NIOErrors.urlError(for: error))
        }
    }

    /// Sets up a new connection's pipeline: TLS where asked, HTTP/1.1 with the upgrade request, and what reads the
    /// answer either way.
    private func configure(
        _ channel: any Channel,
        for target: UpgradeTarget,
        sslContext: NIOSSLContext?,
        limit: Int,
        sending: UpgradeSending,
        keeping: (heartbeat: Heartbeat?, clock: any Scheduler)
    ) throws -> EventLoopFuture<UpgradeOutcome> {
        sending.attach(channel)
        if let sslContext {
            let serverName = target.isAddress ? nil : target.host
            try channel.pipeline.syncOperations.addHandler(
                NIOSSLClientHandler(context: sslContext, serverHostname: serverName),
                position: .first
            )
        }
        let upgrader = NIOTypedWebSocketClientUpgrader<UpgradeOutcome>(
            // The decoder's limit on one frame: no frame of a message can be larger than the message.
            maxFrameSize: options.maximumMessageSize,
            // A frame past the limit is the reader's error and closes with 1009 through the close handshake; NIO's own
            // handling would close the connection before the error reached the reader.
            enableAutomaticErrorHandling: false,
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ControlFrames(heartbeat: keeping.heartbeat))
                    let frames = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                        wrappingChannelSynchronously: channel
                    )
                    return UpgradeOutcome.switched(
                        SwitchedConnection(
                            frames: frames,
                            heartbeat: keeping.heartbeat,
                            clock: keeping.clock,
                            server: (target.host, target.port)
                        ),
                        head
                    )
                }
            }
        )
        let configuration = NIOTypedHTTPClientUpgradeConfiguration(
            upgradeRequestHead: target.head,
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    let reader = RefusalReader(limit: limit, eventLoop: channel.eventLoop)
                    // Behind the upgrade handler, which hands the answer on once this future is complete.
                    try channel.pipeline.syncOperations.addHandler(reader)
                    return UpgradeOutcome.refused(reader.answer)
                }
            }
        )
        let gate = SwitchGate()
        try channel.pipeline.syncOperations.addHandler(gate)
        let outcome = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
            configuration: NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
        )
        outcome.assumeIsolated().whenComplete { _ in gate.upgradeEnded() }
        return outcome
    }

    private static func response(_ head: HTTPResponseHead, body: ByteBuffer, url: URL) -> TransportResponse {
        var fields: [String: String] = [:]
        for (name, value) in head.headers {
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        return TransportResponse(
            url: url,
            statusCode: Int(head.status.code),
            httpVersion: "HTTP/\(head.version.major).\(head.version.minor)",
            headerFields: fields,
            body: Data(body.readableBytesView)
        )
    }
}

/// What the server made of an upgrade request.
enum UpgradeOutcome: Sendable {
    /// `101`: the connection speaks WebSocket now.
    case switched(SwitchedConnection, HTTPResponseHead)
    /// Any other status: the answer, once read whole.
    case refused(EventLoopFuture<(HTTPResponseHead, ByteBuffer)>)
}

/// A connection the server switched to WebSocket: its frames, the heartbeat its pongs go to, and its clock.
struct SwitchedConnection: Sendable {
    let frames: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>
    let heartbeat: Heartbeat?
    /// What times the heartbeat and the wait for the server's answer to a close.
    let clock: any Scheduler
    /// Where it goes, for metrics and spans.
    let server: (host: String, port: Int)
}

/// The connection of one sending, closed when it is cancelled or has answered with a refusal.
final class UpgradeSending: Sendable {
    private let state = NIOLockedValueBox<(channel: (any Channel)?, closed: Bool)>((nil, false))

    func attach(_ channel: any Channel) {
        let closed = state.withLockedValue { state in
            state.channel = channel
            return state.closed
        }
        if closed { channel.close(promise: nil) }
    }

    func close() {
        let channel = state.withLockedValue { state in
            state.closed = true
            return state.channel
        }
        channel?.close(promise: nil)
    }
}
#endif
