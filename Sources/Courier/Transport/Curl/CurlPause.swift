#if canImport(CCourierCurl)
import Foundation

/// Whether the receiver owes libcurl a "read more", and whether the connection waits for it.
final class CurlPause: @unchecked Sendable {
    private let lock = NSLock()
    private var waitingForReader = false
    private var paused = false

    /// A part is about to be handed over.
    func willHandOver() {
        lock.withLock { waitingForReader = true }
    }

    /// The receiver asked for more: `true` when the connection was paused and must go on.
    func readMore() -> Bool {
        lock.withLock {
            waitingForReader = false
            defer { paused = false }
            return paused
        }
    }

    /// Whether a part was handed over and the receiver has not asked for more since.
    var isWaiting: Bool { lock.withLock { waitingForReader } }

    /// After the hand-over: `true` when the receiver has not asked for more yet, and the connection waits.
    func pausesNow() -> Bool {
        lock.withLock {
            paused = waitingForReader
            return paused
        }
    }
}
#endif
