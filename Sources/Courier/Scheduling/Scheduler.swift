/// Runs work after a delay, on a clock of its own: real time for the app, virtual time for tests.
///
/// A mocked ``ApiProvider`` hands its delayed answers to a scheduler (see ``MockingBehavior``). Courier ships
/// ``DispatchQueueScheduler`` (real time), ``ImmediateScheduler`` (no waiting at all) and ``TestScheduler``
/// (virtual time that only moves when a test moves it).
public protocol Scheduler: Sendable {
    /// How much time has passed on this scheduler's clock since it was created.
    var now: Duration { get }

    /// Runs `work` once `delay` has passed on this scheduler's clock; a delay of zero or less means as soon as
    /// possible.
    /// - Returns: A handle that cancels the work if it has not run yet.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork
}

extension Scheduler where Self == ImmediateScheduler {
    /// A scheduler that runs work at once, ignoring delays.
    public static var immediate: ImmediateScheduler { ImmediateScheduler() }
}

extension Scheduler where Self == DispatchQueueScheduler {
    /// A real-time scheduler that runs work on the main queue.
    public static var main: DispatchQueueScheduler { DispatchQueueScheduler(queue: .main) }
}
