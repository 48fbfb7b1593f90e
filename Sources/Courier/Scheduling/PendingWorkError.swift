/// Work was still pending on a ``TestScheduler`` that was expected to be done.
public struct PendingWorkError: Error, Equatable, CustomStringConvertible {
    /// The scheduler's clock when it was checked.
    public let now: Duration
    /// When each pending piece of work is due, earliest first.
    public let dueTimes: [Duration]

    /// Says how much work is pending and when it falls due.
    public var description: String {
        let count = dueTimes.count == 1 ? "1 piece of work is" : "\(dueTimes.count) pieces of work are"
        let due = dueTimes.map { "\($0)" }.joined(separator: ", ")
        return "TestScheduler: \(count) still pending at \(now), due at \(due); advance the scheduler past them, "
            + "run() it, or cancel the requests that scheduled them."
    }
}
