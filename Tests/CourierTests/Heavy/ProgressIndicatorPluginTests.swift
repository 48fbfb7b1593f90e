import Courier
import CourierTestServer
import Dispatch
import Foundation
import Testing

extension Heavy {
    /// The indicator is shown while anything is in flight, also with a thousand requests from many threads.
    @Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ProgressIndicatorPluginTests {
        @Test func thousandConcurrentRequestsFromManyThreads() async throws {
            try await TestServer.withServer { server in
                let (plugin, transitions) = recordingIndicator()
                let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
                let failures = EventLog<String>()
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread {
                        let group = DispatchGroup()
                        DispatchQueue.concurrentPerform(iterations: 1_000) { index in
                            group.enter()
                            provider.performRequest(on: .echo(query: ["n": .string(String(index))])) { result in
                                if case .failure(let error) = result { failures.append("\(error)") }
                                group.leave()
                            }
                        }
                        group.wait()
                        continuation.resume()
                    }
                }
                #expect(failures.events.isEmpty)
                let events = transitions.events
                #expect(events.first == "show")
                #expect(events.last == "hide")
                #expect(events.count.isMultiple(of: 2))
                #expect(zip(events, events.dropFirst()).allSatisfy { $0 != $1 }, "show and hide alternate: \(events)")
                #expect(await server.receivedRequests().count == 1_000)
            }
        }

        @Test func requestsThatAreNeverSentKeepTheCountBalanced() async throws {
            try await TestServer.withServer { server in
                let (plugin, transitions) = recordingIndicator()
                let unbuildable = ApiProvider<TestApi>(baseUrl: URL(string: "no-scheme")!, plugins: [plugin])
                _ = await unbuildable.response(on: .echo())
                #expect(transitions.events.isEmpty)

                let badHeader = RecordingPlugin("bad", addsHeader: ("Bad Name", "x"))
                let refused = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [badHeader, plugin])
                _ = await refused.response(on: .echo())
                #expect(transitions.events.isEmpty)

                let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [plugin])
                let cancelledBeforeSending = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return await provider.response(on: .echo())
                }
                #expect(await cancelledBeforeSending.value == .failure(.cancelled))
                _ = await provider.response(on: .echo())
                #expect(transitions.events == ["show", "hide", "show", "hide"])
            }
        }

        /// A progress indicator plugin whose show and hide calls are logged in order.
        func recordingIndicator() -> (ProgressIndicatorPlugin<TestApi>, EventLog<String>) {
            let transitions = EventLog<String>()
            let plugin = ProgressIndicatorPlugin<TestApi>(
                showIndicator: { transitions.append("show") },
                hideIndicator: { transitions.append("hide") }
            )
            return (plugin, transitions)
        }
    }
}
