/// A scheduler on virtual time: nothing it holds runs until a test moves its clock.
///
/// `advance(by:)` moves ``now`` forward and runs, in order, exactly the work that falls due on the way, each
/// piece at its own due time (``now`` reads that time while it runs). Work due at the same instant runs in the
/// order it was scheduled. Nothing sleeps and nothing waits for real time, so a test of a 30-second timeout
/// takes microseconds.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let provider = ApiProvider<TodoApi>(
///     mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler)
/// )
/// async let todos = provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
/// await scheduler.advance(by: .milliseconds(300))
/// let loaded = await todos
/// try scheduler.checkNoPendingWork()
/// ```
///
/// `advance(by:)`, `advance(to:)` and `run()` each have a synchronous form, for code that started its
/// requests itself (the completion door), and an `async` form, for requests started by other tasks (`async let`,
/// task groups); see <doc:TestingWithMocks>.
public final class TestScheduler: Scheduler {
    struct Item {
        let due: Duration
        let sequence: UInt64
        let work: @Sendable () -> Void
    }

    struct Waiter {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    struct State {
        var now: Duration
        /// Counts every piece of work ever scheduled; a catching-up `advance` watches it for new work.
        var nextSequence: UInt64 = 0
        var nextWaiterId: UInt64 = 0
        /// Sorted by due time, then by sequence: the next piece of work is always first.
        var items: [Item] = []
        var waiters: [Waiter] = []
    }

    let state: Locked<State>

    /// Creates a scheduler whose clock reads `now`.
    public init(now: Duration = .zero) {
        state = Locked(State(now: now))
    }

    /// The virtual time: where the last advance left the clock, or the due time of the work running now.
    public var now: Duration { state.withLock { $0.now } }

    /// How many pieces of work are scheduled and have neither run nor been cancelled.
    public var pendingWorkCount: Int { state.withLock { $0.items.count } }

    /// The due times of the pending work, earliest first.
    public var pendingDueTimes: [Duration] { state.withLock { $0.items.map(\.due) } }

    /// Holds `work` until the clock reaches ``now`` plus `delay` (a negative delay counts as zero).
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let (sequence, reachedWaiters) = state.withLock { state in
            let item = Item(due: state.now + max(delay, .zero), sequence: state.nextSequence, work: work)
            state.nextSequence += 1
            let index = state.items.firstIndex { $0.due > item.due } ?? state.items.endIndex
            state.items.insert(item, at: index)
            let pending = state.items.count
            let reached = state.waiters.filter { $0.count <= pending }
            state.waiters.removeAll { $0.count <= pending }
            return (item.sequence, reached)
        }
        for waiter in reachedWaiters {
            waiter.continuation.resume()
        }
        return ScheduledWork { [state] in
            state.withLock { $0.items.removeAll { $0.sequence == sequence } }
        }
    }

    /// Moves the clock forward by `duration`, running the work that falls due on the way.
    ///
    /// Runs on the calling thread, before returning; work scheduled by that work runs too if it falls due
    /// within `duration`.
    public func advance(by duration: Duration = .zero) {
        advance(to: now + duration)
    }

    /// Moves the clock to `instant`, running the work that falls due on the way; an instant before ``now``
    /// runs nothing and leaves the clock where it is.
    public func advance(to instant: Duration) {
        while let work = takeNextWork(dueBy: instant) {
            work()
        }
    }

    /// Runs all pending work, including work it schedules, moving the clock to each piece's due time.
    ///
    /// Never returns while work keeps scheduling more work (a polling loop); advance such code step by step.
    public func run() {
        while let work = takeNextWork(dueBy: nil) {
            work()
        }
    }

    /// Removes the first pending piece of work if it is due by `instant` (any is, for `nil`) and moves the clock
    /// to its due time; when none is due, moves the clock to `instant` instead.
    ///
    /// Both happen under one lock, so work that another thread schedules meanwhile is either taken here or due
    /// after `instant`: the clock never jumps past it.
    func takeNextWork(dueBy instant: Duration?) -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard let first = state.items.first, instant.map({ first.due <= $0 }) ?? true else {
                if let instant { state.now = max(state.now, instant) }
                return nil
            }
            state.items.removeFirst()
            state.now = max(state.now, first.due)
            return first.work
        }
    }
}
