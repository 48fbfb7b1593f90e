#if WebSocket
/// How a WebSocket connection ended: the code and reason of the server's close frame.
public struct WebSocketClosure: Sendable, Hashable {
    /// The server's close code. Without a close frame of the server's that had one: the code Courier closed with for
    /// a fault of the server's (``WebSocketError``), else ``WebSocketCloseCode/abnormalClosure`` (a dropped
    /// connection).
    public let code: WebSocketCloseCode
    /// The reason the server gave, if any.
    public let reason: String?

    /// A closure with `code` and `reason`.
    public init(code: WebSocketCloseCode, reason: String? = nil) {
        self.code = code
        self.reason = reason
    }
}
#endif
