import Courier
import XCTest

@testable import TodoExample

// snippet: XCTest service test
final class TodoServiceTests: XCTestCase {
    func testLoadsTodos() async {
        let scheduler = TestScheduler()
        let provider = ApiProvider<TodoApi>(
            mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler)
        )
        let service = TodoService(provider: provider)
        async let todos = service.loadTodos()
        await scheduler.advance(by: .milliseconds(300))
        let loaded = await todos
        XCTAssertEqual(loaded.count, 1)  // no real waiting: the test takes milliseconds
    }
}
// end snippet

/// The same service tested the XCTest way, through more of its methods.
final class TodoServiceMoreTests: XCTestCase {
    func testEveryCallOfTheServiceIsAnsweredByItsMockAndNothingStaysPending() async throws {
        let scheduler = TestScheduler()
        let recorder = RequestRecorderPlugin<TodoApi>()
        let provider = ApiProvider<TodoApi>(
            plugins: [recorder],
            mockingBehavior: MockingBehavior(delay: .seconds(2), scheduler: scheduler)
        )
        let service = TodoService(provider: provider)

        async let added = service.add("Water plants")
        async let deleted = service.delete(id: 7)
        await scheduler.waitForPendingWork(count: 2)
        await scheduler.advance(by: .seconds(2))

        let addedTodo = try await added.get()
        let wasDeleted = await deleted
        XCTAssertEqual(addedTodo, Todo(title: "Water plants"))
        XCTAssertTrue(wasDeleted)
        XCTAssertEqual(Set(recorder.requests.map { $0.urlRequest.httpMethod ?? "" }), ["POST", "DELETE"])
        XCTAssertEqual(scheduler.now, .seconds(2))
        try scheduler.checkNoPendingWork()
    }

    func testAMissingMockFailsNamingTheEndpoint() async {
        let provider = ApiProvider<TodoApi>(mockingBehavior: MockingBehavior { _ in nil })
        let result = await TodoService(provider: provider).loadTodosResult()
        XCTAssertEqual(result, .failure(.emptyMockedResponse))
        XCTAssertEqual(
            "\(result)",
            #"failure(ApiError.emptyMockedResponse(endpoint: "TodoApi.list(page: 1)"))"#
        )
    }

    func testOfflineIsAnsweredAsNoResponse() async {
        let provider = ApiProvider<TodoApi>(
            mockingBehavior: MockingBehavior { _ in .transportFailure(URLError(.notConnectedToInternet)) }
        )
        let result = await TodoService(provider: provider).loadTodosResult()
        XCTAssertEqual(result, .failure(.noResponseReceived(error: URLError(.notConnectedToInternet))))
    }
}
