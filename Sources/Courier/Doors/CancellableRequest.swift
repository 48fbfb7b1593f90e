/// A request that has been started: cancel it to stop it and receive ``ApiError/cancelled``.
///
/// Cancelling is safe from any thread, at any time, any number of times. A request cancelled before it was
/// sent is never sent; one cancelled while in flight has its connection closed; one already answered is not
/// affected.
public final class CancellableRequest: Sendable {
    /// A request goes through steps (preparing, sending, judging, waiting to retry), each with its own cancel
    /// action; `step` counts them, so that a step that began inside another one is not overwritten by it.
    private enum State {
        case active(step: Int, cancel: (@Sendable () -> Void)?)
        case cancelled
        /// Cancelled, and an outcome delivered: the cancellation, or an answer that got there first.
        case cancelledAndFinished
        case finished
    }

    private let state = Locked(State.active(step: 0, cancel: nil))

    init() {}

    /// Whether ``cancel()`` was called before the request's answer was delivered.
    public var isCancelled: Bool {
        state.withLock { state in
            switch state {
            case .cancelled, .cancelledAndFinished: true
            case .active, .finished: false
            }
        }
    }

    /// Cancels the request; its caller receives ``ApiError/cancelled`` unless the answer was already delivered.
    public func cancel() {
        let cancelStep: (@Sendable () -> Void)? = state.withLock { state in
            guard case .active(_, let cancel) = state else { return nil }
            state = .cancelled
            return cancel
        }
        cancelStep?()
    }

    /// Runs `begin` unless the request was cancelled first, and keeps the cancel action it returns until the next
    /// step begins.
    ///
    /// `begin` runs outside the lock because it may go on to the next steps, and even deliver, on the calling
    /// thread. A cancel that arrives while it runs is carried out on the action it returns.
    /// - Returns: `false` when the request was cancelled (or has ended) before the step could begin.
    func step(_ begin: () -> @Sendable () -> Void) -> Bool {
        let number: Int? = state.withLock { state in
            guard case .active(let step, _) = state else { return nil }
            state = .active(step: step + 1, cancel: nil)
            return step + 1
        }
        guard let number else { return false }
        let cancel = begin()
        let cancelledMeanwhile = state.withLock { state in
            switch state {
            case .active(let step, nil) where step == number:
                state = .active(step: step, cancel: cancel)
                return false
            case .cancelled:
                return true
            case .active, .cancelledAndFinished, .finished:
                return false
            }
        }
        if cancelledMeanwhile { cancel() }
        return true
    }

    /// Records that the outcome is being delivered: later cancels do nothing, and the cancel action is released.
    /// - Returns: `false` when an outcome was delivered already; a cancellation and a late answer may race to it,
    ///   and only the first is delivered.
    func finish() -> Bool {
        state.withLock { state in
            switch state {
            case .active:
                state = .finished
                return true
            case .cancelled:
                state = .cancelledAndFinished
                return true
            case .cancelledAndFinished, .finished:
                return false
            }
        }
    }
}
