// snippet: README testing
import Courier
import Testing

@testable import TodoExample

@Test func listsTheFirstPage() async throws {
    let scheduler = TestScheduler()
    let provider = ApiProvider<TodoApi>(
        mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler) { endpoint in
            endpoint.mock(status: .ok, bodyJson: #"[{"id":1,"title":"Buy milk"}]"#)
        }
    )
    async let todos = provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
    await scheduler.advance(by: .milliseconds(300))
    #expect(try await todos.get() == [Todo(id: 1, title: "Buy milk")])
}
// end snippet

/// Mocks given from a test target, a module apart from the endpoint's conformance, as in an app's test suite.
@Suite struct MockingFromATestTargetTests {
    @Test func theClosureAnswersEachEndpointAsTheTestSaysWhateverTheEndpointDeclares() async throws {
        // snippet: mocks in the test target
        let behavior = MockingBehavior<TodoApi> { endpoint in
            switch endpoint {
            case .list: endpoint.mock(status: .ok, bodyJson: #"[{"id":7,"title":"Water plants"}]"#)
            case .show: endpoint.mock(status: .notFound, bodyJson: #"{"code":404,"message":"gone"}"#)
            case .create, .delete: nil  // not expected in this test: fails with emptyMockedResponse
            }
        }
        // end snippet
        let provider = ApiProvider(mockingBehavior: behavior)
        #expect(try await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get().map(\.id) == [7])
        #expect(
            await provider.response(on: .show(id: 7), decodeBodyTo: Todo.self)
                == .failure(.clientError(statusCode: 404, clientError: TodoError(code: 404, message: "gone")))
        )
        #expect(
            await provider.response(on: .delete(id: 7))
                == .failure(.emptyMockedResponse(endpoint: "TodoApi.delete(id: 7)"))
        )
    }

    @Test func aMissingMockSaysWhereToDeclareIt() async {
        let provider = ApiProvider<TodoApi>(mockingBehavior: MockingBehavior { _ in nil })
        let result = await provider.response(on: .list(page: 2), decodeBodyTo: [Todo].self)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error == .emptyMockedResponse(endpoint: "TodoApi.list(page: 2)"))
        #expect("\(error)" == #"ApiError.emptyMockedResponse(endpoint: "TodoApi.list(page: 2)")"#)
        let sentence = error.localizedDescription
        #expect(sentence.contains("TodoApi.list(page: 2)"))
        #expect(sentence.contains("return one from the closure given to MockingBehavior"))
        #expect(sentence.contains("one declared in another module, such as a test target, is not used"))
    }

    @Test func mocksDeclaredBesideTheConformanceAreSeenFromHereToo() async throws {
        let provider = ApiProvider<TodoApi>(mockingBehavior: MockingBehavior())
        #expect(
            try await provider.response(on: .show(id: 3), decodeBodyTo: Todo.self).get()
                == Todo(id: 3, title: "Buy milk")
        )
    }
}
