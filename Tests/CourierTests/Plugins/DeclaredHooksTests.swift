import CourierTestServer
import Dispatch
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plugin that says which hooks it has gets only those called (besides `modifyRequest` and `willPerformRequest`,
/// which always run), and the hooks it has never run on the transport's own thread.
@Suite(.timeLimit(.minutes(1))) struct DeclaredHooksTests {
    /// Overrides every hook, records each call, and says it has `declared`.
    final class DeclaringPlugin: Plugin<TestApi>, @unchecked Sendable {
        let declared: PluginHooks
        let log = EventLog<String>()

        init(_ declared: PluginHooks) { self.declared = declared }

        override var hooks: PluginHooks { declared }

        override func modifyRequest(_ request: inout URLRequest, endpoint: TestApi) {
            log.append("modify")
            request.setValue("yes", forHTTPHeaderField: "X-Modified")
        }
        override func willPerformRequest(_ request: URLRequest, endpoint: TestApi) { log.append("will") }
        override func prepare(_ request: inout URLRequest, endpoint: TestApi) async throws { log.append("prepare") }
        override func process(_ attempt: Attempt, endpoint: TestApi) async -> AttemptDecision {
            log.append("process")
            return .proceed
        }
        override func didPerformRequest<ResultType: Decodable>(
            urlSessionResult: ApiProvider<TestApi>.URLSessionResult,
            typedResult: ApiProvider<TestApi>.TypedResult<ResultType>,
            endpoint: TestApi
        ) {
            log.append("did")
        }
    }

    static let declarations: [PluginHooks] = [[], [.prepare], [.process], [.didPerformRequest], .all]

    @Test(arguments: Door.allCases, declarations)
    func onlyTheDeclaredHooksRun(door: Door, declared: PluginHooks) async throws {
        try await TestServer.withServer { server in
            let plugin = DeclaringPlugin(declared)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let received = try await provider.result(through: door, on: .echo(), decodeBodyTo: ReceivedRequest.self)
                .get()
            var expected = ["modify", "will"]
            if declared.contains(.prepare) { expected.append("prepare") }
            if declared.contains(.process) { expected.append("process") }
            if declared.contains(.didPerformRequest) { expected.append("did") }
            #expect(plugin.log.events == expected)
            #expect(received.header("X-Modified") == "yes")
        }
    }

    @Test func pluginItselfHasNoHooksAndASubclassHasEvery() {
        #expect(Plugin<TestApi>().hooks == [])
        #expect(RecordingPlugin("p").hooks == .all)
        #expect(MetricsPlugin<TestApi>().hooks == [])
    }

    /// Blocks the thread its hook runs on until the other request has its outcome: over one libcurl engine, that
    /// outcome could never come if the hook ran on the engine's thread.
    final class BlockingPlugin: Plugin<TestApi>, @unchecked Sendable {
        let declared: PluginHooks
        let otherArrived = DispatchSemaphore(value: 0)
        let waited = EventLog<Bool>()
        let (blocking, startsBlocking) = AsyncStream.makeStream(of: Void.self)

        init(_ declared: PluginHooks) { self.declared = declared }

        override var hooks: PluginHooks { declared }

        func blockIfFirst(_ endpoint: TestApi) {
            // A hang guard only: the other request normally arrives in milliseconds.
            guard case .status = endpoint else { return }
            startsBlocking.yield()
            waited.append(otherArrived.wait(timeout: .now() + 60) == .success)
        }

        override func process(_ attempt: Attempt, endpoint: TestApi) async -> AttemptDecision {
            blockIfFirst(endpoint)
            return .proceed
        }
        override func didPerformRequest<ResultType: Decodable>(
            urlSessionResult: ApiProvider<TestApi>.URLSessionResult,
            typedResult: ApiProvider<TestApi>.TypedResult<ResultType>,
            endpoint: TestApi
        ) {
            blockIfFirst(endpoint)
        }
    }

    @Test(arguments: [PluginHooks.process, .didPerformRequest])
    func aHookThatBlocksDoesNotHoldUpTheTransportsOtherRequests(declared: PluginHooks) async throws {
        try await TestServer.withServer { server in
            let plugin = BlockingPlugin(declared)
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [plugin],
                transport: CurlTransport(engines: 1)
            )
            // The progress door hands its outcome over where the transport delivers it, then runs
            // `didPerformRequest`; the `async` door runs that hook in the caller's task.
            let first = provider.responseTask(on: .status(204), decodeBodyTo: Data.self)
            for await _ in plugin.blocking { break }
            let second = await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
            #expect(throws: Never.self) { try second.get() }
            plugin.otherArrived.signal()
            _ = await first.result
            #expect(plugin.waited.events == [true])
        }
    }
}
