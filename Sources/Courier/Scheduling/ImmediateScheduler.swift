/// A scheduler that runs work at once, on the calling thread, ignoring the delay.
///
/// Useful to keep a ``MockingBehavior``'s delay in the code under test while the test does not wait for it.
public struct ImmediateScheduler: Scheduler {
    /// Creates the scheduler.
    public init() {}

    /// Always zero: no time passes on this scheduler.
    public var now: Duration { .zero }

    /// Runs `work` before returning.
    /// - Returns: A handle whose `cancel()` does nothing, because the work has already run.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        work()
        return ScheduledWork {}
    }
}
