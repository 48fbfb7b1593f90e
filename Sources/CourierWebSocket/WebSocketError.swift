#if WebSocket
/// What went wrong on an open WebSocket connection: thrown by reading its messages or by sending one.
///
/// A failure to connect is not one of these: `webSocket(on:receiving:sending:options:)` reports it as
/// the `ApiError` a request would get (a 4xx with the endpoint's client error decoded, a refused connection, a
/// TLS failure).
public enum WebSocketError: Error, Sendable {
    /// The server sent a message larger than ``WebSocketOptions/maximumMessageSize``; Courier closed the connection
    /// with ``WebSocketCloseCode/messageTooBig`` without keeping it.
    case messageTooLarge(limit: Int)
    /// The server broke the WebSocket protocol (an invalid frame, a fragment out of order, a text message that is not
    /// UTF-8); Courier closed the connection with the matching code.
    case protocolViolation(reason: String)
    /// A ping went unanswered for ``WebSocketOptions/pingInterval``: the server, or the way to it, is gone. Courier
    /// closed the connection with ``WebSocketCloseCode/goingAway`` and let it go without waiting for an answer. With
    /// ``WebSocketOptions/reconnection`` set, the connection is opened again instead.
    case noPong(within: Duration)
    /// A message did not decode as the connection's incoming type; Courier closed the connection with
    /// ``WebSocketCloseCode/unsupportedData``.
    case undecodableMessage(type: String, error: any Error)
    /// A value to send did not encode; nothing was sent and the connection stays open.
    case unencodableMessage(type: String, error: any Error)
    /// The connection dropped and could not be opened again (``WebSocketOptions/reconnection``): `attempts` upgrades
    /// were sent after this drop (0 when earlier drops had used up the policy's attempts), and `lastError` is the last
    /// failed one's, an `ApiError` as a request would get (`nil` when none failed: each switched and dropped again).
    case reconnectionFailed(attempts: Int, lastError: (any Error)?)
    /// The `resubscribe` hook threw `error` after a reconnection; Courier closed the new connection with
    /// ``WebSocketCloseCode/goingAway``.
    case resubscribeFailed(error: any Error)
    /// The task sending was cancelled while the message waited to go out (a reconnection, or a server that reads
    /// slowly); a message larger than a frame (16 KiB) may have gone out in part, which the server sees as a
    /// protocol error.
    case cancelled
    /// The connection has ended (see ``WebSocketConnection/closure``); nothing was sent.
    case closed(WebSocketClosure)
}

extension WebSocketError {
    /// The case's name, e.g. `noPong`: OpenTelemetry's `error.type` for a connection that ended with it.
    var kind: String {
        switch self {
        case .messageTooLarge: "messageTooLarge"
        case .protocolViolation: "protocolViolation"
        case .noPong: "noPong"
        case .undecodableMessage: "undecodableMessage"
        case .unencodableMessage: "unencodableMessage"
        case .reconnectionFailed: "reconnectionFailed"
        case .resubscribeFailed: "resubscribeFailed"
        case .cancelled: "cancelled"
        case .closed: "closed"
        }
    }
}
#endif
