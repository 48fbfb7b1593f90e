import Courier
import CourierTestServer
import Foundation
import Testing

@testable import TodoExample

/// The calls of the README and of the Getting started article.
@Suite struct GettingStartedSnippets {
    /// The README's call names the production server, so it is compiled here but not run; `TodoExampleTests` runs
    /// the same call against a loopback server.
    static func theReadmeCall() async {
        // snippet: README call
        let provider = ApiProvider<TodoApi>()

        switch await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self) {
        case .success(let todos):
            print(todos.map(\.title))
        case .failure(.clientError(let statusCode, let todoError)):
            print("rejected with \(statusCode): \(todoError?.message ?? "no readable reason")")
        case .failure(let error):
            print(error.localizedDescription)  // one sentence naming the status, URL or type
        }
        // end snippet
    }

    @Test func aProviderBaseUrlSendsEveryEndpointToThatServer() async throws {
        try await TestServer.withServer { server in
            // snippet: staging
            let staging = ApiProvider<TodoApi>(baseUrl: server.baseUrl)
            let created = await staging.response(on: .create(Todo(title: "Buy milk")), decodeBodyTo: Todo.self)
            print(try created.get().id ?? 0)  // the server's id for the new to-do
            // end snippet
            #expect(try created.get() == Todo(id: 42, title: "Buy milk"))
            #expect(await server.receivedRequests().map(\.path) == ["/todos"])
        }
    }
}
