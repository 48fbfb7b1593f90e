extension TestScheduler {
    /// Moves the clock forward by `duration` from the current ``now``, running the work that falls due on the
    /// way, and lets other tasks catch up before and after each piece of work.
    ///
    /// Use this form when the requests were started by other tasks, as with
    /// `async let todos = service.loadTodos()` followed by `await scheduler.advance(by:)`: a child task may not
    /// have reached its request when the parent calls `advance`, and a task resumed by a delivered answer may go
    /// on to schedule more work. Catching up means handing the cooperative thread pool to the other tasks through
    /// a bounded number of yields until no new work has been scheduled for a while; nothing sleeps or reads the
    /// real clock. It covers the usual `async let` pattern; when a request is started by code the test cannot see
    /// finish (another thread, a thousand tasks), ``waitForPendingWork(count:)`` is the exact handshake.
    public func advance(by duration: Duration = .zero) async {
        await advance(to: now + duration)
    }

    /// Moves the clock to `instant`, as `advance(by:)` does.
    public func advance(to instant: Duration) async {
        await letOtherTasksRun(waitingForFirstWork: pendingWorkCount == 0)
        while let work = takeNextWork(dueBy: instant) {
            work()
            // A task resumed by this work may send a follow-up request that falls due before `instant`.
            await letOtherTasksRun(waitingForFirstWork: pendingWorkCount == 0 && now < instant)
        }
        moveClock(to: instant)
    }

    /// Runs all pending work, including work it schedules, letting other tasks catch up between pieces.
    public func run() async {
        await letOtherTasksRun(waitingForFirstWork: pendingWorkCount == 0)
        while let work = takeNextWork(dueBy: nil) {
            work()
            await letOtherTasksRun(waitingForFirstWork: pendingWorkCount == 0)
        }
    }

    /// Hands the cooperative thread pool to other tasks until scheduling has settled.
    ///
    /// Each round trip through a low-priority detached task goes behind the jobs already enqueued. It yields until
    /// ``quietRounds`` rounds in a row see nothing new scheduled. When `waitingForFirstWork` (nothing is pending
    /// but time is still to pass: right after `async let`, or after an answer whose task may send the next
    /// request), it also keeps yielding until some work appears, for up to ``firstWorkRounds`` rounds: the other
    /// task's thread may have been preempted, and an advance that misses its request leaves the test waiting.
    func letOtherTasksRun(waitingForFirstWork waitForFirstWork: Bool) async {
        var lastSequence = state.withLock { $0.nextSequence }
        var anythingScheduled = false
        var rounds = 0
        var roundsWithoutNews = 0
        while roundsWithoutNews < Self.quietRounds
            || (waitForFirstWork && !anythingScheduled && rounds < Self.firstWorkRounds)
        {
            await Task.detached(priority: .background) { await Task.yield() }.value
            rounds += 1
            let sequence = state.withLock { $0.nextSequence }
            if sequence != lastSequence {
                lastSequence = sequence
                anythingScheduled = true
                roundsWithoutNews = 0
            } else {
                roundsWithoutNews += 1
            }
        }
    }

    /// How many yields in a row without new work count as settled.
    private static var quietRounds: Int { 16 }
    /// How many yields to wait for the first piece of work when nothing is pending.
    private static var firstWorkRounds: Int { 1_000 }
}
