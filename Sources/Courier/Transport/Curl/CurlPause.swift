#if canImport(CCourierCurl)
import Foundation

/// Whether the receiver owes libcurl a "read more", and whether the connection waits for it.
final class CurlPause: Sendable {
    private struct State {
        var waitingForReader = false
        var paused = false
    }

    private let state = Locked(State())

    /// A part is about to be handed over.
    func willHandOver() {
        state.withLock { $0.waitingForReader = true }
    }

    /// The receiver asked for more: `true` when the connection was paused and must go on.
    func readMore() -> Bool {
        state.withLock { state in
            state.waitingForReader = false
            defer { state.paused = false }
            return state.paused
        }
    }

    /// Whether a part was handed over and the receiver has not asked for more since.
    var isWaiting: Bool { state.withLock { $0.waitingForReader } }

    /// After the hand-over: `true` when the receiver has not asked for more yet, and the connection waits.
    func pausesNow() -> Bool {
        state.withLock { state in
            state.paused = state.waitingForReader
            return state.paused
        }
    }
}
#endif
