#if WebSocket
import NIOConcurrencyHelpers
import NIOWebSocket
@_spi(WSInternal) import WSCore

/// Which side started a connection's close: the client's code and reason when it did, since a server's answering
/// close frame need not repeat them (many answer any close with 1000 and no reason).
final class ClosingStart: Sendable {
    private let state = NIOLockedValueBox<(client: WebSocketClosure?, serverFirst: Bool)>((nil, false))

    /// The close the client started, if it started one before the server's close or the connection's end.
    var client: WebSocketClosure? { state.withLockedValue { $0.client } }

    /// The server's close frame came, or the connection ended, before the client started a close.
    func serverEnded() {
        state.withLockedValue { state in
            if state.client == nil { state.serverFirst = true }
        }
    }

    /// Starts the client's close with `code` and `reason` over `writer`, unless a close was started already.
    func close(_ code: WebSocketCloseCode, reason: String?, over writer: WebSocketOutboundWriter) async {
        let first = state.withLockedValue { state in
            guard state.client == nil, !state.serverFirst else { return false }
            state.client = WebSocketClosure(code: code, reason: reason)
            return true
        }
        guard first else { return }
        // A failure means the connection is gone already; how it ended is the reading task's to tell.
        try? await writer.close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: reason)
    }
}
#endif
