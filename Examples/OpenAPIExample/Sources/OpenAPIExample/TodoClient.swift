import Courier
import CourierOpenAPI
import Foundation
import OpenAPIRuntime

/// What the app shows of a to-do, whatever the server answered.
enum TodoLookup: Equatable, Sendable {
    case found(title: String)
    case missing(message: String)
    case unexpected(status: Int)
}

extension Client {
    /// The transports the example calls over: URLSession, and libcurl where it is Courier's default (Linux).
    static func exampleTransports() -> [(name: String, transport: any Transport)] {
        #if canImport(FoundationNetworking)
        [("libcurl", CurlTransport()), ("URLSession", URLSessionTransport())]
        #else
        [("URLSession", URLSessionTransport())]
        #endif
    }

    /// The generated client over Courier: `transport` carries every call through Courier's plugins.
    static func overCourier(serverURL: URL, transport: any Transport) -> Client {
        // snippet: OpenAPI transport
        let provider = ApiProvider<OpenAPIOperation>(
            plugins: [
                TokenRefreshPlugin(token: "signed-in") { _ in "refreshed" },
                RetryPlugin(retriesNonIdempotent: { $0.operationID == "createTodo" }),
                MetricsPlugin(),
                TracingPlugin(),
            ],
            transport: transport
        )
        let client = Client(serverURL: serverURL, transport: provider)
        // end snippet
        return client
    }

    /// Looks one to-do up; a 404 is one of the operation's answers, not an error.
    func lookUp(id: Int) async throws -> TodoLookup {
        // snippet: OpenAPI call
        switch try await getTodo(path: .init(id: id)) {
        case .ok(let found):
            return .found(title: try found.body.json.title)
        case .notFound(let missing):
            return .missing(message: try missing.body.json.message)
        case .undocumented(let status, _):
            return .unexpected(status: status)
        }
        // end snippet
    }

    /// Calls every operation once, and says what each answered, as the example prints it.
    func walkThrough() async throws -> [String] {
        let page = try await listTodos(query: .init(page: 1)).ok.body.json
        let created = try await createTodo(body: .json(.init(title: "Buy milk"))).created.body.json
        var lines = ["  listed \(page.map(\.title))", "  created #\(created.id ?? 0) \(created.title)"]
        lines.append("  looked up 7: \(try await lookUp(id: 7))")
        lines.append("  looked up 999: \(try await lookUp(id: 999))")
        _ = try await deleteTodo(path: .init(id: 3)).noContent
        lines.append("  deleted 3")
        return lines
    }
}
