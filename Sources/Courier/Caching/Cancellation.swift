/// The cancel action of an exchange that may be started again (a `304` that confirms another response is fetched
/// whole): cancelling reaches whichever runs, and one started after cancelling is cancelled at once.
final class Cancellation: Sendable {
    private let state = Locked<(cancelled: Bool, action: (@Sendable () -> Void)?)>((false, nil))

    /// Starts an exchange with `start`, which returns its cancel action.
    func start(_ start: () -> @Sendable () -> Void) {
        let action = start()
        let cancelled = state.withLock { state in
            state.action = action
            return state.cancelled
        }
        if cancelled { action() }
    }

    @Sendable func cancel() {
        let action = state.withLock { state in
            state.cancelled = true
            return state.action
        }
        action?()
    }
}
