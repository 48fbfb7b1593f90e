import Dispatch

/// A real-time scheduler that runs work on a dispatch queue once the delay has passed.
///
/// This is the scheduler for running an app against mocked responses (a demo mode, a UI preview): the delay is
/// really waited for, without blocking any thread.
public struct DispatchQueueScheduler: Scheduler {
    /// The queue the work runs on.
    public let queue: DispatchQueue

    /// Real time for a request's timers when no scheduler is given: the one default of ``TransportOptions/timer``,
    /// a retry's wait and a Server-Sent Events reconnection.
    static var realTime: DispatchQueueScheduler { DispatchQueueScheduler(queue: .global(qos: .userInitiated)) }

    private let start = ContinuousClock.now

    /// Creates a scheduler running work on `queue`.
    ///
    /// The default is a global concurrent queue, which works in any process. The main queue only runs work while
    /// the main thread serves it (an app's run loop, `dispatchMain()`), so blocking the main thread on a request
    /// that it would deliver never ends.
    public init(queue: DispatchQueue = .global()) {
        self.queue = queue
    }

    /// The real time passed since the scheduler was created.
    public var now: Duration { start.duration(to: .now) }

    /// Runs `work` on ``queue`` after `delay`.
    ///
    /// A timer source, not `asyncAfter`: cancelling it lets go of `work` (and what it holds) at once, where a block
    /// handed to `asyncAfter` stays queued until its deadline. A request's timeout is cancelled when the request
    /// ends, and many finished requests must not keep their timers' work for the rest of a long timeout.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.dispatchInterval(delay))
        // The handler holds the timer until it fires or is cancelled: cancelling releases the handler, and with it
        // the timer and `work`.
        timer.setEventHandler {
            timer.cancel()
            work()
        }
        timer.activate()
        let source = Source(timer: timer)
        return ScheduledWork { source.timer.cancel() }
    }

    /// A timer source handed to the thread that cancels it: dispatch sources are safe to cancel from any thread, but
    /// corelibs-libdispatch does not mark its protocol `Sendable`.
    private struct Source: @unchecked Sendable {
        let timer: any DispatchSourceTimer
    }

    /// Whole nanoseconds, saturating: `Duration` reaches far beyond what `DispatchTimeInterval` can hold.
    static func dispatchInterval(_ delay: Duration) -> DispatchTimeInterval {
        guard delay > .zero else { return .nanoseconds(0) }
        let (seconds, attoseconds) = delay.components
        let maximumSeconds = Int64(Int.max / 1_000_000_000) - 1
        guard seconds < maximumSeconds else { return .seconds(Int(maximumSeconds)) }
        return .nanoseconds(Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}

extension DispatchQueue {
    /// This queue as a real-time ``Scheduler``, in the spelling Microya's combine-schedulers used:
    /// `MockingBehavior(scheduler: DispatchQueue.main.eraseToAnyScheduler())` keeps compiling.
    public func eraseToAnyScheduler() -> DispatchQueueScheduler {
        DispatchQueueScheduler(queue: self)
    }
}
