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
}
