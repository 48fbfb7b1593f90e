#if WebSocket
import Courier
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
@_spi(WSInternal) import WSCore

/// An open WebSocket: its incoming messages, as typed values, are the sequence, and `send(_:)` sends typed values.
///
/// Made by `webSocket(on:receiving:sending:options:)`. `Incoming` and `Outgoing` are JSON (decoded from
/// a text or binary message with the endpoint's decoder, encoded with its encoder and sent as text), or
/// ``WebSocketMessage`` for raw messages.
///
/// The sequence ends when the connection does, whoever closed it; `closure` then tells who closed it, how. It throws
/// a ``WebSocketError`` for a fault of the server's (a message too large, a protocol violation) or a message that
/// does not decode, after which the connection is closed. One reader at a time: the messages are
/// shared, not copied, between iterators. A task reading the messages that is cancelled closes the connection
/// (``WebSocketCloseCode/goingAway``), and so does letting go of the last reference to an open connection.
public final class WebSocketConnection<Incoming: Decodable & Sendable, Outgoing: Encodable & Sendable>: AsyncSequence,
    Sendable
{
    public typealias Element = Incoming

    private let relay: MessageRelay
    /// `nil` when the connection ended before it could be written to.
    private let writer: WebSocketOutboundWriter?
    private let reading: Task<WebSocketClosure, Never>
    private let ended: NIOLockedValueBox<WebSocketClosure?>
    private let closing: ClosingStart
    private let decoder: JSONDecoder
    private let encoder: JSONEncoder

    private init(
        relay: MessageRelay,
        writer: WebSocketOutboundWriter?,
        reading: Task<WebSocketClosure, Never>,
        ended: NIOLockedValueBox<WebSocketClosure?>,
        closing: ClosingStart,
        decoder: JSONDecoder,
        encoder: JSONEncoder
    ) {
        self.relay = relay
        self.writer = writer
        self.reading = reading
        self.ended = ended
        self.closing = closing
        self.decoder = decoder
        self.encoder = encoder
    }

    deinit {
        startClosing(.goingAway, reason: nil)
    }

    /// Starts reading `switched`, a connection the server switched to WebSocket, and returns once it can be written to.
    static func open(
        _ switched: SwitchedConnection,
        options: WebSocketOptions,
        decoder: JSONDecoder,
        encoder: JSONEncoder
    ) async -> WebSocketConnection {
        let relay = MessageRelay(capacity: options.bufferedMessages)
        let ended = NIOLockedValueBox<WebSocketClosure?>(nil)
        let closing = ClosingStart()
        let (writers, writerReady) = AsyncStream.makeStream(of: WebSocketOutboundWriter.self)
        let reading = Task {
            let closure = await ConnectionReading.run(switched, options: options, relay: relay, closing: closing) {
                writer in
                writerReady.yield(writer)
                writerReady.finish()
            }
            writerReady.finish()
            ended.withLockedValue { $0 = closure }
            return closure
        }
        var waiting = writers.makeAsyncIterator()
        let writer = await waiting.next()
        return WebSocketConnection(
            relay: relay,
            writer: writer,
            reading: reading,
            ended: ended,
            closing: closing,
            decoder: decoder,
            encoder: encoder
        )
    }

    /// How the connection ended, once it has: waits for the end.
    public var closure: WebSocketClosure {
        get async { await reading.value }
    }

    /// Sends `message`: as JSON in a text message, or as it is when it is a ``WebSocketMessage``.
    /// - Throws: ``WebSocketError/unencodableMessage(type:error:)`` (the connection stays open), or
    ///   ``WebSocketError/closed(_:)`` once the connection has ended.
    public func send(_ message: Outgoing) async throws(WebSocketError) {
        let raw: WebSocketMessage
        if let message = message as? WebSocketMessage {
            raw = message
        } else {
            do {
                raw = .text(String(decoding: try encoder.encode(message), as: UTF8.self))
            } catch {
                throw .unencodableMessage(type: String(describing: Outgoing.self), error: error)
            }
        }
        guard let writer, ended.withLockedValue({ $0 }) == nil else { throw .closed(await closure) }
        do {
            switch raw {
            case .text(let text): try await writer.writeTextMessage(text)
            case .binary(let bytes): try await writer.writeBinaryMessage(ByteBuffer(bytes: bytes))
            }
        } catch {
            throw .closed(await closure)
        }
    }

    /// Closes the connection with `code` and `reason`, and returns how it ended once the server has answered with
    /// its close frame (or the close timeout passed): with `code` and `reason`, unless the server had closed first.
    /// Messages that arrive meanwhile are read while there is room for them, and dropped beyond it.
    @discardableResult
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String? = nil) async -> WebSocketClosure {
        relay.stop()
        if let writer, ended.withLockedValue({ $0 }) == nil { await closing.close(code, reason: reason, over: writer) }
        return await closure
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(connection: self)
    }

    /// Reads the connection's messages, decoded.
    public struct Iterator: AsyncIteratorProtocol {
        let connection: WebSocketConnection

        public mutating func next() async throws -> Incoming? {
            let relay = connection.relay
            let message = try await withTaskCancellationHandler {
                try await relay.next()
            } onCancel: { [connection] in
                connection.startClosing(.goingAway, reason: nil)
            }
            guard let message else { return nil }
            return try await connection.decode(message)
        }
    }

    private func decode(_ message: WebSocketMessage) async throws(WebSocketError) -> Incoming {
        if let raw = message as? Incoming { return raw }
        let data: Data
        switch message {
        case .text(let text): data = Data(text.utf8)
        case .binary(let bytes): data = bytes
        }
        do {
            return try decoder.decode(Incoming.self, from: data)
        } catch {
            let type = String(describing: Incoming.self)
            startClosing(.unsupportedData, reason: "a message did not decode as \(type)")
            throw .undecodableMessage(type: type, error: error)
        }
    }

    /// Closes the connection without waiting for the server's answer: the reader gets no more messages.
    private func startClosing(_ code: WebSocketCloseCode, reason: String?) {
        relay.stop()
        guard let writer, ended.withLockedValue({ $0 }) == nil else { return }
        Task { [closing] in await closing.close(code, reason: reason, over: writer) }
    }
}
#endif
