#if WebSocket
import NIOWebSocket
@_spi(WSInternal) import WSCore

/// How a WebSocket connection ended: the code and reason of the side that started the close.
///
/// When the server closed first, its close frame's; when the client did (`close(_:reason:)`, a cancelled reader, a
/// fault of the server's that Courier closed for), the client's, whatever the server answered (many servers answer
/// any close with 1000 and no reason). A connection that ended without a close frame from either side is
/// ``WebSocketCloseCode/abnormalClosure``.
public struct WebSocketClosure: Sendable, Hashable {
    /// The close code of the side that closed first.
    public let code: WebSocketCloseCode
    /// The reason given with it, if any.
    public let reason: String?

    /// A closure with `code` and `reason`.
    public init(code: WebSocketCloseCode, reason: String? = nil) {
        self.code = code
        self.reason = reason
    }
}

extension WebSocketClosure {
    /// The closure a close frame tells.
    init(_ frame: WebSocketCloseFrame) {
        self.init(code: WebSocketCloseCode(rawValue: UInt16(webSocketErrorCode: frame.closeCode)), reason: frame.reason)
    }
}
#endif
