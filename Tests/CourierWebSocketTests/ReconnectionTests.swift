#if WebSocket
import Courier
import CourierTestServer
import CourierTestServerWebSocket
import CourierWebSocket
import Foundation
import Testing

/// A dropped connection opened again on the provider's scheduler, with the caller's resubscription, against a server
/// that drops, asks to come back, or stays away.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ReconnectionTests {
    /// Jitter off, so that each wait is the policy's exact backoff; no pings, so that the backoff is the only work.
    static func options(attempts: Int = 3) -> WebSocketOptions {
        WebSocketOptions(
            pingInterval: nil,
            reconnection: WebSocketReconnection(
                policy: RetryPolicy(maximumAttempts: attempts, initialDelay: .seconds(1), multiplier: 2),
                randomFraction: { 0 }
            )
        )
    }

    @Test(arguments: [nil, 1001, 1012, 1013])
    func aDroppedConnectionIsOpenedAgainAfterTheBackoffAndResubscribed(closingWith code: Int?) async throws {
        try await WebSocketTestServer.withServer { server in
            let scheduler = TestScheduler()
            let provider = ApiProvider<ChatApi>(
                baseUrl: server.baseUrl,
                plugins: [TokenRefreshPlugin<ChatApi>(token: "t") { _ in "t" }],
                scheduler: scheduler
            )
            let socket = try await provider.webSocket(
                on: .drops(count: 1, code: code),
                receiving: Numbered.self,
                sending: WebSocketMessage.self,
                options: Self.options()
            ) { send in
                try await send(.text("subscribe"))
            }.get()
            var iterator = socket.makeAsyncIterator()
            try await socket.send(.text("subscribe"))
            #expect(try await iterator.next() == Numbered(number: 1))
            // The server drops the connection after its answer; the reconnection waits one backoff.
            await scheduler.waitForPendingWork(count: 1)
            #expect(scheduler.pendingDueTimes == [scheduler.now + .seconds(1)])
            // Sent while reconnecting: it waits for the new connection, and goes after the resubscription.
            async let sent: Void = socket.send(.text("hello"))
            await scheduler.advance(by: .seconds(1))
            try await sent
            #expect(try await iterator.next() == Numbered(number: 2))
            #expect(try await iterator.next() == Numbered(number: 2))
            #expect(await server.messages() == ["1 subscribe", "2 subscribe", "2 hello"])
            #expect(await socket.close() == WebSocketClosure(code: .normalClosure))
            // The reconnection's upgrade went through the plugins as the first did.
            let upgrades = await server.receivedUpgrades()
            #expect(upgrades.map(\.path) == ["/ws/drops", "/ws/drops"])
            #expect(upgrades.map { $0.headers["authorization"] } == ["Bearer t", "Bearer t"])
        }
    }

    @Test func aServerThatStaysAwayIsTriedWithGrowingBackoffsUntilTheAttemptsRunOut() async throws {
        try await WebSocketTestServer.withServer { server in
            let scheduler = TestScheduler()
            let provider = ApiProvider<ChatApi>(baseUrl: server.baseUrl, scheduler: scheduler)
            let socket = try await provider.webSocket(
                on: .drops(count: 1, refuse: 503),
                receiving: Numbered.self,
                sending: WebSocketMessage.self,
                options: Self.options(attempts: 3)
            ).get()
            var iterator = socket.makeAsyncIterator()
            try await socket.send(.text("subscribe"))
            #expect(try await iterator.next() == Numbered(number: 1))
            for backoff in [1, 2, 4] {
                await scheduler.waitForPendingWork(count: 1)
                #expect(scheduler.pendingDueTimes == [scheduler.now + .seconds(backoff)])
                await scheduler.advance(by: .seconds(backoff))
            }
            await #expect {
                _ = try await iterator.next()
            } throws: { error in
                guard case .reconnectionFailed(3, let last as ApiError<Refusal>) = error as? WebSocketError else {
                    return false
                }
                return last == .serverError(statusCode: 503)
            }
            #expect(await socket.closure == WebSocketClosure(code: .abnormalClosure))
            #expect(await server.receivedUpgrades().count == 4)
        }
    }

    @Test func anUpgradeRefusedWithAStatusThePolicyDoesNotRetryEndsAtOnce() async throws {
        try await WebSocketTestServer.withServer { server in
            let scheduler = TestScheduler()
            let provider = ApiProvider<ChatApi>(baseUrl: server.baseUrl, scheduler: scheduler)
            let socket = try await provider.webSocket(
                on: .drops(count: 1, refuse: 403),
                receiving: Numbered.self,
                sending: WebSocketMessage.self,
                options: Self.options(attempts: 5)
            ).get()
            var iterator = socket.makeAsyncIterator()
            try await socket.send(.text("subscribe"))
            #expect(try await iterator.next() == Numbered(number: 1))
            await scheduler.waitForPendingWork(count: 1)
            await scheduler.advance(by: .seconds(1))
            await #expect {
                _ = try await iterator.next()
            } throws: { error in
                guard case .reconnectionFailed(1, let last as ApiError<Refusal>) = error as? WebSocketError else {
                    return false
                }
                return last == .clientError(statusCode: 403, clientError: Refusal(code: 403, message: "not now"))
            }
            #expect(scheduler.pendingWorkCount == 0)
        }
    }

    @Test func closingWhileWaitingToReconnectEndsAtOnceWithTheCallersCode() async throws {
        try await WebSocketTestServer.withServer { server in
            let scheduler = TestScheduler()
            let provider = ApiProvider<ChatApi>(baseUrl: server.baseUrl, scheduler: scheduler)
            let socket = try await provider.webSocket(
                on: .drops(count: 1),
                receiving: Numbered.self,
                sending: WebSocketMessage.self,
                options: Self.options()
            ).get()
            var iterator = socket.makeAsyncIterator()
            try await socket.send(.text("subscribe"))
            #expect(try await iterator.next() == Numbered(number: 1))
            await scheduler.waitForPendingWork(count: 1)
            // A send waiting for the reconnection, cancelled: nothing is sent.
            let late = Task { try await socket.send(.text("cancelled")) }
            late.cancel()
            await #expect {
                try await late.value
            } throws: { error in
                guard case .cancelled = error as? WebSocketError else { return false }
                return true
            }
            let closure = await socket.close(.normalClosure, reason: "leaving")
            #expect(closure == WebSocketClosure(code: .normalClosure, reason: "leaving"))
            #expect(try await iterator.next() == nil)
            #expect(scheduler.pendingWorkCount == 0)
            await #expect(throws: WebSocketError.self) { try await socket.send(.text("too late")) }
            #expect(await server.receivedUpgrades().count == 1)
            #expect(await server.messages() == ["1 subscribe"])
        }
    }

    @Test func aNormalClosureOrTheClientsOwnCloseIsNotReconnected() async throws {
        try await WebSocketTestServer.withServer { server in
            let scheduler = TestScheduler()
            let provider = ApiProvider<ChatApi>(baseUrl: server.baseUrl, scheduler: scheduler)
            let pushed = try await provider.webSocket(
                on: .push(count: 1),
                receiving: Numbered.self,
                sending: Numbered.self,
                options: Self.options()
            ).get()
            var numbers: [Int] = []
            for try await message in pushed { numbers.append(message.number) }
            #expect(numbers == [1])
            #expect(await pushed.closure == WebSocketClosure(code: .normalClosure, reason: "done"))
            let echo = try await provider.webSocket(
                on: .echo,
                receiving: Numbered.self,
                sending: Numbered.self,
                options: Self.options()
            ).get()
            #expect(await echo.close(.goingAway) == WebSocketClosure(code: .goingAway))
            #expect(scheduler.pendingWorkCount == 0)
            #expect(await server.receivedUpgrades().map(\.path) == ["/ws/push", "/ws/echo"])
        }
    }
}
#endif
