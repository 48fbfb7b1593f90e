/// Work handed to a ``Scheduler``: cancel it to keep it from running.
public final class ScheduledWork: Sendable {
    private let cancelAction: Locked<TakeOnce<CancelAction>>

    /// Creates a handle whose first ``cancel()`` runs `cancel`; a scheduler's implementation makes one per
    /// scheduled piece of work.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.cancelAction = Locked(TakeOnce(CancelAction(cancel)))
    }

    /// Keeps the work from running if it has not started yet. Safe from any thread, any number of times.
    public func cancel() {
        cancelAction.withLock { $0.take() }?()
    }
}
