import Foundation
import Hummingbird

/// A tiny, stateless to-do API, the README's `TodoApi` as the tests call it beside the other routes (the examples
/// have a server of their own, `Examples/TodoServer`).
enum TodoRoutes {
    struct Todo: Codable {
        var id: Int?
        var title: String
        var done: Bool?
    }

    static func add(to router: Router<TestRequestContext>) {
        router.get("/todos") { request, _ in
            let page = Int(request.uri.queryParameters["page"] ?? "") ?? 1
            let todos = (1...3).map {
                Todo(id: (page - 1) * 3 + $0, title: "To-do \((page - 1) * 3 + $0)", done: false)
            }
            return try encoded(todos, status: .ok)
        }
        router.post("/todos") { request, context in
            guard var todo = try? await request.decode(as: Todo.self, context: context) else {
                return TestRoutes.json(
                    ["code": .number(422), "message": .string("the body is not a to-do")],
                    status: .unprocessableContent
                )
            }
            todo.id = 42
            return try encoded(todo, status: .created)
        }
        router.get("/todos/:id") { _, context in
            let id = context.parameters.get("id", as: Int.self) ?? 0
            guard (1...100).contains(id) else {
                return TestRoutes.json(
                    ["code": .number(404), "message": .string("no to-do with id \(id)")],
                    status: .notFound
                )
            }
            return try encoded(Todo(id: id, title: "To-do \(id)", done: false), status: .ok)
        }
        router.delete("/todos/:id") { _, _ in Response(status: .noContent) }
    }

    private static func encoded(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(value)))
        )
    }
}
