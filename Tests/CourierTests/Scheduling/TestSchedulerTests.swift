import Testing

@testable import TodoExample

@testable import Courier

/// Virtual time: work runs exactly when the clock reaches it, in order, and leftovers are reported.
@Suite struct TestSchedulerTests {
    let scheduler = TestScheduler()
    let ran = EventLog<String>()

    func schedule(_ label: String, after delay: Duration) {
        let (scheduler, ran) = (scheduler, ran)
        scheduler.schedule(after: delay) { ran.append("\(label)@\(scheduler.now)") }
    }

    @Test func workRunsInDueOrderAtItsOwnDueTime() {
        schedule("c", after: .seconds(3))
        schedule("a", after: .seconds(1))
        schedule("b", after: .seconds(2))
        scheduler.advance(by: .seconds(5))
        #expect(ran.events == ["a@1.0 seconds", "b@2.0 seconds", "c@3.0 seconds"])
        #expect(scheduler.now == .seconds(5))
    }

    @Test func workDueAtTheSameInstantRunsInTheOrderItWasScheduled() {
        for label in ["1", "2", "3", "4", "5"] {
            schedule(label, after: .milliseconds(10))
        }
        schedule("0", after: .milliseconds(5))
        scheduler.advance(by: .milliseconds(10))
        #expect(ran.events.map { $0.prefix(1) } == ["0", "1", "2", "3", "4", "5"])
    }

    @Test func nothingRunsBeforeItsDueTime() {
        schedule("a", after: .milliseconds(300))
        scheduler.advance(by: .milliseconds(299))
        #expect(ran.events.isEmpty)
        #expect(scheduler.pendingDueTimes == [.milliseconds(300)])
        scheduler.advance(by: .milliseconds(1))
        #expect(ran.events == ["a@0.3 seconds"])
    }

    @Test func zeroAndNegativeDelaysAreDueNowAndRunOnTheNextAdvance() {
        schedule("zero", after: .zero)
        schedule("negative", after: .seconds(-1))
        #expect(ran.events.isEmpty)
        scheduler.advance()
        #expect(ran.events == ["zero@0.0 seconds", "negative@0.0 seconds"])
    }

    @Test func workScheduledByWorkRunsInTheSameAdvanceIfItFallsDueInTime() {
        let (scheduler, ran) = (scheduler, ran)
        scheduler.schedule(after: .seconds(1)) {
            ran.append("first@\(scheduler.now)")
            scheduler.schedule(after: .seconds(1)) { ran.append("second@\(scheduler.now)") }
            scheduler.schedule(after: .seconds(5)) { ran.append("late@\(scheduler.now)") }
        }
        scheduler.advance(by: .seconds(2))
        #expect(ran.events == ["first@1.0 seconds", "second@2.0 seconds"])
        #expect(scheduler.pendingDueTimes == [.seconds(6)])
    }

    @Test func advanceToAnEarlierInstantRunsNothingAndKeepsTheClock() {
        scheduler.advance(to: .seconds(10))
        schedule("a", after: .seconds(1))
        scheduler.advance(to: .seconds(4))
        #expect(scheduler.now == .seconds(10))
        #expect(ran.events.isEmpty)
        scheduler.advance(to: .seconds(11))
        #expect(ran.events == ["a@11.0 seconds"])
    }

    @Test func runDrainsEverythingIncludingWorkScheduledOnTheWay() {
        let (scheduler, ran) = (scheduler, ran)
        schedule("a", after: .seconds(7))
        scheduler.schedule(after: .seconds(1)) {
            scheduler.schedule(after: .seconds(20)) { ran.append("chained@\(scheduler.now)") }
        }
        scheduler.run()
        #expect(ran.events == ["a@7.0 seconds", "chained@21.0 seconds"])
        #expect(scheduler.now == .seconds(21))
        #expect(scheduler.pendingWorkCount == 0)
    }

    @Test func cancelledWorkNeverRunsAndIsNoLongerPending() throws {
        let work = scheduler.schedule(after: .seconds(1)) { Issue.record("cancelled work ran") }
        schedule("kept", after: .seconds(2))
        work.cancel()
        work.cancel()
        #expect(scheduler.pendingWorkCount == 1)
        scheduler.advance(by: .seconds(2))
        #expect(ran.events == ["kept@2.0 seconds"])
        try scheduler.checkNoPendingWork()
    }

    @Test func theCheckReportsPendingWorkWithItsDueTimes() {
        scheduler.advance(by: .milliseconds(100))
        schedule("a", after: .milliseconds(400))
        schedule("b", after: .seconds(2))
        let error = #expect(throws: PendingWorkError.self) { try scheduler.checkNoPendingWork() }
        #expect(error?.now == .milliseconds(100))
        #expect(error?.dueTimes == [.milliseconds(500), .milliseconds(2_100)])
        #expect(
            error?.description
                == "TestScheduler: 2 pieces of work are still pending at 0.1 seconds, due at 0.5 seconds, 2.1 seconds; "
                + "advance the scheduler past them, run() it, or cancel the requests that scheduled them."
        )
    }

    @Test func aStartingClockCanBeGiven() {
        let scheduler = TestScheduler(now: .seconds(60))
        scheduler.schedule(after: .seconds(1)) {}
        #expect(scheduler.pendingDueTimes == [.seconds(61)])
    }

    @Test func waitingForPendingWorkReturnsOnceEnoughIsScheduled() async {
        let scheduler = scheduler
        async let waited: Void = scheduler.waitForPendingWork(count: 3)
        for delay in 1...3 {
            Task.detached { scheduler.schedule(after: .seconds(delay)) {} }
        }
        await waited
        #expect(scheduler.pendingWorkCount == 3)
        await scheduler.waitForPendingWork(count: 2)
    }

    @Test func waitingForPendingWorkEndsWhenTheWaitingTaskIsCancelled() async {
        let scheduler = scheduler
        let waiting = Task { await scheduler.waitForPendingWork(count: 1) }
        // Cancel only once the waiter is registered, so the cancellation handler is what ends the wait.
        while scheduler.state.withLock({ $0.waiters.isEmpty }) {
            await Task.yield()
        }
        waiting.cancel()
        await waiting.value
        #expect(scheduler.state.withLock { $0.waiters.isEmpty })
        #expect(scheduler.pendingWorkCount == 0)
    }

    @Test func asyncAdvanceRunsWhatATaskResumedByEarlierWorkSchedulesWithinTheWindow() async throws {
        let provider = ApiProvider<TodoApi>(
            mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler)
        )
        async let created = provider.response(on: .create(Todo(title: "a")), decodeBodyTo: Todo.self)
        async let reloaded: ApiProvider<TodoApi>.TypedResult<[Todo]> = {
            _ = await provider.response(on: .delete(id: 1))
            return await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
        }()
        await scheduler.advance(by: .milliseconds(600))
        #expect(try await created.get() == Todo(title: "a"))
        #expect(try await reloaded.get().count == 1)
        #expect(scheduler.now == .milliseconds(600))
        try scheduler.checkNoPendingWork()
    }

    @Test func asyncRunDrainsWorkOfOtherTasks() async throws {
        let provider = ApiProvider<TodoApi>(
            mockingBehavior: MockingBehavior(delay: .seconds(90), scheduler: scheduler)
        )
        async let deleted = provider.response(on: .delete(id: 1))
        await scheduler.run()
        #expect(await deleted == .success(EmptyBodyResponse()))
        #expect(scheduler.now == .seconds(90))
    }
}
