import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Cancelling a request ends it with `cancelled`, through a task or through its handle.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct CancellationTests {
    @Test func cancellingTheAwaitingTaskCancelsTheRequest() async throws {
        try await TestServer.withServer { server in
            let plugin = RecordingPlugin("p")
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let task = Task {
                await provider.response(on: .slow(milliseconds: HangGuard.seconds * 1_000), decodeBodyTo: Data.self)
            }
            await server.waitForRequests()
            task.cancel()
            #expect(await task.value == .failure(.cancelled))
            #expect(plugin.results.events == ["\(ApiError<TestError>.cancelled)"])
        }
    }

    @Test func aTaskCancelledBeforeSendingNeverSends() async throws {
        try await TestServer.withServer { server in
            let plugin = RecordingPlugin("p")
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await provider.response(on: .echo(), decodeBodyTo: Data.self)
            }
            #expect(await task.value == .failure(.cancelled))
            #expect(plugin.log.events == ["p.modify", "p.will", "p.did"])
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test func theCompletionHandleCancelsTheRequest() async throws {
        try await TestServer.withServer { server in
            let plugin = RecordingPlugin("p")
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let (results, delivered) = AsyncStream.makeStream(of: ApiProvider<TestApi>.TypedResult<Data>.self)
            let handle = provider.performRequest(
                on: .slow(milliseconds: HangGuard.seconds * 1_000),
                decodeBodyTo: Data.self
            ) {
                delivered.yield($0)
            }
            await server.waitForRequests()
            handle.cancel()
            handle.cancel()
            #expect(handle.isCancelled)
            var iterator = results.makeAsyncIterator()
            #expect(await iterator.next() == .failure(.cancelled))
            #expect(plugin.log.events == ["p.modify", "p.will", "p.did"])
        }
    }

    @Test func cancellingAfterTheAnswerChangesNothing() async throws {
        try await TestServer.withServer { server in
            let plugin = RecordingPlugin("p")
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let (results, delivered) = AsyncStream.makeStream(of: ApiProvider<TestApi>.TypedResult<Data>.self)
            let handle = provider.performRawDataRequest(on: .plain(200)) { delivered.yield($0) }
            var iterator = results.makeAsyncIterator()
            #expect(await iterator.next() == .success(Data("plain text, not JSON".utf8)))
            handle.cancel()
            #expect(!handle.isCancelled)
            #expect(plugin.results.events == ["success"])
        }
    }

    @Test func cancellingTheTaskClosesTheConnectionAsTheServerSees() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let task = Task { await provider.rawDataResponse(on: .hold(id: "task")) }
            await server.waitForRequests()
            task.cancel()
            #expect(await task.value == .failure(.cancelled))
            await server.waitForDisconnect(of: "task")
        }
    }

    @Test func cancellingTheHandleClosesTheConnectionAsTheServerSees() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [RecordingPlugin("p")])
            let (results, delivered) = AsyncStream.makeStream(of: ApiProvider<TestApi>.TypedResult<Data>.self)
            let handle = provider.performRawDataRequest(on: .hold(id: "handle")) { delivered.yield($0) }
            await server.waitForRequests()
            handle.cancel()
            var iterator = results.makeAsyncIterator()
            #expect(await iterator.next() == .failure(.cancelled))
            await server.waitForDisconnect(of: "handle")
        }
    }
}
