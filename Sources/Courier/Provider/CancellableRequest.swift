/// A request that has been started: cancel it to stop it and receive ``ApiError/cancelled``.
///
/// Cancelling is safe from any thread, at any time, any number of times. A request cancelled before it was
/// sent is never sent; one cancelled while in flight has its connection closed; one already answered is not
/// affected.
public final class CancellableRequest: Sendable {
    private enum State {
        case notStarted
        case starting(cancelRequested: Bool)
        case running(cancel: @Sendable () -> Void)
        case cancelled
        case finished
    }

    private let state = Locked(State.notStarted)

    init() {}

    /// Whether ``cancel()`` was called before the request's answer was delivered.
    public var isCancelled: Bool {
        state.withLock { state in
            switch state {
            case .cancelled, .starting(cancelRequested: true): true
            case .notStarted, .starting(cancelRequested: false), .running, .finished: false
            }
        }
    }

    /// Cancels the request; its caller receives ``ApiError/cancelled`` unless the answer was already delivered.
    public func cancel() {
        let cancelInFlight: (@Sendable () -> Void)? = state.withLock { state in
            switch state {
            case .notStarted:
                state = .cancelled
                return nil
            case .starting:
                state = .starting(cancelRequested: true)
                return nil
            case .running(let cancel):
                state = .cancelled
                return cancel
            case .cancelled, .finished:
                return nil
            }
        }
        cancelInFlight?()
    }

    /// Runs `send` unless the request was cancelled first, and keeps the cancel action it returns.
    ///
    /// `send` runs outside the lock because a transport may answer on the calling thread.
    /// - Returns: `false` when the request was cancelled before it could be sent.
    func start(_ send: () -> @Sendable () -> Void) -> Bool {
        let mayStart = state.withLock { state in
            guard case .notStarted = state else { return false }
            state = .starting(cancelRequested: false)
            return true
        }
        guard mayStart else { return false }
        let cancel = send()
        let cancelledWhileStarting = state.withLock { state in
            switch state {
            case .starting(cancelRequested: true):
                state = .cancelled
                return true
            case .starting(cancelRequested: false):
                state = .running(cancel: cancel)
                return false
            case .notStarted, .running, .cancelled, .finished:
                return false
            }
        }
        if cancelledWhileStarting { cancel() }
        return true
    }

    /// Records that the answer was delivered: later cancels do nothing, and the cancel action is released.
    func finish() {
        state.withLock { state in
            if case .cancelled = state { return }
            state = .finished
        }
    }
}
