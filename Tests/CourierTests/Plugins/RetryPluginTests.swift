import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Retries against the live server, with every wait on a `TestScheduler`: the delays are checked, not waited for.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct RetryPluginTests {
    /// A policy without jitter, so that delays are exact.
    static let exact = RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(500), jitter: 0)

    /// Starts `endpoint` and, each time a retry is scheduled, records its delay and advances past it.
    static func run(
        _ endpoint: TestApi,
        on server: TestServer,
        policy: RetryPolicy = exact,
        retriesNonIdempotent: @escaping @Sendable (TestApi) -> Bool = { _ in false },
        observer: Plugin<TestApi>? = nil
    ) async -> (result: ApiProvider<TestApi>.TypedResult<Data>, delays: [Duration]) {
        let scheduler = TestScheduler()
        let retry = RetryPlugin<TestApi>(
            policy: policy,
            scheduler: scheduler,
            retriesNonIdempotent: retriesNonIdempotent
        )
        let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [retry] + (observer.map { [$0] } ?? []))
        let delays = Locked<[Duration]>([])
        let (results, delivered) = AsyncStream.makeStream(of: ApiProvider<TestApi>.TypedResult<Data>.self)
        provider.performRawDataRequest(on: endpoint) { delivered.yield($0) }
        let waiter = Task {
            while !Task.isCancelled {
                await scheduler.waitForPendingWork()
                guard let due = scheduler.pendingDueTimes.first else { continue }
                delays.withLock { $0.append(due - scheduler.now) }
                await scheduler.advance(to: due)
            }
        }
        var iterator = results.makeAsyncIterator()
        let result = await iterator.next() ?? .failure(.cancelled)
        waiter.cancel()
        return (result, delays.withLock { $0 })
    }

    @Test func aRouteThatFailsTwiceThenSucceedsIsRetriedWithExponentialBackoff() async throws {
        try await TestServer.withServer { server in
            let (result, delays) = await Self.run(.flaky(key: "twice", failures: 2), on: server)
            #expect(result == .success(Data(#"{"attempt":3}"#.utf8)))
            #expect(delays == [.milliseconds(500), .seconds(1)])
            #expect(await server.receivedRequests().count == 3)
        }
    }

    @Test func theCallerGetsTheLastAnswerWhenTheAttemptsRunOut() async throws {
        try await TestServer.withServer { server in
            let (result, delays) = await Self.run(.flaky(key: "always", failures: 10, status: 502), on: server)
            #expect(result == .failure(.serverError(statusCode: 502)))
            #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2)])
            #expect(await server.receivedRequests().count == 4)
        }
    }

    @Test func retryAfterInSecondsIsHonoured() async throws {
        try await TestServer.withServer { server in
            let endpoint = TestApi.flaky(key: "seconds", failures: 1, status: 429, retryAfter: "2")
            let (result, delays) = await Self.run(endpoint, on: server)
            #expect(result == .success(Data(#"{"attempt":2}"#.utf8)))
            #expect(delays == [.seconds(2)])
        }
    }

    @Test func retryAfterAsAnHttpDateIsHonouredAgainstTheServersClock() async throws {
        try await TestServer.withServer { server in
            let answers = EventLog<HTTPURLResponse>()
            let observer = AttemptRecorder<TestApi> { attempt in attempt.response.map(answers.append) }
            let endpoint = TestApi.flakyWithDate(key: "date", failures: 1, retryAfterSeconds: 3)
            let (result, delays) = await Self.run(endpoint, on: server, observer: observer)
            #expect(result == .success(Data(#"{"attempt":2}"#.utf8)))
            // Counted from the answer's own `Date`, the server's clock, never from this machine's. The route set
            // `Retry-After` 3 s after its own "now"; Hummingbird stamped `Date` a moment later, possibly in the next
            // second (or earlier, from its cache), so the delay is whatever separates the two headers.
            let first = try #require(answers.events.first)
            let header = { (name: String) in first.value(forHTTPHeaderField: name).flatMap(HttpDate.parse) }
            let date = try #require(header("Date"))
            let retryAfter = try #require(header("Retry-After"))
            let routeNow = try #require(header("X-Retry-After-From"))
            #expect(retryAfter.timeIntervalSince(routeNow) == 3)
            #expect(delays == [.seconds(Int(retryAfter.timeIntervalSince(date)))])
        }
    }

    @Test func aRetryAfterBeyondTheCapIsNotWaitedForAndTheCallerGetsTheAnswer() async throws {
        try await TestServer.withServer { server in
            let endpoint = TestApi.flaky(key: "long", failures: 1, status: 503, retryAfter: "3600")
            let (result, delays) = await Self.run(endpoint, on: server)
            #expect(result == .failure(.serverError(statusCode: 503)))
            #expect(delays.isEmpty)
            #expect(await server.receivedRequests().count == 1)
        }
    }

    @Test func aPostIsNotRetriedUnlessTheEndpointOptsIn() async throws {
        try await TestServer.withServer { server in
            let post = TestApi.flaky(key: "post", failures: 1, method: .post(body: .json(["a": 1])))
            let (refused, noDelays) = await Self.run(post, on: server)
            #expect(refused == .failure(.serverError(statusCode: 503)))
            #expect(noDelays.isEmpty)
            #expect(await server.receivedRequests().count == 1)
            let optedIn = TestApi.flaky(key: "opted-in", failures: 1, method: .post(body: .json(["a": 1])))
            let (allowed, delays) = await Self.run(optedIn, on: server, retriesNonIdempotent: { _ in true })
            #expect(allowed == .success(Data(#"{"attempt":2}"#.utf8)))
            #expect(delays == [.milliseconds(500)])
        }
    }

    @Test func aStatusThatIsNotRetryableIsDeliveredAtOnce() async throws {
        try await TestServer.withServer { server in
            let (result, delays) = await Self.run(.flaky(key: "teapot", failures: 1, status: 418), on: server)
            #expect(
                result
                    == .failure(.clientError(statusCode: 418, clientError: TestError(code: 418, message: "failure 1")))
            )
            #expect(delays.isEmpty)
        }
    }

    @Test func theTotalBudgetStopsRetriesThatWouldEndTooLate() async throws {
        try await TestServer.withServer { server in
            // Virtual 1,000 s and 2,000 s waits against a 2,500 s budget: the second would end too late, and the first
            // fits however long the real sendings take on a busy machine (a loopback sending has taken 20 s there).
            let policy = RetryPolicy(
                maximumAttempts: 4,
                initialDelay: .seconds(1_000),
                maximumDelay: .seconds(4_000),
                jitter: 0,
                totalBudget: .seconds(2_500)
            )
            let (result, delays) = await Self.run(.flaky(key: "budget", failures: 5), on: server, policy: policy)
            #expect(result == .failure(.serverError(statusCode: 503)))
            #expect(delays == [.seconds(1_000)])
            #expect(await server.receivedRequests().count == 2)
        }
    }

    @Test func aLostConnectionIsRetriedForAGet() async throws {
        try await TestServer.withServer { server in
            let (result, delays) = await Self.run(.drop, on: server)
            guard case .failure(.noResponseReceived) = result else {
                Issue.record("expected noResponseReceived, got \(result)")
                return
            }
            #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2)])
            #expect(await server.receivedRequests().count == 4)
        }
    }

    @Test func jitterTakesItsShareOffEachBackoff() {
        let policy = RetryPolicy(initialDelay: .seconds(1), multiplier: 3, maximumDelay: .seconds(5), jitter: 0.5)
        #expect(policy.backoff(beforeRetry: 1, randomFraction: 0) == .seconds(1))
        #expect(policy.backoff(beforeRetry: 1, randomFraction: 1) == .milliseconds(500))
        #expect(policy.backoff(beforeRetry: 2, randomFraction: 0.5) == .milliseconds(2_250))
        #expect(policy.backoff(beforeRetry: 3, randomFraction: 0) == .seconds(5))
        #expect(policy.backoff(beforeRetry: 5_000, randomFraction: 0) == .seconds(5))
    }

    @Test func cancellingDuringTheWaitEndsTheRequestAndUnschedulesTheRetry() async throws {
        try await TestServer.withServer { server in
            let scheduler = TestScheduler()
            let retry = RetryPlugin<TestApi>(policy: Self.exact, scheduler: scheduler)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [retry])
            let task = Task { await provider.rawDataResponse(on: .flaky(key: "cancel", failures: 5)) }
            await scheduler.waitForPendingWork()
            task.cancel()
            #expect(await task.value == .failure(.cancelled))
            #expect(scheduler.pendingWorkCount == 0)
            #expect(await server.receivedRequests().count == 1)
        }
    }

    @Test func retryAfterParsesAllThreeDateForms() throws {
        let url = try #require(URL(string: "http://127.0.0.1/"))
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        for retryAfter in [
            "Sun, 06 Nov 1994 08:49:40 GMT", "Sunday, 06-Nov-94 08:49:40 GMT", "Sun Nov  6 08:49:40 1994",
        ] {
            let response = try #require(
                HTTPURLResponse(
                    url: url,
                    statusCode: 503,
                    httpVersion: nil,
                    headerFields: ["Retry-After": retryAfter, "Date": date]
                )
            )
            #expect(RetryAfter.delay(in: response, now: Date()) == .seconds(3), "\(retryAfter)")
        }
    }
}
