#if WebSocket
import Courier
import CourierTestServer
import CourierTestServerWebSocket
import CourierWebSocket
import Foundation
import Testing

/// Pings both ways: the server's answered below the reader, the client's timed on the provider's scheduler.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct KeepAliveTests {
    @Test func theServersPingIsAnsweredWhileTheReaderReadsNothing() async throws {
        try await WebSocketTestServer.withServer { server in
            // Five messages before the ping, one kept: the reading task waits for a reader that never comes.
            let socket = try await server.provider()
                .webSocket(
                    on: .ping(after: 5),
                    receiving: Numbered.self,
                    sending: Numbered.self,
                    options: WebSocketOptions(pingInterval: nil, bufferedMessages: 1)
                ).get()
            #expect(await server.pongs() == ["are you there"])
            await socket.close()
        }
    }

    @Test func aPingLeftUnansweredFailsTheReaderAndClosesAsGoingAway() async throws {
        try await WebSocketTestServer.withServer { server in
            let scheduler = TestScheduler()
            let provider = ApiProvider<ChatApi>(baseUrl: server.baseUrl, scheduler: scheduler)
            let socket = try await provider.webSocket(
                on: .deaf,
                receiving: Line.self,
                sending: Line.self,
                options: WebSocketOptions(pingInterval: .seconds(20))
            ).get()
            await scheduler.advance(by: .seconds(20))  // the ping
            await scheduler.advance(by: .seconds(20))  // still no pong
            var iterator = socket.makeAsyncIterator()
            do {
                _ = try await iterator.next()
                Issue.record("the reader did not fail")
            } catch let error as WebSocketError {
                guard case .noPong(let within) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(within == .seconds(20))
            }
            #expect(await socket.closure == WebSocketClosure(code: .goingAway, reason: "no pong within 20.0 seconds"))
        }
    }

    @Test func aServerThatAnswersEveryPingKeepsTheConnection() async throws {
        try await WebSocketTestServer.withServer { server in
            let scheduler = TestScheduler()
            let provider = ApiProvider<ChatApi>(baseUrl: server.baseUrl, scheduler: scheduler)
            let socket = try await provider.webSocket(
                on: .echo,
                receiving: Line.self,
                sending: Line.self,
                options: WebSocketOptions(pingInterval: .seconds(20))
            ).get()
            var iterator = socket.makeAsyncIterator()
            for round in 1...3 {
                await scheduler.advance(by: .seconds(20))
                // The server answers the ping before it echoes what was sent after it, so once the echo is back the
                // pong is in: the next tick finds the ping answered.
                let line = Line(author: "a", text: "round \(round)")
                try await socket.send(line)
                #expect(try await iterator.next() == line)
            }
            await scheduler.advance(by: .seconds(20))
            try await socket.send(Line(author: "a", text: "still open"))
            #expect(try await iterator.next() == Line(author: "a", text: "still open"))
            #expect(await socket.close() == WebSocketClosure(code: .normalClosure))
        }
    }

    @Test(arguments: [Duration.zero, .seconds(-1)])
    func anIntervalThatIsNotPositiveSendsNoPings(interval: Duration) async throws {
        try await WebSocketTestServer.withServer { server in
            let scheduler = TestScheduler()
            let provider = ApiProvider<ChatApi>(baseUrl: server.baseUrl, scheduler: scheduler)
            let socket = try await provider.webSocket(
                on: .echo,
                receiving: Line.self,
                sending: Line.self,
                options: WebSocketOptions(pingInterval: interval)
            ).get()
            // A heartbeat would have its first tick pending on the scheduler by now.
            #expect(scheduler.pendingWorkCount == 0)
            try await socket.send(Line(author: "a", text: "still here"))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == Line(author: "a", text: "still here"))
            #expect(await socket.close() == WebSocketClosure(code: .normalClosure))
        }
    }

    @Test func aPingLeftUnansweredIsADropThatReconnects() async throws {
        try await WebSocketTestServer.withServer { server in
            let scheduler = TestScheduler()
            let provider = ApiProvider<ChatApi>(baseUrl: server.baseUrl, scheduler: scheduler)
            let reconnection = WebSocketReconnection(
                policy: RetryPolicy(maximumAttempts: 1, initialDelay: .seconds(1)),
                randomFraction: { 0 }
            )
            let socket = try await provider.webSocket(
                on: .deaf,
                receiving: Line.self,
                sending: Line.self,
                options: WebSocketOptions(
                    pingInterval: .seconds(20),
                    closeTimeout: .seconds(1),
                    reconnection: reconnection
                )
            ).get()
            await scheduler.advance(by: .seconds(20))  // the ping
            await scheduler.advance(by: .seconds(20))  // no pong: a drop, and a backoff before the next upgrade
            await scheduler.waitForPendingWork(count: 1)
            #expect(scheduler.pendingDueTimes == [.seconds(41)])
            await scheduler.advance(by: .seconds(1))
            // The new connection's first ping pending shows it is open.
            await scheduler.waitForPendingWork(count: 1)
            #expect(scheduler.pendingDueTimes == [.seconds(61)])
            #expect(await server.receivedUpgrades().map(\.path) == ["/ws/deaf", "/ws/deaf"])
            // The server answers no close either: the close timeout drops the connection.
            async let closure = socket.close(.normalClosure)
            await scheduler.waitForPendingWork(count: 2)
            await scheduler.advance(by: .seconds(1))
            #expect(await closure == WebSocketClosure(code: .normalClosure))
            #expect(scheduler.pendingWorkCount == 0)
        }
    }

    @Test func aCloseTheServerNeverAnswersEndsAfterTheCloseTimeout() async throws {
        try await WebSocketTestServer.withServer { server in
            let scheduler = TestScheduler()
            let provider = ApiProvider<ChatApi>(baseUrl: server.baseUrl, scheduler: scheduler)
            let socket = try await provider.webSocket(
                on: .deaf,
                receiving: Line.self,
                sending: Line.self,
                options: WebSocketOptions(pingInterval: nil, closeTimeout: .seconds(10))
            ).get()
            async let closure = socket.close(.normalClosure, reason: "bye")
            await scheduler.waitForPendingWork(count: 1)
            #expect(scheduler.pendingDueTimes == [.seconds(10)])
            await scheduler.advance(by: .seconds(10))
            #expect(await closure == WebSocketClosure(code: .normalClosure, reason: "bye"))
        }
    }
}
#endif
