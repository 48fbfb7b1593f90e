import Courier
import CourierTestServer
import Foundation
import Testing

@testable import TodoExample

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When a mocked answer arrives, through each door: never before its due time, exactly at it, deterministically.
// Two minutes: a thousand rounds each, which under ThreadSanitizer on two cores can take more than one.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct MockedDeliveryTimingTests {
    let scheduler = TestScheduler()
    let clock: ClockReadingPlugin

    init() {
        clock = ClockReadingPlugin(scheduler)
    }

    func provider(delay: Duration? = .milliseconds(300)) -> ApiProvider<TodoApi> {
        ApiProvider(plugins: [clock], mockingBehavior: MockingBehavior(delay: delay, scheduler: scheduler))
    }

    @Test func withoutDelayTheCompletionRunsBeforePerformRequestReturns() {
        let delivered = EventLog<Int>()
        provider(delay: nil).performRequest(on: .list(page: 1), decodeBodyTo: [Todo].self) { result in
            delivered.append((try? result.get().count) ?? -1)
        }
        #expect(delivered.events == [1])
        #expect(scheduler.pendingWorkCount == 0)
    }

    @Test func withDelayTheCompletionRunsInsideTheAdvanceThatReachesItsDueTime() {
        let deliveredAt = EventLog<Duration>()
        let scheduler = self.scheduler
        provider().performRequest(on: .list(page: 1), decodeBodyTo: [Todo].self) { _ in
            deliveredAt.append(scheduler.now)
        }

        scheduler.advance(by: .milliseconds(299))
        #expect(deliveredAt.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(deliveredAt.events == [.milliseconds(300)])
        #expect(clock.readings.events == [.milliseconds(300)])
    }

    @Test func anAdvancePastTheDueTimeDeliversAtTheDueTimeAndLeavesTheClockAtItsEnd() {
        let deliveredAt = EventLog<Duration>()
        let scheduler = self.scheduler
        provider().performRequest(on: .list(page: 1), decodeBodyTo: [Todo].self) { _ in
            deliveredAt.append(scheduler.now)
        }
        scheduler.advance(by: .milliseconds(500))
        #expect(deliveredAt.events == [.milliseconds(300)])
        #expect(scheduler.now == .milliseconds(500))
    }

    @Test func theDelayCountsFromWhenTheRequestEnteredTheProvider() {
        // A plugin that moves the clock while the request is on its way, as another thread's advance could.
        let scheduler = self.scheduler
        let provider = ApiProvider<TodoApi>(
            plugins: [ClockMovingPlugin(scheduler, by: .milliseconds(100)), clock],
            mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler)
        )
        provider.performRequest(on: .list(page: 1), decodeBodyTo: [Todo].self) { _ in }
        #expect(scheduler.pendingDueTimes == [.milliseconds(300)])
        scheduler.advance(to: .milliseconds(300))
        #expect(clock.readings.events == [.milliseconds(300)])
    }

    @Test func aRequestWhoseDueTimePassedOnItsWayIsAnsweredAtOnce() {
        let scheduler = self.scheduler
        let delivered = EventLog<Int>()
        let provider = ApiProvider<TodoApi>(
            plugins: [ClockMovingPlugin(scheduler, by: .milliseconds(500))],
            mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler)
        )
        provider.performRequest(on: .list(page: 1), decodeBodyTo: [Todo].self) {
            delivered.append((try? $0.get().count) ?? -1)
        }
        #expect(delivered.events == [1])
        #expect(scheduler.pendingWorkCount == 0)
    }

    @Test(arguments: Door.allCases) func aDelayedMockArrivesNotBeforeAndExactlyAtItsDueTime(door: Door) async {
        let provider = provider()
        let finished = EventLog<Duration>()
        let scheduler = self.scheduler
        let request = Task {
            let result = await provider.result(through: door, on: .list(page: 1), decodeBodyTo: [Todo].self)
            finished.append(scheduler.now)
            return result
        }
        // The request is sent by another task (or thread, for the wait door): wait until it is scheduled.
        await scheduler.waitForPendingWork(count: 1)

        await scheduler.advance(by: .milliseconds(299))
        #expect(finished.events.isEmpty)
        #expect(scheduler.pendingWorkCount == 1)

        await scheduler.advance(by: .milliseconds(1))
        #expect(await request.value == .success([Todo(id: 1, title: "Buy milk")]))
        #expect(finished.events == [.milliseconds(300)])
        #expect(clock.readings.events == [.milliseconds(300)])
    }

    @Test func asyncLetThenAdvanceDeliversTheSameWayAThousandTimesInARow() async {
        for iteration in 1...1_000 {
            let scheduler = TestScheduler()
            let provider = ApiProvider<TodoApi>(
                mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler)
            )
            async let todos = TodoService(provider: provider).loadTodos()
            await scheduler.advance(by: .milliseconds(300))
            let loaded = await todos
            guard loaded.count == 1, scheduler.pendingWorkCount == 0 else {
                Issue.record("iteration \(iteration): \(loaded.count) to-dos, \(scheduler.pendingWorkCount) pending")
                return
            }
        }
    }

    @Test func cancellingTheAwaitingTaskEndsItPromptlyAndLeavesNothingScheduled() async throws {
        let events = EventLog<String>()
        let recorder = ResultRecordingPlugin(events)
        let provider = ApiProvider<TodoApi>(
            plugins: [recorder],
            mockingBehavior: MockingBehavior(delay: .seconds(30), scheduler: scheduler)
        )
        let request = Task { await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self) }
        await scheduler.waitForPendingWork(count: 1)

        request.cancel()
        #expect(await request.value == .failure(.cancelled))
        #expect(scheduler.now == .zero)
        try scheduler.checkNoPendingWork()
        #expect(events.events == ["failure: ApiError.cancelled"])
    }

    @Test func cancellingTheCompletionHandleUnschedulesTheAnswerAndDeliversCancelledOnce() throws {
        let delivered = EventLog<ApiProvider<TodoApi>.TypedResult<[Todo]>>()
        let handle = provider().performRequest(on: .list(page: 1), decodeBodyTo: [Todo].self) { delivered.append($0) }
        #expect(scheduler.pendingWorkCount == 1)

        handle.cancel()
        handle.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(delivered.events == [.failure(.cancelled)])
        try scheduler.checkNoPendingWork()
    }

    @Test func aThousandConcurrentMockedCallsAllArriveAtTheirDueTime() async throws {
        let provider = provider()
        let results = await withTaskGroup(of: ApiProvider<TodoApi>.TypedResult<[Todo]>.self) { group in
            for _ in 1...1_000 {
                group.addTask { await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self) }
            }
            await scheduler.waitForPendingWork(count: 1_000)
            await scheduler.advance(by: .milliseconds(300))
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 1_000)
        #expect(results.allSatisfy { $0 == .success([Todo(id: 1, title: "Buy milk")]) })
        #expect(Set(clock.readings.events) == [.milliseconds(300)])
        try scheduler.checkNoPendingWork()
    }

    @Test func manyDelayedMocksOnSeveralProvidersArriveInDueTimeOrderAndFifoWithinAnInstant() throws {
        let scheduler = self.scheduler
        let delaysInMilliseconds = [500, 100, 300, 100, 0, 700, 300, 300, 50, 500, 100, 0]
        let providers = (1...3).map { _ in
            (0..<delaysInMilliseconds.count).map { index in
                ApiProvider<TodoApi>(
                    mockingBehavior: MockingBehavior(
                        delay: .milliseconds(delaysInMilliseconds[index]),
                        scheduler: scheduler
                    )
                )
            }
        }
        let deliveries = EventLog<Delivery>()
        for (round, roundProviders) in providers.enumerated() {
            for (index, provider) in roundProviders.enumerated() {
                let label = round * delaysInMilliseconds.count + index
                provider.performRequest(on: .delete(id: label)) { _ in
                    deliveries.append(Delivery(label: label, at: scheduler.now))
                }
            }
        }
        // Step through time: each answer arrives in the step that reaches its due time, not before, not after.
        for step in stride(from: 0, through: 700, by: 50) {
            scheduler.advance(to: .milliseconds(step))
            let dueByNow = delaysInMilliseconds.enumerated().filter { $0.element <= step }.map(\.offset)
            let expectedLabels = providers.indices.flatMap { round in
                dueByNow.map { round * delaysInMilliseconds.count + $0 }
            }
            #expect(Set(deliveries.events.map(\.label)) == Set(expectedLabels), "at \(step) ms")
        }

        let expected = providers.indices
            .flatMap { round in
                delaysInMilliseconds.indices.map { index in
                    Delivery(
                        label: round * delaysInMilliseconds.count + index,
                        at: .milliseconds(delaysInMilliseconds[index])
                    )
                }
            }
            .sorted { ($0.at, $0.label) < ($1.at, $1.label) }
        #expect(deliveries.events == expected)
        try scheduler.checkNoPendingWork()
    }
}

