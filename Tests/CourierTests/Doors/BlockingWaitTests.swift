import Courier
import CourierTestServer
import Foundation
import Testing

/// The blocking door does not deadlock where apps and services call it.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct BlockingWaitTests {
    @Test func waitingInsideACompletionHandler() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let inner = await withCheckedContinuation { continuation in
                provider.performRequest(on: .echo(path: "outer")) { _ in
                    let inner = provider.performRequestAndWait(
                        on: .echo(path: "inner"),
                        decodeBodyTo: ReceivedRequest.self
                    )
                    continuation.resume(returning: inner)
                }
            }
            let path = try inner.get().path
            #expect(path == "/echo/inner")
        }
    }

    @Test func waitingInsideASwiftConcurrencyTask() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let result = await Task {
                provider.performRequestAndWait(on: .echo(path: "in-task"), decodeBodyTo: ReceivedRequest.self)
            }.value
            let path = try result.get().path
            #expect(path == "/echo/in-task")
        }
    }
}
