/// When and how often ``ApiProvider/events(on:reconnection:)`` connects again after its stream ends.
public struct EventStreamReconnection: Sendable {
    /// Where the waits before reconnecting are timed: real time in an app, a ``TestScheduler`` in tests. For a policy
    /// made without one (``init(delay:maximumFailedAttempts:)``) the waits run on the request's clock instead (the
    /// provider's scheduler, or a mocked provider's behavior's; real time without one), and this reads as real time.
    public var scheduler: any Scheduler {
        get { ownScheduler ?? DispatchQueueScheduler.realTime }
        set { ownScheduler = newValue }
    }

    /// The scheduler given to this policy, or `nil` for the request's clock.
    var ownScheduler: (any Scheduler)?
    /// The wait before reconnecting until the server sets one with a `retry` field: 3 seconds by default.
    public var delay: Duration
    /// How many connection attempts in a row may fail (no connection, a 5xx answer) before the sequence gives up
    /// and throws the last failure; `nil` for no limit. A connection that delivered an event resets the count.
    public var maximumFailedAttempts: Int?

    /// Creates a policy.
    public init(scheduler: any Scheduler, delay: Duration = .seconds(3), maximumFailedAttempts: Int? = 5) {
        ownScheduler = scheduler
        self.delay = delay
        self.maximumFailedAttempts = maximumFailedAttempts
    }

    /// Creates a policy whose waits run on the request's clock: the provider's scheduler, so that a provider made
    /// with a ``TestScheduler`` times its reconnections too.
    public init(delay: Duration = .seconds(3), maximumFailedAttempts: Int? = 5) {
        ownScheduler = nil
        self.delay = delay
        self.maximumFailedAttempts = maximumFailedAttempts
    }
}
