#if Combine
import Courier
import CourierTestServer
import Testing

@testable import TodoExample

/// The Combine article's model of the README's to-do API, against the loopback server's to-do routes: the publisher
/// door and CombineRequest's operators, each delivering on the main queue.
@Suite struct TodoListModelTests {
    @Test func theModelLoadsOpensAndReportsARefusal() async throws {
        try await TestServer.withServer { server in
            let model = TodoListModel(provider: ApiProvider<TodoApi>(baseUrl: server.baseUrl))
            await withCheckedContinuation { continuation in model.load(page: 1) { continuation.resume() } }
            #expect(model.titles == ["To-do 1", "To-do 2", "To-do 3"])
            await withCheckedContinuation { continuation in model.open(id: 2) { continuation.resume() } }
            #expect(model.openedTodo == Todo(id: 2, title: "To-do 2", done: false))
            #expect(model.errorMessage == nil)
            await withCheckedContinuation { continuation in model.open(id: 999) { continuation.resume() } }
            #expect(
                model.errorMessage
                    == "The server answered 404 Not Found, where a status in 200..<300 was expected."
            )
        }
    }
}
#endif
