import CourierTestServer
import Foundation
import Testing

@testable import Courier

extension Heavy {
    /// Every stateful built-in plugin, shared by 1,000 concurrent requests against the live server.
    @Suite(.timeLimit(.minutes(HangGuard.minutes)), .serialized) struct PluginConcurrencyTests {
        static let count = 1_000

        @Test func aThousandRejectedRequestsShareOneRefreshWhileTheIndicatorAndRecorderCountRight() async throws {
            try await TestServer.withServer { server in
                let refreshes = Locked(0)
                let indicator = Locked((shown: 0, hidden: 0, visible: false))
                let progress = ProgressIndicatorPlugin<TestApi>(
                    showIndicator: {
                        indicator.withLock {
                            $0.shown += 1; $0.visible = true
                        }
                    },
                    hideIndicator: {
                        indicator.withLock {
                            $0.hidden += 1; $0.visible = false
                        }
                    }
                )
                let recorder = RequestRecorderPlugin<TestApi>()
                let capture = LogCapture()
                let waits = TokenRefreshWaits<TestApi>()
                let plugins: [Plugin<TestApi>] = [
                    progress,
                    recorder,
                    ValidationPlugin { _ in ResponseExpectation(statusCodes: [200], contentType: "application/json") },
                    TokenRefreshPlugin(token: "stale") { _ in
                        refreshes.withLock { $0 += 1 }
                        // Every request waits for this one refresh, rejected or started while it runs.
                        await waits.waitForWaits(count: Self.count)
                        return "fresh"
                    },
                    RequestLoggerPlugin(logger: capture.logger()),
                    ResponseLoggerPlugin(logger: capture.logger()),
                    waits,
                ]
                let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: plugins)
                let results = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<Self.count {
                        group.addTask {
                            (try? await provider.rawDataResponse(on: .protected(accept: "fresh")).get()) != nil
                        }
                    }
                    return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
                }
                #expect(results == Self.count)
                #expect(refreshes.withLock { $0 } == 1)
                #expect(waits.count == Self.count)
                #expect(recorder.requests.count == Self.count)
                let final = indicator.withLock { $0 }
                #expect(final.shown == final.hidden && final.shown >= 1 && !final.visible)
                let sent = await server.receivedRequests().count
                #expect(capture.lines.count == 2 * sent)
            }
        }

        @Test func aThousandFlakyRequestsAreEachRetriedOnceThroughOneSharedRetryPlugin() async throws {
            try await TestServer.withServer { server in
                let retry = RetryPlugin<TestApi>(policy: RetryPolicy(jitter: 0), scheduler: ImmediateScheduler())
                let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [retry])
                let results = await withTaskGroup(of: Bool.self) { group in
                    for index in 0..<Self.count {
                        group.addTask {
                            let result = await provider.rawDataResponse(on: .flaky(key: "k\(index)", failures: 1))
                            return result == .success(Data(#"{"attempt":2}"#.utf8))
                        }
                    }
                    return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
                }
                #expect(results == Self.count)
                #expect(await server.receivedRequests().count == 2 * Self.count)
            }
        }
    }
}
