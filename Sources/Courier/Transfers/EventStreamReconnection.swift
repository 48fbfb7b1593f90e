/// When and how often ``ApiProvider/events(on:reconnection:)`` connects again after its stream ends.
public struct EventStreamReconnection: Sendable {
    /// Where the waits before reconnecting are timed: real time in an app, a ``TestScheduler`` in tests.
    public var scheduler: any Scheduler
    /// The wait before reconnecting until the server sets one with a `retry` field: 3 seconds by default.
    public var delay: Duration
    /// How many connection attempts in a row may fail (no connection, a 5xx answer) before the sequence gives up
    /// and throws the last failure; `nil` for no limit. A connection that delivered an event resets the count.
    public var maximumFailedAttempts: Int?

    /// Creates a policy.
    public init(scheduler: any Scheduler, delay: Duration = .seconds(3), maximumFailedAttempts: Int? = 5) {
        self.scheduler = scheduler
        self.delay = delay
        self.maximumFailedAttempts = maximumFailedAttempts
    }
}
