import CourierTestServer
import Foundation
import Testing

@testable import Courier

/// One refresh for any number of rejected requests, replayed once each, with clear failures and no loops.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct TokenRefreshPluginTests {
    struct RefreshDenied: Error, Equatable {}

    /// Counts the calls of a refresh closure that answers `token` (or throws) once `waitedForBy` requests wait for
    /// it, as ``waits`` sees them; put ``waits`` among the provider's plugins when that is more than none.
    final class Refresher: Sendable {
        private let calls = Locked(0)
        private let token: String?
        private let waitedForBy: Int
        let waits = TokenRefreshWaits<TestApi>()

        init(answering token: String?, waitedForBy: Int = 0) {
            self.token = token
            self.waitedForBy = waitedForBy
        }

        var callCount: Int { calls.withLock { $0 } }

        func refresh(_ rejected: String?) async throws -> String {
            calls.withLock { $0 += 1 }
            await waits.waitForWaits(count: waitedForBy)
            guard let token else { throw RefreshDenied() }
            return token
        }
    }

    /// A refresh that signals when it starts and answers `token` only once released, to act while it runs.
    final class HeldRefresh: Sendable {
        private let started: AsyncStream<Void>
        private let startedContinuation: AsyncStream<Void>.Continuation
        private let release: AsyncStream<Void>
        private let releaseContinuation: AsyncStream<Void>.Continuation
        private let token: String

        init(answering token: String) {
            (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
            (release, releaseContinuation) = AsyncStream.makeStream(of: Void.self)
            self.token = token
        }

        func refresh(_ rejected: String?) async throws -> String {
            startedContinuation.yield()
            for await _ in release { break }
            return token
        }

        /// Returns once the refresh has started.
        func waitUntilStarted() async {
            for await _ in started { break }
        }

        func letItFinish() {
            releaseContinuation.yield()
        }
    }

    static func concurrentResults(
        _ count: Int,
        provider: ApiProvider<TestApi>,
        endpoint: TestApi
    ) async -> [ApiProvider<TestApi>.TypedResult<Data>] {
        await withTaskGroup(of: ApiProvider<TestApi>.TypedResult<Data>.self) { group in
            for _ in 0..<count {
                group.addTask { await provider.rawDataResponse(on: endpoint) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// The refresh answers only once all hundred requests wait for it: each either was rejected, or started while
    /// the refresh ran, and none can be sent with the old token after it.
    @Test func aHundredRejectedRequestsShareOneRefreshAndAllSucceed() async throws {
        try await TestServer.withServer { server in
            let refresher = Refresher(answering: "fresh", waitedForBy: 100)
            let plugin = TokenRefreshPlugin<TestApi>(token: "stale", refresh: refresher.refresh)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin, refresher.waits])
            let results = await Self.concurrentResults(100, provider: provider, endpoint: .protected(accept: "fresh"))
            #expect(refresher.callCount == 1)
            #expect(refresher.waits.count == 100)
            #expect(results.allSatisfy { $0 == .success(Data(#"{"token":"fresh"}"#.utf8)) })
            #expect(plugin.token == "fresh")
            let received = await server.receivedRequests()
            let accepted = received.filter { $0.header("Authorization") == "Bearer fresh" }
            #expect(accepted.count == 100)
            #expect(received.count - accepted.count <= 100)
        }
    }

    /// The refresh fails only once all hundred requests wait for it, so none is sent after the failure (which
    /// would start a refresh of its own).
    @Test func aFailedRefreshFailsEveryWaitingRequestWithItsError() async throws {
        try await TestServer.withServer { server in
            let refresher = Refresher(answering: nil, waitedForBy: 100)
            let plugin = TokenRefreshPlugin<TestApi>(token: "stale", refresh: refresher.refresh)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin, refresher.waits])
            let results = await Self.concurrentResults(100, provider: provider, endpoint: .protected(accept: "fresh"))
            #expect(refresher.callCount == 1)
            #expect(
                results.allSatisfy {
                    $0 == .failure(.pluginFailed(plugin: "TokenRefreshPlugin", error: RefreshDenied()))
                }
            )
            #expect(plugin.token == "stale")
        }
    }

    @Test func aReplayThatIsRejectedAgainEndsWithTheServersAnswerWithoutALoop() async throws {
        try await TestServer.withServer { server in
            let refresher = Refresher(answering: "also-rejected")
            let plugin = TokenRefreshPlugin<TestApi>(token: "stale", refresh: refresher.refresh)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let result = await provider.rawDataResponse(on: .protected(accept: "fresh"))
            #expect(
                result
                    == .failure(
                        .clientError(statusCode: 401, clientError: TestError(code: 401, message: "token rejected"))
                    )
            )
            #expect(refresher.callCount == 1)
            #expect(
                await server.receivedRequests().map { $0.header("Authorization") } == [
                    "Bearer stale", "Bearer also-rejected",
                ]
            )
        }
    }

    @Test func aRequestStartedDuringARefreshWaitsForTheNewToken() async throws {
        try await TestServer.withServer { server in
            let held = HeldRefresh(answering: "fresh")
            let plugin = TokenRefreshPlugin<TestApi>(token: "stale", refresh: held.refresh)
            let waits = TokenRefreshWaits<TestApi>()
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin, waits])
            let first = Task { await provider.rawDataResponse(on: .protected(accept: "fresh")) }
            await held.waitUntilStarted()
            let second = Task { await provider.rawDataResponse(on: .protected(accept: "fresh")) }
            // Both wait for the refresh: the rejected first one in `process`, the second in `prepare`, unsent.
            await waits.waitForWaits(count: 2)
            #expect(await server.receivedRequests().count == 1)
            held.letItFinish()
            #expect(await first.value == .success(Data(#"{"token":"fresh"}"#.utf8)))
            #expect(await second.value == .success(Data(#"{"token":"fresh"}"#.utf8)))
            #expect(
                await server.receivedRequests().map { $0.header("Authorization") } == [
                    "Bearer stale", "Bearer fresh", "Bearer fresh",
                ]
            )
        }
    }

    @Test func cancellingARequestThatWaitsForTheRefreshEndsItAtOnceAndTheOthersGoOn() async throws {
        try await TestServer.withServer { server in
            let held = HeldRefresh(answering: "fresh")
            let plugin = TokenRefreshPlugin<TestApi>(token: "stale", refresh: held.refresh)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let cancelled = Task { await provider.rawDataResponse(on: .protected(accept: "fresh")) }
            await held.waitUntilStarted()
            let other = Task { await provider.rawDataResponse(on: .protected(accept: "fresh")) }
            cancelled.cancel()
            #expect(await cancelled.value == .failure(.cancelled))
            held.letItFinish()
            #expect(await other.value == .success(Data(#"{"token":"fresh"}"#.utf8)))
        }
    }

    @Test func endpointsItDoesNotApplyToAreLeftAlone() async throws {
        try await TestServer.withServer { server in
            let refresher = Refresher(answering: "fresh")
            let plugin = TokenRefreshPlugin<TestApi>(
                token: "stale",
                appliesTo: { endpoint in if case .protected = endpoint { true } else { false } },
                refresh: refresher.refresh
            )
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let received = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(received.header("Authorization") == nil)
            #expect(
                await provider.rawDataResponse(on: .status(401))
                    == .failure(.clientError(statusCode: 401, clientError: TestError(code: 401, message: "status 401")))
            )
            #expect(refresher.callCount == 0)
        }
    }

    @Test func aCredentialTheEndpointSentItselfIsNotRefreshed() async throws {
        try await TestServer.withServer { server in
            let refresher = Refresher(answering: "fresh")
            let plugin = TokenRefreshPlugin<FreeEndpoint>(token: "stale", refresh: refresher.refresh)
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl, plugins: [plugin])
            let endpoint = FreeEndpoint(
                subpath: "protected",
                headers: ["Authorization": "Bearer own"],
                ordered: [("accept", "fresh")]
            )
            let result = await provider.rawDataResponse(on: endpoint)
            #expect(
                result
                    == .failure(
                        .clientError(statusCode: 401, clientError: TestError(code: 401, message: "token rejected"))
                    )
            )
            #expect(refresher.callCount == 0)
            #expect(await server.receivedRequests().map { $0.header("Authorization") } == ["Bearer own"])
        }
    }

    @Test func aTokenSetDuringARefreshWinsOverTheRefreshedOne() async throws {
        try await TestServer.withServer { server in
            let held = HeldRefresh(answering: "refreshed")
            let plugin = TokenRefreshPlugin<TestApi>(token: "stale", refresh: held.refresh)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
            let request = Task { await provider.rawDataResponse(on: .protected(accept: "signed-in")) }
            await held.waitUntilStarted()
            plugin.setToken("signed-in")
            held.letItFinish()
            #expect(await request.value == .success(Data(#"{"token":"signed-in"}"#.utf8)))
            #expect(plugin.token == "signed-in")
        }
    }
}
