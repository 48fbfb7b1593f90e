// The README's to-do API (TodoApi.swift, Todo.swift) called through each of Courier's doors against a loopback server
// that this example starts itself. Run it with `swift run TodoExample`. (The fourth door, Combine's publishers, comes
// with the optional CourierCombine product: the Combine article shows it.)
import Courier
import Foundation
import TodoServer

let server = try await TodoServer.start()
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
    print("  for users: \(error.localizedDescription)")
    print("  for developers: \(error)")
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
