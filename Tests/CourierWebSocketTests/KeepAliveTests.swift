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
}
#endif
