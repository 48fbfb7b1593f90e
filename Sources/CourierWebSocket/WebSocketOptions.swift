#if WebSocket
/// How a WebSocket connection is kept: message limits, keep-alive, back-pressure and reconnection.
public struct WebSocketOptions: Sendable {
    /// The largest message taken from the server, in bytes, whole or in fragments; a larger one closes the
    /// connection with ``WebSocketCloseCode/messageTooBig`` and fails the reader with
    /// ``WebSocketError/messageTooLarge(limit:)``, without being kept. 1 MiB by default.
    public var maximumMessageSize: Int
    /// How often a ping is sent while the connection is open, on the provider's scheduler (virtual time on a
    /// `TestScheduler`); a ping still unanswered at the next one closes the connection
    /// (``WebSocketCloseCode/goingAway``) and fails the reader with ``WebSocketError/noPong(within:)``, or counts as a
    /// drop when ``reconnection`` is set. `nil` sends none, and so does an interval that is not positive. 30 s by
    /// default. The server's pings are answered either way, also while the reader is not reading.
    public var pingInterval: Duration?
    /// The messages received and not yet read that are kept: with that many waiting, Courier stops reading from the
    /// connection (and the server's sending slows down through TCP) until the reader takes one. 16 by default.
    public var bufferedMessages: Int
    /// How long Courier waits for the server's close frame after sending its own, before dropping the connection, on
    /// the provider's scheduler. 15 s by default.
    public var closeTimeout: Duration
    /// Whether and how a dropped connection is opened again; `nil`, the default, ends the reader's messages when the
    /// connection ends, however it ends.
    public var reconnection: WebSocketReconnection?

    /// Creates options.
    public init(
        maximumMessageSize: Int = 1 << 20,
        pingInterval: Duration? = .seconds(30),
        bufferedMessages: Int = 16,
        closeTimeout: Duration = .seconds(15),
        reconnection: WebSocketReconnection? = nil
    ) {
        self.maximumMessageSize = max(maximumMessageSize, 1)
        self.pingInterval = pingInterval
        self.bufferedMessages = max(bufferedMessages, 1)
        self.closeTimeout = closeTimeout
        self.reconnection = reconnection
    }
}
#endif
