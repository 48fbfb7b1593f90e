import FlyingFox
import Foundation

/// The examples' to-do API on a free port of 127.0.0.1, as the README's `TodoApi` expects it: a page of three
/// to-dos, to-dos 1 to 100 to look up (any other id is a 404 with a JSON error), a created to-do numbered 42, and an
/// empty answer to a delete. It keeps no state, so the examples' output is the same on every run.
public struct TodoServer: Sendable {
    /// Where the server listens, `http://127.0.0.1:<port>`.
    public let baseUrl: URL
    private let server: HTTPServer
    private let running: Task<Void, any Error>

    /// Starts the server on a port the system picks, and returns once it listens.
    public static func start() async throws -> TodoServer {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), logger: .disabled)
        await server.appendRoute("GET /todos", handler: list)
        await server.appendRoute("POST /todos", handler: create)
        await server.appendRoute("GET /todos/:id", handler: show)
        await server.appendRoute("DELETE /todos/:id") { _ in HTTPResponse(statusCode: .noContent) }
        let running = Task { try await server.run() }
        // A hang guard only: listening on loopback takes milliseconds, also on a busy machine.
        try await server.waitUntilListening(timeout: 60)
        guard case .ip4(_, let port)? = await server.listeningAddress,
            let baseUrl = URL(string: "http://127.0.0.1:\(port)")
        else {
            running.cancel()
            throw URLError(.cannotConnectToHost)
        }
        return TodoServer(baseUrl: baseUrl, server: server, running: running)
    }

    /// Closes the listening socket and the connections.
    public func stop() async {
        await server.stop()
        running.cancel()
    }

    private struct Todo: Codable {
        var id: Int?
        var title: String
        var done: Bool?
    }

    @Sendable private static func list(_ request: HTTPRequest) throws -> HTTPResponse {
        let first = ((Int(request.query["page"] ?? "") ?? 1) - 1) * 3 + 1
        return try json((first..<first + 3).map { Todo(id: $0, title: "To-do \($0)", done: false) }, status: .ok)
    }

    @Sendable private static func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard var todo = try? JSONDecoder().decode(Todo.self, from: await request.bodyData) else {
            return try json(Problem(code: 422, message: "the body is not a to-do"), status: .unprocessableContent)
        }
        todo.id = 42
        return try json(todo, status: .created)
    }

    @Sendable private static func show(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = request.routeParameters["id", of: Int.self] ?? 0
        guard (1...100).contains(id) else {
            return try json(Problem(code: 404, message: "no to-do with id \(id)"), status: .notFound)
        }
        return try json(Todo(id: id, title: "To-do \(id)", done: false), status: .ok)
    }

    private struct Problem: Encodable {
        var code: Int
        var message: String
    }

    private static func json(_ value: some Encodable, status: HTTPStatusCode) throws -> HTTPResponse {
        HTTPResponse(
            statusCode: status,
            headers: [.contentType: "application/json"],
            body: try JSONEncoder().encode(value)
        )
    }
}
