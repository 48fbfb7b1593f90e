import Courier
import CourierTestServer
import Foundation
import Testing

@testable import TodoExample

/// The Calling an API article's snippets, each run against the loopback server.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct CallingAnApiSnippets {
    @Test func theAsyncDoor() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl)
            // snippet: async door
            let todos = await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
            let deleted = await provider.response(on: .delete(id: 3))  // success is EmptyBodyResponse()
            let raw = await provider.rawDataResponse(on: .list(page: 1))  // the body as Data, not decoded
            // end snippet
            let listed = try todos.get()
            #expect(listed.count == 3)
            #expect(deleted == .success(EmptyBodyResponse()))
            let rawListed = try JSONDecoder().decode([Todo].self, from: raw.get())
            #expect(rawListed == listed)
        }
    }

    @Test func theCompletionDoor() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl)
            let shown: Result<Todo, ApiError<TodoError>> = await withCheckedContinuation { continuation in
                /// Stands in for the app's screen.
                @Sendable func show(_ result: Result<Todo, ApiError<TodoError>>) {
                    continuation.resume(returning: result)
                }
                // snippet: completion door
                let request = provider.performRequest(on: .show(id: 1), decodeBodyTo: Todo.self) { result in
                    show(result)  // on a background queue
                }
                // end snippet
                #expect(!request.isCancelled)
            }
            #expect(shown == .success(Todo(id: 1, title: "To-do 1", done: false)))
        }
    }

    @Test func cancellingTheHandleEndsTheRequestAtOnce() async throws {
        try await TestServer.withServer { server in
            // `/hold/todos` answers slowly, and tells when its client hangs up.
            let provider = ApiProvider<TodoApi>(baseUrl: server.url("/hold"))
            let result = await withCheckedContinuation { continuation in
                let request = provider.performRequest(on: .list(page: 1), decodeBodyTo: [Todo].self) {
                    continuation.resume(returning: $0)
                }
                Task {
                    await server.waitForRequests(count: 1)
                    // snippet: cancel handle
                    request.cancel()  // the completion gets .failure(.cancelled) at once; the connection is closed
                    // end snippet
                }
            }
            #expect(result == .failure(.cancelled))
            await server.waitForDisconnect(of: "todos")
        }
    }

    @Test func theWaitDoor() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl)
            let waited = await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    // snippet: wait door live
                    let result = provider.performRequestAndWait(on: .list(page: 2), decodeBodyTo: [Todo].self)
                    // end snippet
                    continuation.resume(returning: result)
                }
            }
            let ids = try waited.get().map(\.id)
            #expect(ids == [4, 5, 6])
        }
    }

    @Test func theFullResponseCarriesTheBodyOfAnErrorAnswer() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl)
            // snippet: full response
            let full = await provider.fullResponse(on: .show(id: 999), decodeBodyTo: Todo.self)
            print(full.statusCode ?? 0, String(decoding: full.body ?? Data(), as: UTF8.self))  // 404 {"code":404,…}
            // end snippet
            #expect(full.statusCode == 404)
            #expect(
                full.result
                    == .failure(
                        .clientError(
                            statusCode: 404,
                            clientError: TodoError(code: 404, message: "no to-do with id 999")
                        )
                    )
            )
        }
    }

    @Test func anErrorPrintsItsCaseAndSaysASentence() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TodoApi>(baseUrl: server.baseUrl)
            // snippet: error printing
            if case .failure(let error) = await provider.response(on: .show(id: 999), decodeBodyTo: Todo.self) {
                print(error)  // ApiError.clientError(statusCode: 404, clientError: TodoError(code: 404, message: …))
                print(error.localizedDescription)  // The server answered 404 Not Found (client error): TodoError(…).
            }
            // end snippet
            let result = await provider.response(on: .show(id: 999), decodeBodyTo: Todo.self)
            guard case .failure(let error) = result else {
                Issue.record("expected a failure, got \(result)")
                return
            }
            #expect(
                "\(error)"
                    == #"ApiError.clientError(statusCode: 404, clientError: "#
                    + #"TodoError(code: 404, message: "no to-do with id 999"))"#
            )
            #expect(
                error.localizedDescription.hasPrefix("The server answered 404 Not Found (client error): TodoError(")
            )
        }
    }

    @Test func cancellingTheTaskEndsTheRequest() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TodoApi>(baseUrl: server.url("/hold"))
            // snippet: cancel task
            let loading = Task { await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self) }
            loading.cancel()  // the task gets .failure(.cancelled) at once
            // end snippet
            #expect(await loading.value == .failure(.cancelled))
        }
    }
}
