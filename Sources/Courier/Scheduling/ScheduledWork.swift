/// Work handed to a ``Scheduler``: cancel it to keep it from running.
public final class ScheduledWork: Sendable {
    private let cancelAction: Locked<(@Sendable () -> Void)?>

    /// Creates a handle whose first ``cancel()`` runs `cancel`; a scheduler's implementation makes one per
    /// scheduled piece of work.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.cancelAction = Locked(cancel)
    }

    /// Keeps the work from running if it has not started yet. Safe from any thread, any number of times.
    public func cancel() {
        let action = cancelAction.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }
}
