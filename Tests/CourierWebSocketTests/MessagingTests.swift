#if WebSocket
import Courier
import CourierTestServer
import CourierTestServerWebSocket
import CourierWebSocket
import Foundation
import Testing

/// Messages both ways, typed and raw, and how a connection ends, against the loopback server.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct MessagingTests {
    @Test func typedValuesGoOutAsJsonTextAndComeBackDecoded() async throws {
        try await WebSocketTestServer.withServer { server in
            let chat = try await server.provider().webSocket(on: .echo, receiving: Line.self, sending: Line.self).get()
            let lines = [Line(author: "ada", text: "hello"), Line(author: "bob", text: "héllo, wörld")]
            for line in lines { try await chat.send(line) }
            var received: [Line] = []
            for try await line in chat {
                received.append(line)
                if received.count == lines.count { break }
            }
            #expect(received == lines)
            let closure = await chat.close()
            #expect(closure.code == .normalClosure)
        }
    }

    @Test func rawMessagesKeepTheirKind() async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider()
                .webSocket(on: .echo, receiving: WebSocketMessage.self, sending: WebSocketMessage.self).get()
            let sent: [WebSocketMessage] = [.text("plain text, not JSON"), .binary(Data([0, 1, 2, 255]))]
            for message in sent { try await socket.send(message) }
            var received: [WebSocketMessage] = []
            for try await message in socket {
                received.append(message)
                if received.count == sent.count { break }
            }
            #expect(received == sent)
            await socket.close()
        }
    }

    @Test func aMessageLargerThanAFrameIsSentInFragmentsAndComesBackWhole() async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider()
                .webSocket(on: .echo, receiving: WebSocketMessage.self, sending: WebSocketMessage.self).get()
            let large = Data((0..<100_000).map { UInt8($0 % 253) })
            try await socket.send(.binary(large))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == .binary(large))
            await socket.close()
        }
    }

    @Test func theServersMessagesArriveInOrderThenItsCloseCodeAndReason() async throws {
        try await WebSocketTestServer.withServer { server in
            let feed = try await server.provider()
                .webSocket(on: .push(count: 50), receiving: Numbered.self, sending: Numbered.self).get()
            var numbers: [Int] = []
            for try await message in feed { numbers.append(message.number) }
            #expect(numbers == Array(1...50))
            #expect(await feed.closure == WebSocketClosure(code: .normalClosure, reason: "done"))
        }
    }

    @Test func aSlowReaderStillGetsEveryMessageInOrder() async throws {
        try await WebSocketTestServer.withServer { server in
            // Two held at most: the reading task waits for the reader between messages.
            let feed = try await server.provider()
                .webSocket(
                    on: .push(count: 200),
                    receiving: Numbered.self,
                    sending: Numbered.self,
                    options: WebSocketOptions(bufferedMessages: 2)
                ).get()
            var numbers: [Int] = []
            for try await message in feed {
                numbers.append(message.number)
                await Task.yield()
            }
            #expect(numbers == Array(1...200))
        }
    }

    @Test(arguments: [(4001, "bye"), (1001, "shutting down"), (1008, "not allowed")])
    func theServersCloseCodeAndReasonArrive(code: Int, reason: String) async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider()
                .webSocket(on: .close(code: code, reason: reason), receiving: Line.self, sending: Line.self).get()
            var count = 0
            for try await _ in socket { count += 1 }
            #expect(count == 0)
            let closure = await socket.closure
            #expect(closure == WebSocketClosure(code: WebSocketCloseCode(rawValue: UInt16(code)), reason: reason))
        }
    }

    @Test func sendingAfterTheEndThrowsClosedAndSendsNothing() async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider()
                .webSocket(on: .close(code: 4002, reason: "gone"), receiving: Line.self, sending: Line.self).get()
            for try await _ in socket {}
            await #expect(throws: WebSocketError.self) { try await socket.send(Line(author: "a", text: "late")) }
            do throws(WebSocketError) {
                try await socket.send(Line(author: "a", text: "late"))
            } catch {
                guard case .closed(let closure) = error else { Issue.record("not closed: \(error)"); return }
                #expect(closure.code.rawValue == 4002)
            }
        }
    }

    @Test func cancellingTheReadingTaskClosesTheConnectionAsGoingAway() async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider()
                .webSocket(on: .echo, receiving: Line.self, sending: Line.self).get()
            let reader = Task {
                var count = 0
                for try await _ in socket { count += 1 }
                return count
            }
            try await socket.send(Line(author: "a", text: "one"))
            reader.cancel()
            _ = try await reader.value
            // The server answers the client's close with its code.
            #expect(await socket.closure.code == .goingAway)
        }
    }
}
#endif
