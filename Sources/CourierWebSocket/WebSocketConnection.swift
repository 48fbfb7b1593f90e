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
    private let links: LinkSwitch
    private let keeping: Task<WebSocketClosure, Never>
    private let decoder: JSONDecoder
    private let encoder: JSONEncoder

    private init(
        relay: MessageRelay,
        links: LinkSwitch,
        keeping: Task<WebSocketClosure, Never>,
        decoder: JSONDecoder,
        encoder: JSONEncoder
    ) {
        self.relay = relay
        self.links = links
        self.keeping = keeping
        self.decoder = decoder
        self.encoder = encoder
    }

    deinit {
        startClosing(.goingAway, reason: nil)
    }

    /// Starts reading `switched`, a connection the server switched to WebSocket, and returns once it can be written
    /// to; `reopen` opens it again after a drop, when the options ask for reconnection, and `resubscribe` then runs
    /// on the new connection before anything else is sent.
    static func open(
        _ switched: SwitchedConnection,
        options: WebSocketOptions,
        scheduler: any Scheduler,
        decoder: JSONDecoder,
        encoder: JSONEncoder,
        telemetry: ConnectionTelemetry?,
        reopen: @escaping ConnectionKeeping.Reopen,
        resubscribe: (@Sendable (_ send: Sender) async throws -> Void)?
    ) async -> WebSocketConnection {
        let relay = MessageRelay(capacity: options.bufferedMessages)
        let first = await ConnectionLink.start(
            switched,
            number: 1,
            options: options,
            relay: relay,
            telemetry: telemetry
        )
        let links = LinkSwitch(first: first)
        let keeping = ConnectionKeeping(
            options: options,
            relay: relay,
            links: links,
            scheduler: scheduler,
            telemetry: telemetry,
            reopen: reopen,
            resubscribe: resubscribe.map { resubscribe in
                { @Sendable link in try await resubscribe(sender(on: link, encoder: encoder)) }
            }
        )
        return WebSocketConnection(
            relay: relay,
            links: links,
            keeping: Task { await keeping.run(from: first) },
            decoder: decoder,
            encoder: encoder
        )
    }

    /// What sends on `link` alone, for a `resubscribe` hook.
    private static func sender(on link: ConnectionLink, encoder: JSONEncoder) -> Sender {
        { message throws(WebSocketError) in
            let raw = try encoded(message, with: encoder)
            do {
                try await link.send(raw)
            } catch {
                throw .closed(await link.reading.value.closure)
            }
        }
    }

    /// Sends one message on the connection a `resubscribe` hook is given, before anything else is sent on it.
    public typealias Sender = @Sendable (Outgoing) async throws(WebSocketError) -> Void

    /// How the connection ended, once it has for good: waits for the end.
    public var closure: WebSocketClosure {
        get async { await keeping.value }
    }

    /// Sends `message`: as JSON in a text message, or as it is when it is a ``WebSocketMessage``. While a dropped
    /// connection is being opened again, waits for the new one (and its `resubscribe` hook) or for the end.
    /// - Throws: ``WebSocketError/unencodableMessage(type:error:)`` (the connection stays open),
    ///   ``WebSocketError/cancelled`` when the task is cancelled before the message went out, or
    ///   ``WebSocketError/closed(_:)`` once the connection has ended.
    public func send(_ message: Outgoing) async throws(WebSocketError) {
        let raw = try Self.encoded(message, with: encoder)
        var stale: Int?
        while let link = await links.link(otherThan: stale) {
            do {
                return try await link.send(raw)
            } catch {
                if Task.isCancelled || error is CancellationError { throw .cancelled }
                // The link ended under the message: the next one takes it, if a reconnection opens one.
                stale = link.number
            }
        }
        if Task.isCancelled { throw .cancelled }
        throw .closed(await closure)
    }

    private static func encoded(
        _ message: Outgoing,
        with encoder: JSONEncoder
    ) throws(WebSocketError) -> WebSocketMessage {
        if let message = message as? WebSocketMessage { return message }
        do {
            return .text(String(decoding: try encoder.encode(message), as: UTF8.self))
        } catch {
            throw .unencodableMessage(type: String(describing: Outgoing.self), error: error)
        }
    }

    /// Closes the connection with `code` and `reason`, and returns how it ended once the server has answered with
    /// its close frame (or the close timeout passed): with `code` and `reason`, unless the server had closed first.
    /// Messages that arrive meanwhile are read while there is room for them, and dropped beyond it. A connection
    /// waiting out a backoff before reconnecting ends at once, with `code` and `reason`; one whose upgrade is under way
    /// ends once that upgrade has answered or timed out.
    @discardableResult
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String? = nil) async -> WebSocketClosure {
        relay.stop()
        await links.requestClose(WebSocketClosure(code: code, reason: reason))?.close(code, reason: reason)
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

    /// Closes the connection without waiting for the server's answer: the reader gets what is buffered, then the end.
    private func startClosing(_ code: WebSocketCloseCode, reason: String?) {
        relay.stop()
        guard let link = links.requestClose(WebSocketClosure(code: code, reason: reason)) else { return }
        Task { await link.close(code, reason: reason) }
    }
}
#endif
