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
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct DeclaredHooksTests {
    /// Overrides every hook, records each call, and says it has `declared`.
    final class DeclaringPlugin: Plugin<TestApi>, @unchecked Sendable {
        let declared: PluginHooks
        let log = EventLog<String>()

        init(_ declared: PluginHooks) { self.declared = declared }

        override var implementedHooks: PluginHooks { declared }

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
        #expect(Plugin<TestApi>().implementedHooks == [])
        #expect(RecordingPlugin("p").implementedHooks == .all)
        #expect(MetricsPlugin<TestApi>().implementedHooks == [])
    }

    /// Blocks the thread its hook runs on until the other request has its outcome: over one libcurl engine, that
    /// outcome could never come if the hook ran on the engine's thread.
    final class BlockingPlugin: Plugin<TestApi>, @unchecked Sendable {
        let declared: PluginHooks
        let otherArrived = DispatchSemaphore(value: 0)
        let waited = EventLog<Bool>()
        let (blocking, startsBlocking) = AsyncStream.makeStream(of: Void.self)

        init(_ declared: PluginHooks) { self.declared = declared }

        override var implementedHooks: PluginHooks { declared }

        func blockIfFirst(_ endpoint: TestApi) {
            // A hang guard only: the other request normally arrives in milliseconds.
            guard case .status = endpoint else { return }
            startsBlocking.yield()
            waited.append(otherArrived.wait(timeout: .now() + .seconds(HangGuard.seconds)) == .success)
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

    /// A request whose plugin hook blocks, and the door it goes through. It asks for a 404: an error's body is kept
    /// in memory, not written to a file, so that its outcome comes from the transport's thread.
    enum BlockedRequest: String, CaseIterable, CustomTestStringConvertible {
        /// `process` runs where answers are handed over, whatever the door.
        case processOnTheAsyncDoor
        /// These doors run `didPerformRequest` where the pipeline hands them the outcome.
        case didPerformRequestOfAResponseTask
        case didPerformRequestOfADownloadTask
        case didPerformRequestOfAnAsyncDownload

        var testDescription: String { rawValue }

        var hook: PluginHooks { self == .processOnTheAsyncDoor ? .process : .didPerformRequest }

        func send(through provider: ApiProvider<TestApi>, file: URL) async {
            switch self {
            case .processOnTheAsyncDoor:
                _ = await provider.response(on: .status(404))
            case .didPerformRequestOfAResponseTask:
                _ = await provider.responseTask(on: .status(404), decodeBodyTo: Data.self).result
            case .didPerformRequestOfADownloadTask:
                _ = await provider.downloadTask(on: .status(404), to: file).result
            case .didPerformRequestOfAnAsyncDownload:
                _ = await provider.download(on: .status(404), to: file)
            }
        }
    }

    @Test(arguments: BlockedRequest.allCases)
    func aHookThatBlocksDoesNotHoldUpTheTransportsOtherRequests(blocked: BlockedRequest) async throws {
        try await TestServer.withServer { server in
            let plugin = BlockingPlugin(blocked.hook)
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [plugin],
                transport: CurlTransport(engines: 1)
            )
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID())")
            defer { try? FileManager.default.removeItem(at: file) }
            async let first: Void = blocked.send(through: provider, file: file)
            for await _ in plugin.blocking { break }
            let second = await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
            #expect(throws: Never.self) { try second.get() }
            plugin.otherArrived.signal()
            await first
            #expect(plugin.waited.events == [true])
        }
    }
}
