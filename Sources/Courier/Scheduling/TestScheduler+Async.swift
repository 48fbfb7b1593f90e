extension TestScheduler {
    /// Moves the clock forward by `duration` from the current ``now``, running the work that falls due on the
    /// way, and lets other tasks catch up before and after each piece of work.
    ///
    /// Use this form when the requests were started by other tasks, as with
    /// `async let todos = service.loadTodos()` followed by `await scheduler.advance(by:)`: the child task may not
    /// have reached its request yet when the parent calls `advance`, and a task resumed by a delivered answer may
    /// go on to send another request. Catching up means yielding the thread pool to other tasks, a bounded number
    /// of times, until nothing new has been scheduled for a while (longer while nothing is pending); nothing
    /// sleeps or reads the real clock. A request that has entered a mocked provider is answered at its virtual due
    /// time even if its task is held up on the way. Only a task that has not reached the provider at all by then
    /// sends its request after the advance; where a test cannot rule that out (a thread of its own, a thousand
    /// tasks), ``waitForPendingWork(count:)`` is the exact handshake.
    public func advance(by duration: Duration = .zero) async {
        await advance(to: now + duration)
    }

    /// Moves the clock to `instant`, running the work that falls due on the way and letting other tasks catch up
    /// before and after each piece of work.
    public func advance(to instant: Duration) async {
        // With nothing pending, the task about to send a request may not have started yet: wait longer for it.
        await letOtherTasksRun(expectingNewWork: pendingWorkCount == 0)
        while let work = takeNextWork(dueBy: instant) {
            work()
            // A task resumed by this work may send a follow-up request that falls due before `instant`.
            await letOtherTasksRun(expectingNewWork: now < instant)
        }
    }

    /// Runs all pending work, including work it schedules, letting other tasks catch up between pieces.
    public func run() async {
        await letOtherTasksRun(expectingNewWork: pendingWorkCount == 0)
        while let work = takeNextWork(dueBy: nil) {
            work()
            await letOtherTasksRun(expectingNewWork: pendingWorkCount == 0)
        }
    }

    /// Hands the cooperative thread pool to other tasks until scheduling has settled.
    ///
    /// Swift offers no way to wait until another task has suspended, so this yields: each round awaits a
    /// low-priority detached task, letting ready tasks run meanwhile. It stops once ``quietRounds`` rounds in a
    /// row saw nothing new scheduled; when `expectingNewWork`, it first keeps going until something new is
    /// scheduled, for at most ``newWorkRounds`` rounds, because the task about to send a request may not have
    /// started yet (its thread busy or preempted). No real time is read or slept.
    ///
    /// A request that has entered a mocked provider never depends on this: its answer's due time counts from
    /// the moment it entered, so if the clock passed that time while it was on its way, it is delivered at once
    /// rather than a full delay after the advance (see ``MockingBehavior``).
    func letOtherTasksRun(expectingNewWork: Bool) async {
        var lastSequence = state.withLock { $0.nextSequence }
        var sawNewWork = false
        var rounds = 0
        var quietRoundsInARow = 0
        while quietRoundsInARow < Self.quietRounds || (expectingNewWork && !sawNewWork && rounds < Self.newWorkRounds) {
            await Task.detached(priority: .background) { await Task.yield() }.value
            rounds += 1
            let sequence = state.withLock { $0.nextSequence }
            if sequence != lastSequence {
                lastSequence = sequence
                sawNewWork = true
                quietRoundsInARow = 0
            } else {
                quietRoundsInARow += 1
            }
        }
    }

    /// How many rounds in a row without new work count as settled.
    private static var quietRounds: Int { 16 }
    /// How many rounds to wait at most for new work that is expected.
    private static var newWorkRounds: Int { 500 }
}
