#if WebSocket
import Courier
import NIOConcurrencyHelpers
import NIOCore
@_spi(WSInternal) import WSCore

/// One connection to the server under a ``WebSocketConnection``: the first, or one a reconnection opened.
struct ConnectionLink: Sendable {
    /// Tells the links of one connection apart.
    let number: Int
    /// `nil` when the connection ended before it could be written to.
    private let writer: WebSocketOutboundWriter?
    private let closing: ClosingStart
    /// Reads the connection into the relay until it ends, and tells how.
    let reading: Task<LinkEnd, Never>
    private let ended: NIOLockedValueBox<Bool>
    private let telemetry: ConnectionTelemetry?

    /// Starts reading `switched` into `relay`, and returns once it can be written to.
    static func start(
        _ switched: SwitchedConnection,
        number: Int,
        options: WebSocketOptions,
        relay: MessageRelay,
        telemetry: ConnectionTelemetry?
    ) async -> ConnectionLink {
        let ended = NIOLockedValueBox(false)
        let closing = ClosingStart(
            channel: switched.frames.channel,
            clock: switched.clock,
            timeout: options.closeTimeout
        )
        let (writers, writerReady) = AsyncStream.makeStream(of: WebSocketOutboundWriter.self)
        let reading = Task {
            let end = await ConnectionReading.run(
                switched,
                options: options,
                relay: relay,
                closing: closing,
                telemetry: telemetry
            ) { writer in
                writerReady.yield(writer)
                writerReady.finish()
            }
            writerReady.finish()
            ended.withLockedValue { $0 = true }
            return end
        }
        var waiting = writers.makeAsyncIterator()
        let writer = await waiting.next()
        return ConnectionLink(
            number: number,
            writer: writer,
            closing: closing,
            reading: reading,
            ended: ended,
            telemetry: telemetry
        )
    }

    /// Sends `message`; throws when the connection has ended or ends meanwhile.
    func send(_ message: WebSocketMessage) async throws {
        guard let writer, !ended.withLockedValue({ $0 }) else { throw LinkEnded() }
        switch message {
        case .text(let text): try await writer.writeTextMessage(text)
        case .binary(let bytes): try await writer.writeBinaryMessage(ByteBuffer(bytes: bytes))
        }
        telemetry?.sent(bytes: message.size)
    }

    /// Starts the client's close with `code` and `reason`, unless the connection has ended or a close was started;
    /// returns once the close frame is sent.
    func close(_ code: WebSocketCloseCode, reason: String?) async {
        guard let writer, !ended.withLockedValue({ $0 }) else { return }
        await closing.close(code, reason: reason, over: writer)
    }

    struct LinkEnded: Error {}
}

/// How one connection under a ``WebSocketConnection`` ended.
struct LinkEnd: Sendable {
    /// The code and reason of the side that closed first.
    let closure: WebSocketClosure
    /// The client started the close (Courier's or the caller's), for a reason other than a missing pong.
    let clientClosed: Bool
    /// What the reader gets after the messages when the connection is not opened again: a fault of the server's,
    /// or a ping left unanswered.
    let failure: WebSocketError?
    /// Whether the connection was dropped under `policy`, and may be opened again.
    func isDrop(under policy: WebSocketReconnection) -> Bool {
        switch failure {
        case .noPong: true
        case nil: !clientClosed && policy.reopens(after: closure)
        default: false
        }
    }
}
#endif
