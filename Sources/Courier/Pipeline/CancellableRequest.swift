/// A request that has been started: cancel it to stop it and receive ``ApiError/cancelled``.
///
/// Cancelling is safe from any thread, at any time, any number of times. A request cancelled before it was
/// sent is never sent; one cancelled while in flight has its connection closed; one already answered is not
/// affected.
public final class CancellableRequest: Sendable {
    /// A request goes through steps (preparing, sending, judging, waiting to retry), each with its own cancel
    /// action.
    private let state = Locked(OnceState<CancelAction>())

    init() {}

    /// Whether ``cancel()`` was called before the request's answer was delivered.
    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Cancels the request; its caller receives ``ApiError/cancelled`` unless the answer was already delivered.
    public func cancel() {
        state.withLock { $0.cancel() }?()
    }

    /// Runs `begin` unless the request was cancelled first, and keeps the cancel action it returns until the next
    /// step begins.
    ///
    /// `begin` runs outside the lock because it may go on to the next steps, and even deliver, on the calling
    /// thread. A cancel that arrives while it runs is carried out on the action it returns.
    /// - Returns: `false` when the request was cancelled (or has ended) before the step could begin.
    func step(_ begin: () -> @Sendable () -> Void) -> Bool {
        guard let number = state.withLock({ $0.begin() }) else { return false }
        let cancel = begin()
        if case .cancelNow(let cancel) = state.withLock({ $0.attach(cancel, step: number) }) { cancel() }
        return true
    }

    /// Records that the outcome is being delivered: later cancels do nothing, and the cancel action is released.
    /// - Returns: `false` when an outcome was delivered already; a cancellation and a late answer may race to it,
    ///   and only the first is delivered.
    func finish() -> Bool {
        state.withLock { $0.deliver() }
    }
}
