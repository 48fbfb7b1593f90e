/// The cancel action of an exchange that may be started again (a `304` that confirms another response is fetched
/// whole): cancelling reaches whichever runs, and none starts after cancelling.
final class Cancellation: Sendable {
    private let state = Locked(OnceState<CancelAction>())

    /// Starts an exchange with `start`, which returns its cancel action, unless cancelled first.
    /// - Returns: `false` when cancelled first: nothing was started, and the caller delivers the cancellation.
    func start(_ start: () -> @Sendable () -> Void) -> Bool {
        guard let step = state.withLock({ $0.begin() }) else { return false }
        let action = start()
        if case .cancelNow(let action) = state.withLock({ $0.attach(action, step: step) }) { action() }
        return true
    }

    @Sendable func cancel() {
        state.withLock { $0.cancel() }?()
    }
}
