#if WebSocket
import Courier
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
@_spi(WSInternal) import WSCore

/// The task that keeps a connection: swift-websocket's handler answers pings, sends its own and keeps the close
/// handshake; Courier joins the frames into messages, within the size limit, and hands them to the relay.
enum ConnectionReading {
    private struct Context: WebSocketContext {
        // Quiet unless a logging backend is set up: swift-websocket logs at debug and trace only.
        let logger = Logger(label: "courier.websocket")
    }

    /// Reads `connection` until it ends, and tells how; `opened` gets the writer before the first frame is read.
    ///
    /// A fault of the server's ends the reader's messages at once; a connection dropped is left for the caller to
    /// end or open again.
    static func run(
        _ connection: SwitchedConnection,
        options: WebSocketOptions,
        relay: MessageRelay,
        closing: ClosingStart,
        telemetry: ConnectionTelemetry?,
        opened: @escaping @Sendable (WebSocketOutboundWriter) -> Void
    ) async -> LinkEnd {
        let configuration = WebSocketHandler.Configuration(
            extensions: [],
            // Pings and pongs are ControlFrames' and the Heartbeat's, on the provider's scheduler.
            autoPing: .disabled,
            closeTimeout: options.closeTimeout,
            // Checked here, where a text message is whole, and answered with the standard's code.
            validateUTF8: false,
            // What a message sent is cut into: the size most servers take in one frame.
            maxFrameSize: 1 << 14
        )
        let frame: WebSocketCloseFrame?
        let failure = NIOLockedValueBox<WebSocketError?>(nil)
        do {
            frame = try await WebSocketHandler.handle(
                type: .client,
                configuration: configuration,
                asyncChannel: connection.frames,
                context: Context()
            ) { inbound, outbound, _ in
                // Before the connection is handed out, so that its first ping is due one interval after it opened.
                if let heartbeat = connection.heartbeat {
                    keepAlive(
                        connection.frames.channel,
                        with: heartbeat,
                        relay: options.reconnection == nil ? relay : nil,
                        closing: closing,
                        over: outbound
                    ) { interval in
                        failure.withLockedValue { $0 = .noPong(within: interval) }
                    }
                }
                opened(outbound)
                let violation = await read(inbound, limit: options.maximumMessageSize, into: relay) { bytes in
                    telemetry?.received(bytes: bytes)
                }
                if let violation {
                    relay.finish(violation.error)
                    failure.withLockedValue { $0 = violation.error }
                    await closing.close(violation.code, reason: nil, over: outbound)
                } else {
                    closing.serverEnded()
                }
            }
        } catch {
            // The connection broke (a reset, TLS ended without its close): what was read stays readable.
            frame = nil
        }
        connection.heartbeat?.stop()
        closing.connectionEnded()
        return LinkEnd(
            closure: closing.client ?? frame.map(WebSocketClosure.init) ?? WebSocketClosure(code: .abnormalClosure),
            clientClosed: closing.client != nil,
            failure: failure.withLockedValue { $0 }
        )
    }

    /// Starts `heartbeat`'s pings on `channel`; a ping left unanswered ends the connection, goes to `dead`, and fails
    /// the reader at once when a `relay` is given (no reconnection follows).
    private static func keepAlive(
        _ channel: any Channel,
        with heartbeat: Heartbeat,
        relay: MessageRelay?,
        closing: ClosingStart,
        over outbound: WebSocketOutboundWriter,
        dead: @escaping @Sendable (Duration) -> Void
    ) {
        heartbeat.start { payload in
            // A client masks every frame it sends.
            let ping = WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: payload)
            channel.writeAndFlush(ping, promise: nil)
        } dead: {
            dead(heartbeat.interval)
            relay?.finish(.noPong(within: heartbeat.interval))
            Task {
                // A server that does not answer pings will not answer the close either.
                let reason = "no pong within \(heartbeat.interval)"
                await closing.close(.goingAway, reason: reason, over: outbound, awaitingAnswer: false)
                try? await channel.close()
            }
        }
    }

    /// Hands each whole message to `relay` until the connection ends; the server's violation, if one ended it.
    private static func read(
        _ inbound: WebSocketInboundStream,
        limit: Int,
        into relay: MessageRelay,
        delivered: (_ bytes: Int) -> Void
    ) async -> Violation? {
        var assembler = MessageAssembler(limit: limit)
        do {
            for try await frame in inbound {
                if let message = try assembler.add(frame) {
                    delivered(message.size)
                    await relay.push(message)
                }
            }
            return nil
        } catch let violation as Violation {
            return violation
        } catch NIOWebSocketError.invalidFrameLength {
            // One frame past the limit.
            return Violation(.messageTooLarge(limit: limit), closingWith: .messageTooBig)
        } catch let error as NIOWebSocketError {
            return Violation(.protocolViolation(reason: "the server sent an invalid frame (\(error))"))
        } catch {
            return nil
        }
    }
}
#endif
