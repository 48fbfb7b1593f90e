import Courier

/// What the app's screens call: the API behind plain methods, and the kind of type tests swap a mocked provider into.
struct TodoService: Sendable {
    let provider: ApiProvider<TodoApi>

    /// The to-dos on `page`, or none when they could not be loaded (``loadTodosResult(page:)`` says why).
    func loadTodos(page: Int = 1) async -> [Todo] {
        (try? await loadTodosResult(page: page).get()) ?? []
    }

    func loadTodosResult(page: Int = 1) async -> ApiProvider<TodoApi>.TypedResult<[Todo]> {
        await provider.response(on: .list(page: page), decodeBodyTo: [Todo].self)
    }

    func add(_ title: String) async -> ApiProvider<TodoApi>.TypedResult<Todo> {
        await provider.response(on: .create(Todo(title: title)), decodeBodyTo: Todo.self)
    }

    func delete(id: Int) async -> Bool {
        (try? await provider.response(on: .delete(id: id)).get()) != nil
    }
}
