// A to-do API declared as an enum and called through each of Courier's doors, against a loopback server that
// this example starts itself. Run it with `swift run TodoExample`.
import Courier
import CourierTestServer
import Foundation

struct Todo: Codable, Sendable {
    var id: Int?
    var title: String
    var done: Bool?
}

struct TodoError: Decodable, Sendable {
    let code: Int
    let message: String
}

enum TodoApi {
    case list(page: Int)
    case show(id: Int)
    case create(Todo)
    case delete(id: Int)
}

extension TodoApi: Endpoint {
    typealias ClientErrorType = TodoError

    var baseUrl: URL { URL(string: "https://api.example.com/v1")! }

    var subpath: String {
        switch self {
        case .list, .create: "todos"
        case .show(let id), .delete(let id): "todos/\(id)"
        }
    }

    var method: HttpMethod {
        switch self {
        case .list, .show: .get
        case .create(let todo): .post(body: .json(todo))
        case .delete: .delete
        }
    }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .list(let page): ["page": .int(page)]
        default: [:]
        }
    }
}

let server = try await TestServer.start()
// The endpoints name the production URL; the provider points them at the local server instead.
let provider = ApiProvider<TodoApi>(
    baseUrl: server.baseUrl,
    plugins: [RequestLoggerPlugin { print("→ \($0.httpMethod ?? "?") \($0.url?.absoluteString ?? "?")") }]
)

// async
switch await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self) {
case .success(let todos): print("  listed \(todos.map(\.title))")
case .failure(let error): print("  failed: \(error.localizedDescription)")
}

let created = await provider.response(on: .create(Todo(title: "Buy milk")), decodeBodyTo: Todo.self)
print("  created \((try? created.get()).map { "#\($0.id ?? 0) \($0.title)" } ?? "nothing")")

// no body expected
let deleted = await provider.response(on: .delete(id: 3))
print("  deleted: \(deleted)")

// a 4xx answer, with the server's error body decoded
if case .failure(let error) = await provider.response(on: .show(id: 999), decodeBodyTo: Todo.self) {
    print("  \(error.localizedDescription)")
    if case .clientError(let statusCode, let clientError?) = error {
        print("  status \(statusCode), server says: \(clientError.message)")
    }
}

// completion handler
await withCheckedContinuation { continuation in
    provider.performRequest(on: .show(id: 1), decodeBodyTo: Todo.self) { result in
        print("  completion door: \((try? result.get())?.title ?? "failed")")
        continuation.resume()
    }
}

// blocking wait, on a thread of its own
let waited = await withCheckedContinuation { continuation in
    Thread.detachNewThread {
        continuation.resume(returning: provider.performRequestAndWait(on: .list(page: 2), decodeBodyTo: [Todo].self))
    }
}
print("  wait door: \((try? waited.get())?.count ?? 0) to-dos on page 2")

await server.stop()
