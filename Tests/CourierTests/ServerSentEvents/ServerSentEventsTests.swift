import CourierTestServer
import Foundation
import Testing

@testable import Courier

/// Server-Sent Events against the loopback server: reconnection with `Last-Event-ID` on virtual time.
@Suite(.serialized, .timeLimit(.minutes(HangGuard.minutes)))
struct ServerSentEventsTests {
    struct Numbered: Decodable, Equatable {
        let number: Int
    }

    /// Five events, two per connection: three reconnections, each after the server's `retry` of 1.5 s on the test
    /// scheduler, each carrying the last event ID; the fourth connection's `204` ends the sequence.
    @Test(arguments: TransportKind.allCases)
    func theStreamReconnectsWithTheLastEventIdAfterTheServersRetry(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let scheduler = TestScheduler()
            let key = "reconnect-\(kind)"
            let numbers = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                let reader = Task {
                    var numbers: [Int] = []
                    let events = provider.events(
                        on: .events(key: key, total: 5, perConnection: 2, retry: 1_500),
                        reconnection: EventStreamReconnection(scheduler: scheduler, delay: .seconds(30))
                    )
                    for try await event in events {
                        numbers.append(try event.decodeData(as: Numbered.self).number)
                        #expect(event.id == "\(numbers.count)")
                    }
                    return numbers
                }
                for wait in 1...3 {
                    await scheduler.waitForPendingWork()
                    #expect(scheduler.pendingDueTimes == [.milliseconds(1_500 * wait)])
                    await scheduler.advance(by: .milliseconds(1_500))
                }
                return try await reader.value
            }
            #expect(numbers == [1, 2, 3, 4, 5])
            let sent = await server.receivedRequests().filter { $0.path == "/events/\(key)" }
            #expect(sent.map { $0.header("Last-Event-ID") } == [nil, "2", "4", "5"])
            #expect(sent.allSatisfy { $0.header("Accept") == "text/event-stream" })
            #expect(scheduler.now == .milliseconds(4_500))
        }
    }

    /// A policy without a scheduler of its own waits on the provider's.
    @Test(arguments: TransportKind.allCases)
    func aPolicyWithoutASchedulerWaitsOnTheProviders(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let scheduler = TestScheduler()
            let key = "provider-clock-\(kind)"
            let numbers = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl, scheduler: scheduler) {
                provider in
                let reader = Task {
                    var numbers: [Int] = []
                    let events = provider.events(
                        on: .events(key: key, total: 3, perConnection: 2, retry: 1_500),
                        reconnection: EventStreamReconnection(delay: .seconds(30))
                    )
                    for try await event in events {
                        numbers.append(try event.decodeData(as: Numbered.self).number)
                    }
                    return numbers
                }
                await scheduler.waitForPendingWork()
                #expect(scheduler.pendingDueTimes == [.milliseconds(1_500)])
                #expect(await server.receivedRequests().count == 1)
                await scheduler.advance(by: .milliseconds(1_500))
                await scheduler.waitForPendingWork()
                await scheduler.advance(by: .milliseconds(1_500))
                return try await reader.value
            }
            #expect(numbers == [1, 2, 3])
            #expect(scheduler.now == .milliseconds(3_000))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func withoutReconnectionTheSequenceEndsWithTheStream(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let events = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                var events: [ServerSentEvent] = []
                for try await event in provider.events(on: .events(key: "once-\(kind)", total: 5, perConnection: 2)) {
                    events.append(event)
                }
                return events
            }
            #expect(events.map(\.id) == ["1", "2"])
            #expect(events.first?.data == "{\"number\": 1}")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aClientErrorIsThrownAndNotRetried(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let error = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                do {
                    let events = provider.events(
                        on: .status(403),
                        reconnection: EventStreamReconnection(scheduler: TestScheduler())
                    )
                    for try await _ in events {}
                    return nil as ApiError<TestError>?
                } catch let error as ApiError<TestError> {
                    return error
                }
            }
            guard case .clientError(403, _)? = error else {
                Issue.record("Expected the 403, got \(String(describing: error))")
                return
            }
            #expect(await server.receivedRequests().count == 1)
        }
    }

    /// A refused connection is retried on the scheduler, up to the policy's limit, then thrown.
    @Test func refusedConnectionsAreRetriedUpToTheLimit() async throws {
        let scheduler = TestScheduler()
        let provider = ApiProvider<TransferApi>(baseUrl: URL(string: "http://127.0.0.1:9"))
        let reader = Task {
            do {
                let policy = EventStreamReconnection(scheduler: scheduler, delay: .seconds(2), maximumFailedAttempts: 2)
                for try await _ in provider.events(on: .status(200), reconnection: policy) {}
                return nil as ApiError<TestError>?
            } catch let error as ApiError<TestError> {
                return error
            }
        }
        for _ in 1...2 {
            await scheduler.waitForPendingWork()
            await scheduler.advance(by: .seconds(2))
        }
        let error = try await reader.value
        guard case .noResponseReceived(let underlying as URLError)? = error else {
            Issue.record("Expected the refused connection, got \(String(describing: error))")
            return
        }
        #expect(underlying.code == .cannotConnectToHost)
        #expect(scheduler.now == .seconds(4))
    }

    @Test func aMockedEventStreamParses() async throws {
        let provider = ApiProvider<TransferApi>(
            baseUrl: URL(string: "https://example.invalid"),
            mockingBehavior: MockingBehavior { _ in
                MockedResponse(status: .ok, bodyData: Data("id: 9\nevent: done\ndata: {\"number\": 9}\n\n".utf8))
            }
        )
        var events: [ServerSentEvent] = []
        for try await event in provider.events(on: .status(200)) { events.append(event) }
        #expect(events == [ServerSentEvent(type: "done", data: "{\"number\": 9}", id: "9")])
        #expect(try events.first?.decodeData(as: Numbered.self) == Numbered(number: 9))
    }
}
