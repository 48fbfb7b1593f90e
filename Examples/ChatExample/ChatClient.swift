#if WebSocket
import Courier
import CourierWebSocket
import Foundation

/// Joins a room, says something, rides out the server dropping the connection (the room is joined again on the new
/// one before anything else is sent), and leaves: what happened, line by line.
enum ChatClient {
    static func run(baseUrl: URL) async throws -> [String] {
        var log: [String] = []
        let provider = ApiProvider<ChatApi>(baseUrl: baseUrl)
        let reconnection = WebSocketReconnection(
            policy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(100))
        )
        let room = try await provider.webSocket(
            on: .room(name: "swift"),
            receiving: Receipt.self,
            sending: WebSocketMessage.self,
            options: WebSocketOptions(reconnection: reconnection)
        ) { send in
            try await send(.text("join swift"))
        }.get()
        try await room.send(.text("join swift"))
        var receipts = room.makeAsyncIterator()
        while let receipt = try await receipts.next() {
            log.append("answered on connection \(receipt.number)")
            if receipt.number == 1 { continue }  // the server drops this one; the next answer comes on a new one
            try await room.send(.text("hello again"))
            if let echo = try await receipts.next() { log.append("answered on connection \(echo.number)") }
            break
        }
        let closure = await room.close(.normalClosure, reason: "bye")
        log.append("closed: \(closure.code) \(closure.reason ?? "")")
        return log
    }
}
#endif
