import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A provider made with a scheduler times its requests on it, over the network too: an hour's timeout ends a
/// request that the loopback server never answers as soon as a `TestScheduler` has moved an hour, while the test
/// takes a fraction of a second of real time (and its one-minute guard would stop it long before a real hour).
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct VirtualTimeoutTests {
    static let hour = Duration.seconds(3_600)

    @Test(arguments: TransportKind.allCases)
    func anEndpointsTimeoutRunsOnTheProvidersScheduler(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let scheduler = TestScheduler()
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl, scheduler: scheduler) { provider in
                let id = "virtual-\(kind.rawValue)"
                let endpoint = FreeEndpoint(subpath: "silent/\(id)", timeout: Self.hour)
                async let result = provider.rawDataResponse(on: endpoint)
                // The request is on the wire and its timer set (the two may come in either order).
                await server.waitForRequests(count: 1)
                await scheduler.waitForPendingWork(count: 1)
                await scheduler.advance(by: Self.hour)
                #expect(await result == .failure(.noResponseReceived(error: URLError(.timedOut))))
                await server.waitForDisconnect(of: id)
            }
        }
    }

    /// A request answered before its timeout leaves no timer behind: each transport cancels it as the exchange
    /// ends, so that a finished request's timer holds nothing until the hour is up.
    @Test(arguments: TransportKind.allCases)
    func aRequestAnsweredInTimeLeavesNoTimerBehind(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let scheduler = TestScheduler()
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl, scheduler: scheduler) { provider in
                let endpoint = FreeEndpoint(subpath: "echo", timeout: Self.hour)
                for _ in 0..<3 { #expect(await provider.rawDataResponse(on: endpoint).failure == nil) }
                #expect(scheduler.pendingWorkCount == 0)
            }
        }
    }

    /// A download's timeouts are kept by Courier, not the transport: the endpoint's `idleTimeout` as the longest wait
    /// for the answer to begin, its `timeout` for the whole download. Both run on the provider's scheduler.
    @Test(arguments: TransportKind.allCases, [true, false])
    func aDownloadsTimeoutsRunOnTheProvidersScheduler(kind: TransportKind, overall: Bool) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let scheduler = TestScheduler()
                let id = "download-\(kind.rawValue)-\(overall)"
                let endpoint = FreeEndpoint(
                    subpath: "silent/\(id)",
                    timeout: overall ? Self.hour : nil,
                    idleTimeout: overall ? nil : Self.hour
                )
                let failure = try await kind.withProvider(baseUrl: server.baseUrl, scheduler: scheduler) { provider in
                    async let result = provider.download(on: endpoint, to: directory.file("data"))
                    await server.waitForRequests(count: 1)
                    await scheduler.waitForPendingWork(count: 1)
                    await scheduler.advance(by: Self.hour)
                    guard case .failure(let error) = await result else { return ApiError<TestError>?.none }
                    return error
                }
                #expect(failure == .noResponseReceived(error: URLError(.timedOut)))
                await server.waitForDisconnect(of: id)
                #expect(try directory.contents() == [])
            }
        }
    }

    /// A retry's wait without a scheduler of its own runs on the provider's: the second sending goes out only once
    /// the test scheduler has moved past the backoff.
    @Test(arguments: TransportKind.allCases)
    func aRetryWaitsOnTheProvidersScheduler(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let scheduler = TestScheduler()
            let wait = Duration.seconds(30)
            let retry = RetryPlugin<FreeEndpoint>(policy: RetryPolicy(initialDelay: wait, jitter: 0))
            try await kind.withProvider(baseUrl: server.baseUrl, plugins: [retry], scheduler: scheduler) { provider in
                let endpoint = FreeEndpoint(subpath: "flaky/wait-\(kind.rawValue)", queryParameters: ["failures": "1"])
                async let result = provider.rawDataResponse(on: endpoint)
                // The first answer (503) has come, and the wait for the second sending is on the test scheduler.
                await server.waitForRequests(count: 1)
                await scheduler.waitForPendingWork(count: 1)
                #expect(await server.receivedRequests().count == 1)
                await scheduler.advance(by: wait)
                let body = try await result.get()
                #expect(try JSONDecoder().decode([String: Int].self, from: body) == ["attempt": 2])
                #expect(await server.receivedRequests().count == 2)
            }
        }
    }

    /// A mocked download keeps its timeouts as one over the network does, on the behavior's scheduler: an answer
    /// due after the overall timeout does not arrive.
    @Test func aMockedDownloadTimesOutOnTheBehaviorsScheduler() async throws {
        try await TemporaryDirectory.with { directory in
            let scheduler = TestScheduler()
            let behavior = MockingBehavior<FreeEndpoint>(delay: .seconds(2 * 3_600), scheduler: scheduler) { _ in
                MockedResponse(status: .ok, bodyData: Data("late".utf8))
            }
            let provider = ApiProvider(mockingBehavior: behavior)
            let endpoint = FreeEndpoint(timeout: Self.hour)
            async let result = provider.download(on: endpoint, to: directory.file("late"))
            // The mocked answer and the overall timeout.
            await scheduler.waitForPendingWork(count: 2)
            await scheduler.advance(by: Self.hour)
            guard case .failure(let error) = await result else {
                Issue.record("The download did not time out")
                return
            }
            #expect(error == .noResponseReceived(error: URLError(.timedOut)))
            // The cancelled answer left nothing behind.
            let left = try directory.contents()
            #expect(scheduler.pendingWorkCount == 0)
            #expect(left == [])
        }
    }

    /// A mocked request keeps the endpoint's timeout as one over the network does, on the behavior's scheduler: the
    /// pipeline keeps it in front of the mocks too.
    @Test func aMockedRequestTimesOutOnTheBehaviorsScheduler() async throws {
        let scheduler = TestScheduler()
        let behavior = MockingBehavior<FreeEndpoint>(delay: .seconds(2 * 3_600), scheduler: scheduler) { _ in
            MockedResponse(status: .ok, bodyData: Data("late".utf8))
        }
        let provider = ApiProvider(mockingBehavior: behavior)
        async let result = provider.rawDataResponse(on: FreeEndpoint(timeout: Self.hour))
        // The mocked answer and the timeout.
        await scheduler.waitForPendingWork(count: 2)
        await scheduler.advance(by: Self.hour)
        #expect(await result == .failure(.noResponseReceived(error: URLError(.timedOut))))
        #expect(scheduler.pendingWorkCount == 0)
    }
}
