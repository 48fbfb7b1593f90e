#if WebSocket
import Courier
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
@_spi(WSInternal) import WSCore

/// Which side started a connection's close: the client's code and reason when it did, since a server's answering
/// close frame need not repeat them (many answer any close with 1000 and no reason). Also times the server's answer
/// to the client's close.
final class ClosingStart: Sendable {
    private struct State {
        var client: WebSocketClosure?
        var serverFirst = false
        var ended = false
        var answerTimer: ScheduledWork?
    }

    private let channel: any Channel
    private let clock: any Scheduler
    private let timeout: Duration
    private let state = NIOLockedValueBox(State())

    /// Closes for `channel`, waiting up to `timeout` on `clock` for the server's answer to a close.
    init(channel: any Channel, clock: any Scheduler, timeout: Duration) {
        self.channel = channel
        self.clock = clock
        self.timeout = timeout
    }

    /// The close the client started, if it started one before the server's close or the connection's end.
    var client: WebSocketClosure? { state.withLockedValue { $0.client } }

    /// The server's close frame came, or the connection ended, before the client started a close.
    func serverEnded() {
        state.withLockedValue { state in
            if state.client == nil { state.serverFirst = true }
        }
    }

    /// The connection has ended: nothing is waited for any more.
    func connectionEnded() {
        serverEnded()
        state.withLockedValue { state in
            state.ended = true
            defer { state.answerTimer = nil }
            return state.answerTimer
        }?.cancel()
    }

    /// Starts the client's close with `code` and `reason` over `writer`, unless a close was started already; the
    /// connection is dropped if the server has not answered within the timeout, when `awaitingAnswer`.
    func close(
        _ code: WebSocketCloseCode,
        reason: String?,
        over writer: WebSocketOutboundWriter,
        awaitingAnswer: Bool = true
    ) async {
        let first = state.withLockedValue { state in
            guard state.client == nil, !state.serverFirst else { return false }
            state.client = WebSocketClosure(code: code, reason: reason)
            return true
        }
        guard first else { return }
        if awaitingAnswer {
            // swift-websocket times the answer only once the reading has ended, which a silent server never ends;
            // timed from before the close frame is written, since a server that reads nothing can hold the write too.
            let timer = clock.schedule(after: timeout) { [channel] in channel.close(promise: nil) }
            let ended = state.withLockedValue { state in
                if !state.ended { state.answerTimer = timer }
                return state.ended
            }
            if ended { timer.cancel() }
        }
        // A failure means the connection is gone already; how it ended is the reading task's to tell.
        try? await writer.close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: reason)
    }
}
#endif
