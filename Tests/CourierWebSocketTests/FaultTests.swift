#if WebSocket
import Courier
import CourierTestServer
import CourierTestServerWebSocket
import CourierWebSocket
import Foundation
import Testing

/// A server that misbehaves on an open connection: every fault ends with a typed outcome.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct FaultTests {
    @Test func aConnectionDroppedWithoutACloseFrameEndsAsAbnormalAfterWhatCame() async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider()
                .webSocket(on: .drop, receiving: Numbered.self, sending: Numbered.self).get()
            var numbers: [Int] = []
            for try await message in socket { numbers.append(message.number) }
            #expect(numbers == [1])
            #expect(await socket.closure.code == .abnormalClosure)
        }
    }

    @Test func aMessageOverTheLimitFailsTheReaderAndClosesAsTooBig() async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider()
                .webSocket(
                    on: .large(size: 4_096),
                    receiving: WebSocketMessage.self,
                    sending: WebSocketMessage.self,
                    options: WebSocketOptions(maximumMessageSize: 1_024)
                ).get()
            var iterator = socket.makeAsyncIterator()
            do {
                _ = try await iterator.next()
                Issue.record("a message over the limit was read")
            } catch let error as WebSocketError {
                guard case .messageTooLarge(let limit) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(limit == 1_024)
            }
            #expect(await socket.closure.code == .messageTooBig)
        }
    }

    @Test func aMessageAtTheLimitIsRead() async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider()
                .webSocket(
                    on: .large(size: 1_024),
                    receiving: WebSocketMessage.self,
                    sending: WebSocketMessage.self,
                    options: WebSocketOptions(maximumMessageSize: 1_024)
                ).get()
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == .binary(Data((0..<1_024).map { UInt8($0 % 251) })))
            await socket.close()
        }
    }

    @Test func aContinuationOfNoMessageIsAProtocolViolation() async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider()
                .webSocket(on: .strayContinuation, receiving: WebSocketMessage.self, sending: WebSocketMessage.self)
                .get()
            await expectViolation(reading: socket)
            #expect(await socket.closure.code == .protocolError)
        }
    }

    @Test func aTextMessageThatIsNotUtf8IsAnInvalidPayload() async throws {
        try await WebSocketTestServer.withServer { server in
            let socket = try await server.provider()
                .webSocket(on: .notUtf8, receiving: WebSocketMessage.self, sending: WebSocketMessage.self).get()
            await expectViolation(reading: socket)
            #expect(await socket.closure.code == .invalidPayload)
        }
    }

    @Test func aMessageThatDoesNotDecodeFailsTheReaderAndClosesAsUnsupported() async throws {
        try await WebSocketTestServer.withServer { server in
            // `/ws/push` sends `{"number":1}`, which is no `Line`.
            let socket = try await server.provider()
                .webSocket(on: .push(count: 3), receiving: Line.self, sending: Line.self).get()
            var iterator = socket.makeAsyncIterator()
            do {
                _ = try await iterator.next()
                Issue.record("an undecodable message was read")
            } catch let error as WebSocketError {
                guard case .undecodableMessage(let type, _) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(type == "Line")
            }
            _ = await socket.closure
        }
    }

    private func expectViolation(reading socket: WebSocketConnection<WebSocketMessage, WebSocketMessage>) async {
        var iterator = socket.makeAsyncIterator()
        do {
            while try await iterator.next() != nil {}
            Issue.record("the violation was not reported")
        } catch let error as WebSocketError {
            guard case .protocolViolation = error else {
                Issue.record("\(error)")
                return
            }
        } catch {
            Issue.record("\(error)")
        }
    }
}
#endif
