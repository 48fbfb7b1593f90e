import Courier
import Foundation
import Testing

@testable import TodoExample

/// A service tested the Swift Testing way, with a mocked provider swapped in.
@Suite struct TodoServiceMockingTests {
    let scheduler = TestScheduler()

    func service(delay: Duration? = .milliseconds(300)) -> TodoService {
        TodoService(provider: ApiProvider(mockingBehavior: MockingBehavior(delay: delay, scheduler: scheduler)))
    }

    // snippet: Swift Testing service test
    @Test func loadsTodos() async throws {
        let scheduler = TestScheduler()
        let service = TodoService(
            provider: ApiProvider(mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler))
        )
        async let todos = service.loadTodos()
        await scheduler.advance(by: .milliseconds(300))
        #expect(await todos == [Todo(id: 1, title: "Buy milk")])
        try scheduler.checkNoPendingWork()
    }
    // end snippet

    @Test func addingEchoesTheCreatedTodo() async throws {
        async let added = service().add("Call mum")
        await scheduler.waitForPendingWork()  // the exact handshake: the request has entered the provider
        await scheduler.advance(by: .milliseconds(300))
        #expect(try await added.get() == Todo(title: "Call mum"))
    }

    @Test func withoutDelayNoSchedulerIsNeeded() async {
        #expect(await TodoService(provider: ApiProvider(mockingBehavior: MockingBehavior())).loadTodos().count == 1)
    }

    @Test func anOfflineDeviceGetsNoTodosAndTheErrorSaysWhy() async {
        let service = TodoService(
            provider: ApiProvider(
                mockingBehavior: MockingBehavior { _ in .transportFailure(URLError(.notConnectedToInternet)) }
            )
        )
        #expect(await service.loadTodos().isEmpty)
        guard case .failure(.noResponseReceived(let error as URLError)) = await service.loadTodosResult() else {
            Issue.record("expected noResponseReceived")
            return
        }
        #expect(error.code == .notConnectedToInternet)
    }

    @Test func aServerErrorScriptedForTheFirstCallIsRecoveredFromOnTheSecond() async {
        let service = TodoService(
            provider: ApiProvider(
                mockingBehavior: MockingBehavior { endpoint, _, callNumber in
                    callNumber == 1 ? endpoint.mock(status: .serviceUnavailable) : endpoint.mockedResponse
                }
            )
        )
        #expect(await service.loadTodosResult() == .failure(.serverError(statusCode: 503)))
        #expect(await service.loadTodos().count == 1)
    }

    @Test func answersCanBeScriptedByCallNumber() async {
        // snippet: scripting
        let behavior = MockingBehavior<TodoApi> { endpoint, request, callNumber in
            callNumber == 1 ? endpoint.mock(status: .unauthorized) : endpoint.mockedResponse
        }
        // end snippet
        let provider = ApiProvider(mockingBehavior: behavior)
        #expect(
            await provider.response(on: .delete(id: 1)) == .failure(.clientError(statusCode: 401, clientError: nil))
        )
        #expect(await provider.response(on: .delete(id: 1)) == .success(EmptyBodyResponse()))
    }

    @Test func theWaitDoorIsAnsweredWhenAnotherTaskAdvances() async throws {
        let provider = ApiProvider<TodoApi>(
            mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler)
        )
        // snippet: wait door
        async let result = withCheckedContinuation { continuation in
            Thread.detachNewThread {  // a thread of its own: never block one of Swift concurrency's few threads
                continuation.resume(
                    returning: provider.performRequestAndWait(on: .list(page: 1), decodeBodyTo: [Todo].self)
                )
            }
        }
        await scheduler.waitForPendingWork(count: 1)  // the blocked thread has sent its request
        await scheduler.advance(by: .milliseconds(300))  // … and now it gets its answer
        let loaded = await result
        // end snippet
        #expect(loaded == .success([Todo(id: 1, title: "Buy milk")]))
    }

    @Test func leftoverWorkIsReportedWhenTheTestForgetsToAdvance() async throws {
        let service = service(delay: .seconds(5))
        let pending = Task { await service.loadTodos() }
        await scheduler.waitForPendingWork()
        #expect(throws: PendingWorkError.self) { try scheduler.checkNoPendingWork() }
        pending.cancel()
        #expect(await pending.value.isEmpty)
        try scheduler.checkNoPendingWork()
    }
}
