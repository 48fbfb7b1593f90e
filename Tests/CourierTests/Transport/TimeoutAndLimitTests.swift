import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Courier's own limits: a total timeout that ends a request whatever its server does, and never early, and a
/// response body size that is refused as soon as it shows, with the plugins seeing both.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct TimeoutAndLimitTests {
    /// Sends `endpoint` through the completion door and returns the result and how long the pipeline took, from
    /// the plugins' `willPerformRequest` to their `didPerformRequest`. Only ever a lower bound is asserted on it: a
    /// timer never fires early, but a busy machine can run it as late as it likes.
    static func timed(
        _ endpoint: FreeEndpoint,
        on server: TestServer,
        plugins: [Plugin<FreeEndpoint>] = []
    ) async -> (ApiProvider<FreeEndpoint>.TypedResult<Data>, Duration) {
        let stopwatch = StopwatchPlugin()
        let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl, plugins: plugins + [stopwatch])
        let result = await withCheckedContinuation { continuation in
            provider.performRawDataRequest(on: endpoint) { continuation.resume(returning: $0) }
        }
        return (result, stopwatch.elapsed ?? .zero)
    }

    /// `/silent` sends nothing, not even a status line, while the test runs: only the timeout can end the request,
    /// and the server sees the client hang up.
    @Test func aSubSecondTimeoutEndsAHangingRequestAndNeverEarly() async throws {
        try await TestServer.withServer { server in
            let recorder = RequestRecorderPlugin<FreeEndpoint>()
            let endpoint = FreeEndpoint(subpath: "silent/sub-second", timeout: .milliseconds(300))
            let (result, elapsed) = await Self.timed(endpoint, on: server, plugins: [recorder])
            #expect(result == .failure(.noResponseReceived(error: URLError(.timedOut))))
            #expect(elapsed >= .milliseconds(300))
            #expect(recorder.requests.count == 1)
            await server.waitForDisconnect(of: "sub-second")
        }
    }

    /// `/hold` answers at once, then drips a byte every 50 ms for ten minutes: an idle timeout would never fire, so
    /// only the total timeout can end the request, mid-body, and the server sees the client hang up.
    @Test func aServerThatDripsItsBodyIsCutOffAtTheTimeout() async throws {
        try await TestServer.withServer { server in
            let endpoint = FreeEndpoint(subpath: "hold/drip", timeout: .seconds(1))
            let (result, elapsed) = await Self.timed(endpoint, on: server)
            #expect(result == .failure(.noResponseReceived(error: URLError(.timedOut))))
            #expect(elapsed >= .seconds(1))
            await server.waitForDisconnect(of: "drip")
        }
    }

    @Test(arguments: ["true", "false"])
    func aBodyOverTheLimitIsRefusedWhetherAnnouncedOrNot(announce: String) async throws {
        try await TestServer.withServer { server in
            let endpoint = FreeEndpoint(
                subpath: "bytes",
                ordered: [("count", 5_000), ("announce", .string(announce))],
                maximumResponseBodySize: 1_000
            )
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            #expect(await provider.rawDataResponse(on: endpoint) == .failure(.responseBodyTooLarge(limit: 1_000)))
        }
    }

    @Test func aBodyAtTheLimitIsAccepted() async throws {
        try await TestServer.withServer { server in
            let endpoint = FreeEndpoint(
                subpath: "bytes",
                ordered: [("count", 1_000), ("announce", "false")],
                maximumResponseBodySize: 1_000
            )
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            #expect(
                await provider.rawDataResponse(on: endpoint)
                    == .success(Data(repeating: UInt8(ascii: "x"), count: 1_000))
            )
        }
    }

    @Test func aCompressedBodyIsDecompressedAndCountedAsDelivered() async throws {
        try await TestServer.withServer { server in
            let endpoint = FreeEndpoint(
                subpath: "gzip-zeros",
                ordered: [("count", .int(512 * 1024))],
                maximumResponseBodySize: 1024 * 1024
            )
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            #expect(await provider.rawDataResponse(on: endpoint) == .success(Data(count: 512 * 1024)))
        }
    }

    @Test func theTimeoutReachesThePluginsProcessHook() async throws {
        try await TestServer.withServer { server in
            let seen = EventLog<String>()
            let plugin = AttemptRecorder<FreeEndpoint> { attempt in
                seen.append((attempt.error as? URLError).map { "\($0.code)" } ?? "no error")
            }
            let endpoint = FreeEndpoint(subpath: "silent/process-hook", timeout: .milliseconds(200))
            let (result, _) = await Self.timed(endpoint, on: server, plugins: [plugin])
            #expect(result == .failure(.noResponseReceived(error: URLError(.timedOut))))
            #expect(seen.events == ["\(URLError.Code.timedOut)"])
        }
    }

    @Test func aMockedBodyOverTheLimitIsRefusedTheSameWay() async {
        let provider = ApiProvider<FreeEndpoint>(
            mockingBehavior: MockingBehavior { _ in MockedResponse(status: .ok, bodyData: Data(count: 2_000)) }
        )
        let result = await provider.rawDataResponse(on: FreeEndpoint(maximumResponseBodySize: 1_000))
        #expect(result == .failure(.responseBodyTooLarge(limit: 1_000)))
        #expect(
            result.failureDescription == "The response body was larger than the limit of 1000 bytes and was not kept."
        )
    }
}

/// Measures from a request's `willPerformRequest` to its `didPerformRequest`.
final class StopwatchPlugin: Plugin<FreeEndpoint>, @unchecked Sendable {
    private let started = EventLog<ContinuousClock.Instant>()
    private let ended = EventLog<ContinuousClock.Instant>()

    override func willPerformRequest(_ request: URLRequest, endpoint: FreeEndpoint) {
        started.append(ContinuousClock.now)
    }

    override func didPerformRequest<ResultType: Decodable>(
        urlSessionResult: ApiProvider<FreeEndpoint>.URLSessionResult,
        typedResult: ApiProvider<FreeEndpoint>.TypedResult<ResultType>,
        endpoint: FreeEndpoint
    ) {
        ended.append(ContinuousClock.now)
    }

    var elapsed: Duration? {
        guard let start = started.events.first, let end = ended.events.first else { return nil }
        return start.duration(to: end)
    }
}
