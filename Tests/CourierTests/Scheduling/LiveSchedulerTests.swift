import CourierTestServer
import Dispatch
import Testing

@testable import TodoExample

@testable import Courier

/// The schedulers for running against mocks outside of virtual time.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct LiveSchedulerTests {
    @Test func theImmediateSchedulerRunsWorkBeforeReturningWhateverTheDelay() {
        let ran = EventLog<Int>()
        let scheduler: any Scheduler = .immediate
        scheduler.schedule(after: .seconds(3600)) { ran.append(1) }
        #expect(ran.events == [1])
        #expect(scheduler.now == .zero)
    }

    @Test func theDispatchQueueSchedulerRunsWorkOnItsQueueAfterTheDelay() async {
        let queue = DispatchQueue(label: "LiveSchedulerTests")
        let scheduler = DispatchQueueScheduler(queue: queue)
        let scheduledAt = scheduler.now
        let ranAt: Duration = await withCheckedContinuation { continuation in
            scheduler.schedule(after: .milliseconds(20)) {
                dispatchPrecondition(condition: .onQueue(queue))
                continuation.resume(returning: scheduler.now)
            }
        }
        #expect(ranAt - scheduledAt >= .milliseconds(20))
    }

    /// On a serial queue, work due earlier runs first: once the later work has run, the cancelled work's moment has
    /// passed, and it has not run.
    @Test func cancelledWorkNeverRunsOnTheDispatchQueueScheduler() async {
        let scheduler = DispatchQueueScheduler(queue: DispatchQueue(label: "LiveSchedulerTests.cancelled"))
        let ran = EventLog<String>()
        scheduler.schedule(after: .milliseconds(5)) { ran.append("cancelled") }.cancel()
        await withCheckedContinuation { continuation in
            scheduler.schedule(after: .milliseconds(30)) {
                ran.append("kept")
                continuation.resume()
            }
        }
        #expect(ran.events == ["kept"])
    }

    /// A request's timeout is cancelled when the request ends: what its work holds must go then, not at the end of
    /// the timeout. libdispatch lets go of a cancelled timer's handler on its queue; the hour is never waited for
    /// (the suite's one-minute limit guards the wait).
    @Test func cancelledWorkIsLetGoOfLongBeforeItsDelay() async throws {
        let scheduler = DispatchQueueScheduler(queue: DispatchQueue(label: "LiveSchedulerTests.released"))
        weak var released: Held?
        do {
            let held = Held()
            released = held
            scheduler.schedule(after: .seconds(3_600)) { _ = held }.cancel()
        }
        while released != nil { try await Task.sleep(for: .milliseconds(1)) }
        #expect(released == nil)
    }

    private final class Held: Sendable {}

    @Test func aMockingBehaviorWithoutSchedulerReallyWaitsOutItsDelay() async {
        let provider = ApiProvider<TodoApi>(mockingBehavior: MockingBehavior(delay: .milliseconds(30)))
        let clock = ContinuousClock()
        let started = clock.now
        let result = await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
        #expect(started.duration(to: clock.now) >= .milliseconds(30))
        #expect(result == .success([Todo(id: 1, title: "Buy milk")]))
    }

    @Test func delaysBecomeWholeNanosecondsAndSaturateInsteadOfOverflowing() {
        #expect(DispatchQueueScheduler.dispatchInterval(.milliseconds(1_500)) == .nanoseconds(1_500_000_000))
        #expect(DispatchQueueScheduler.dispatchInterval(.zero) == .nanoseconds(0))
        #expect(DispatchQueueScheduler.dispatchInterval(.seconds(-5)) == .nanoseconds(0))
        let maximumSeconds = Int(Int64(Int.max / 1_000_000_000) - 1)
        #expect(DispatchQueueScheduler.dispatchInterval(.seconds(Int64.max)) == .seconds(maximumSeconds))
    }
}
