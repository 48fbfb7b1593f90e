import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `async` hooks: `prepare` before each sending, `process` after it, in plugin order, with retries and
/// failures, on every door.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct PluginHookTests {
    /// Records every hook as `"<name>.<hook>"` and answers `process` from a script.
    final class ScriptedPlugin: Plugin<TestApi>, @unchecked Sendable {
        let name: String
        let log: EventLog<String>
        let decide: @Sendable (Attempt) -> AttemptDecision
        let prepareWith: @Sendable (inout URLRequest) async throws -> Void

        init(
            _ name: String,
            log: EventLog<String>,
            prepareWith: @escaping @Sendable (inout URLRequest) async throws -> Void = { _ in },
            decide: @escaping @Sendable (Attempt) -> AttemptDecision = { _ in .proceed }
        ) {
            self.name = name
            self.log = log
            self.prepareWith = prepareWith
            self.decide = decide
        }

        override func modifyRequest(_ request: inout URLRequest, endpoint: TestApi) { log.append("\(name).modify") }
        override func willPerformRequest(_ request: URLRequest, endpoint: TestApi) { log.append("\(name).will") }

        override func prepare(_ request: inout URLRequest, endpoint: TestApi) async throws {
            log.append("\(name).prepare")
            try await prepareWith(&request)
        }

        override func process(_ attempt: Attempt, endpoint: TestApi) async -> AttemptDecision {
            log.append("\(name).process \(attempt.number)")
            return decide(attempt)
        }

        override func didPerformRequest<ResultType: Decodable>(
            urlSessionResult: ApiProvider<TestApi>.URLSessionResult,
            typedResult: ApiProvider<TestApi>.TypedResult<ResultType>,
            endpoint: TestApi
        ) {
            log.append("\(name).did")
        }
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused by the script" }
    }

    /// Suspends until the running task is cancelled, then throws `CancellationError`: a hook that hangs for as long
    /// as its request lasts, with no timer to run out.
    static func suspendUntilCancelled() async throws {
        let (never, end) = AsyncStream.makeStream(of: Never.self)
        await withTaskCancellationHandler {
            for await _ in never {}
        } onCancel: {
            end.finish()
        }
        try Task.checkCancellation()
    }

    @Test(arguments: Door.allCases)
    func eachSendingIsPreparedAndProcessedInPluginOrder(door: Door) async throws {
        try await TestServer.withServer { server in
            let log = EventLog<String>()
            let first = ScriptedPlugin("a", log: log)
            let second = ScriptedPlugin("b", log: log, decide: { attempt in attempt.number == 1 ? .retry() : .proceed })
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [first, second])
            let result = await provider.result(through: door, on: .echo(), decodeBodyTo: ReceivedRequest.self)
            #expect(throws: Never.self) { try result.get() }
            #expect(
                log.events == [
                    "a.modify", "b.modify", "a.will", "b.will",
                    "a.prepare", "b.prepare", "b.process 1",
                    "a.prepare", "b.prepare", "b.process 2", "a.process 2",
                    "a.did", "b.did",
                ]
            )
            #expect(await server.receivedRequests().count == 2)
        }
    }

    @Test(arguments: Door.allCases)
    func theLastPluginJudgesFirstAndTheFirstThatDoesNotProceedDecides(door: Door) async throws {
        try await TestServer.withServer { server in
            let log = EventLog<String>()
            let outer = ScriptedPlugin("a", log: log, decide: { _ in .retry() })
            let nearestTheNetwork = ScriptedPlugin("b", log: log, decide: { _ in .fail(Refused()) })
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [outer, nearestTheNetwork])
            let result = await provider.result(through: door, on: .status(200), decodeBodyTo: Data.self)
            #expect(result == .failure(.pluginFailed(plugin: "ScriptedPlugin", error: Refused())))
            #expect(log.events.filter { $0.contains("process") } == ["b.process 1"])
            #expect(
                result.failureDescription == "The plugin ScriptedPlugin stopped the request: refused by the script"
            )
        }
    }

    @Test(arguments: Door.allCases)
    func aThrowingPrepareFailsTheRequestBeforeItIsSent(door: Door) async throws {
        try await TestServer.withServer { server in
            let log = EventLog<String>()
            let plugin = ScriptedPlugin("a", log: log, prepareWith: { _ in throw Refused() })
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let result = await provider.result(through: door, on: .echo(), decodeBodyTo: Data.self)
            #expect(result == .failure(.pluginFailed(plugin: "ScriptedPlugin", error: Refused())))
            #expect(log.events == ["a.modify", "a.will", "a.prepare", "a.did"])
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test func aHeaderMadeInvalidInPrepareIsRefusedNotSent() async throws {
        try await TestServer.withServer { server in
            let plugin = ScriptedPlugin("a", log: EventLog()) { request in
                request.allHTTPHeaderFields = ["X-Token": "a\r\nX-Admin: true"]
            }
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let result = await provider.response(on: .echo(), decodeBodyTo: Data.self)
            guard case .failure(.pluginFailed(let name, let error)) = result else {
                Issue.record("expected pluginFailed, got \(result)")
                return
            }
            #expect(name == "ScriptedPlugin")
            #expect("\(error)".contains("X-Token"))
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test func theAttemptShowsTheRequestAsSentAndWhatCameBack() async throws {
        try await TestServer.withServer { server in
            let attempts = EventLog<Attempt>()
            let plugin = ScriptedPlugin(
                "a",
                log: EventLog(),
                prepareWith: { request in request.setValue("prepared", forHTTPHeaderField: "X-Prepared") },
                decide: { attempt in
                    attempts.append(attempt)
                    return attempt.number < 3
                        ? .retry(after: .milliseconds(20), on: DispatchQueueScheduler()) : .proceed
                }
            )
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            _ = await provider.response(on: .status(404), decodeBodyTo: Data.self)
            let seen = attempts.events
            #expect(seen.map(\.number) == [1, 2, 3])
            #expect(seen.allSatisfy { $0.request.value(forHTTPHeaderField: "X-Prepared") == "prepared" })
            #expect(seen.allSatisfy { $0.response?.statusCode == 404 && $0.error == nil })
            #expect(seen.map { $0.retryCount(requestedBy: plugin) } == [0, 1, 2])
            #expect(seen[2].elapsed >= .milliseconds(40))
            #expect(seen[2].elapsed >= seen[2].duration)
            let sent = await server.receivedRequests()
            #expect(sent.count == 3 && sent.allSatisfy { $0.header("X-Prepared") == "prepared" })
        }
    }

    @Test func cancellingWhilePrepareAwaitsEndsTheRequestAtOnce() async throws {
        try await TestServer.withServer { server in
            let log = EventLog<String>()
            let (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self)
            let plugin = ScriptedPlugin("a", log: log) { _ in
                enteredContinuation.yield()
                try await Self.suspendUntilCancelled()
            }
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let task = Task { await provider.response(on: .echo(), decodeBodyTo: Data.self) }
            for await _ in entered { break }
            task.cancel()
            #expect(await task.value == .failure(.cancelled))
            #expect(log.events == ["a.modify", "a.will", "a.prepare", "a.did"])
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test func aMockedRetryIsDeliveredInsideTheAdvanceThatReachesIt() {
        let scheduler = TestScheduler()
        let retry = RetryPlugin<TestApi>(
            policy: RetryPolicy(initialDelay: .seconds(1), jitter: 0),
            scheduler: scheduler
        )
        let behavior = MockingBehavior<TestApi> { _, _, callNumber in
            callNumber == 1 ? MockedResponse(status: .serviceUnavailable) : MockedResponse(status: .ok, bodyJson: "{}")
        }
        let provider = ApiProvider<TestApi>(plugins: [retry], mockingBehavior: behavior)
        let delivered = Locked<[ApiProvider<TestApi>.TypedResult<Data>]>([])
        provider.performRawDataRequest(on: .status(200)) { result in delivered.withLock { $0.append(result) } }
        #expect(delivered.withLock { $0 }.isEmpty)
        #expect(scheduler.pendingDueTimes == [.seconds(1)])
        scheduler.advance(by: .milliseconds(999))
        #expect(delivered.withLock { $0 }.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(delivered.withLock { $0 } == [.success(Data("{}".utf8))])
    }
}
