import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A to-do as the test server's `/todos` routes and the mocks below speak it.
struct Todo: Codable, Equatable, Sendable {
    var id: Int?
    var title: String
    var done: Bool?
}

/// The to-do API of the README, with the mocked responses a user writes for tests.
enum TodoApi: Endpoint, Equatable {
    typealias ClientErrorType = TestError

    case list
    case create(Todo)
    case delete(id: Int)

    var baseUrl: URL { URL(string: "https://api.example.com/v1")! }

    var subpath: String {
        switch self {
        case .list, .create: "todos"
        case .delete(let id): "todos/\(id)"
        }
    }

    var method: HttpMethod {
        switch self {
        case .list: .get
        case .create(let todo): .post(body: try? encoder.encode(todo))
        case .delete: .delete
        }
    }
}

// README snippet: start
extension TodoApi {
    var mockedResponse: MockedResponse? {
        switch self {
        case .list: mock(status: .ok, bodyJson: #"[{"id":1,"title":"Buy milk"}]"#)
        case .create(let todo): try? mock(status: .created, bodyEncodable: todo)
        case .delete: mock(status: .noContent)
        }
    }
}
// README snippet: end

/// The kind of type users test with a mocked provider: it hides the API behind plain methods.
struct TodoService: Sendable {
    let provider: ApiProvider<TodoApi>

    /// The to-dos, or none when they could not be loaded (the error is what `loadTodosResult` returns).
    func loadTodos() async -> [Todo] {
        (try? await loadTodosResult().get()) ?? []
    }

    func loadTodosResult() async -> ApiProvider<TodoApi>.TypedResult<[Todo]> {
        await provider.response(on: .list, decodeBodyTo: [Todo].self)
    }

    func add(_ title: String) async -> ApiProvider<TodoApi>.TypedResult<Todo> {
        await provider.response(on: .create(Todo(title: title)), decodeBodyTo: Todo.self)
    }

    func delete(id: Int) async -> Bool {
        (try? await provider.response(on: .delete(id: id)).get()) != nil
    }
}