/// One mocked answer: which request, and the virtual time it arrived.
struct Delivery: Equatable, Sendable {
    let label: Int
    let at: Duration
}

/// Reads a scheduler's clock whenever a request finishes.
final class ClockReadingPlugin: Plugin<TodoApi>, @unchecked Sendable {
    let scheduler: TestScheduler
    let readings = EventLog<Duration>()

    init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    override func didPerformRequest<ResultType: Decodable>(
        urlSessionResult: ApiProvider<TodoApi>.URLSessionResult,
        typedResult: ApiProvider<TodoApi>.TypedResult<ResultType>,
        endpoint: TodoApi
    ) {
        readings.append(scheduler.now)
    }
}

/// Advances a test scheduler while a request passes through the plugins.
final class ClockMovingPlugin: Plugin<TodoApi>, @unchecked Sendable {
    let scheduler: TestScheduler
    let duration: Duration

    init(_ scheduler: TestScheduler, by duration: Duration) {
        self.scheduler = scheduler
        self.duration = duration
    }

    override func modifyRequest(_ request: inout URLRequest, endpoint: TodoApi) {
        scheduler.advance(by: duration)
    }
}

/// Writes each result a provider's requests end with as `"success"` or `"failure: <description>"`.
final class ResultRecordingPlugin: Plugin<TodoApi>, @unchecked Sendable {
    let events: EventLog<String>

    init(_ events: EventLog<String>) {
        self.events = events
    }

    override func didPerformRequest<ResultType: Decodable>(
        urlSessionResult: ApiProvider<TodoApi>.URLSessionResult,
        typedResult: ApiProvider<TodoApi>.TypedResult<ResultType>,
        endpoint: TodoApi
    ) {
        switch typedResult {
        case .success: events.append("success")
        case .failure(let error): events.append("failure: \(error)")
        }
    }
}
