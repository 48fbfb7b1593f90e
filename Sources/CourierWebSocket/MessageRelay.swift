#if WebSocket
import NIOConcurrencyHelpers

/// The messages between the task that reads a connection and the connection's reader, at most `capacity` of them
/// unread: with that many waiting, the reading task waits, so a slow reader holds the server back (through TCP)
/// instead of growing memory.
final class MessageRelay: Sendable {
    private struct State {
        var messages: [WebSocketMessage] = []
        /// Set once nothing more comes: `nil` for a clean end, else the failure the reader gets after the messages.
        var end: WebSocketError??
        /// Whether the reader is gone or the connection is closing: messages past `capacity` are then dropped
        /// rather than waited on.
        var stopped = false
        var reader: CheckedContinuation<WebSocketMessage?, any Error>?
        var producer: CheckedContinuation<Void, Never>?
    }

    private let capacity: Int
    private let state = NIOLockedValueBox(State())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Hands `message` over; returns once there is room for the next one.
    func push(_ message: WebSocketMessage) async {
        let reader = state.withLockedValue { state -> CheckedContinuation<WebSocketMessage?, any Error>? in
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            if state.messages.count < capacity || !state.stopped { state.messages.append(message) }
            return nil
        }
        if let reader { return reader.resume(returning: message) }
        await withCheckedContinuation { (producer: CheckedContinuation<Void, Never>) in
            let wait = state.withLockedValue { state in
                guard state.messages.count >= capacity, !state.stopped else { return false }
                state.producer = producer
                return true
            }
            if !wait { producer.resume() }
        }
    }

    /// The next message; `nil` after the end, or the failure that ended the connection, once, after its messages.
    func next() async throws -> WebSocketMessage? {
        // A message already waiting is handed over without a continuation.
        let waiting = state.withLockedValue { state -> (WebSocketMessage, CheckedContinuation<Void, Never>?)? in
            guard !state.messages.isEmpty else { return nil }
            defer { state.producer = nil }
            return (state.messages.removeFirst(), state.producer)
        }
        if let (message, producer) = waiting {
            producer?.resume()
            return message
        }
        return try await withCheckedThrowingContinuation { reader in
            enum Action {
                case give(WebSocketMessage?, CheckedContinuation<Void, Never>?)
                case fail(WebSocketError)
                case wait
            }
            let action = state.withLockedValue { state -> Action in
                if !state.messages.isEmpty {
                    let producer = state.producer
                    state.producer = nil
                    return .give(state.messages.removeFirst(), producer)
                }
                switch state.end {
                case .some(.some(let failure)):
                    state.end = .some(nil)
                    return .fail(failure)
                case .some(nil): return .give(nil, nil)
                case nil:
                    state.reader = reader
                    return .wait
                }
            }
            switch action {
            case .give(let message, let producer):
                producer?.resume()
                reader.resume(returning: message)
            case .fail(let failure): reader.resume(throwing: failure)
            case .wait: break
            }
        }
    }

    /// Nothing more comes: the reader gets what is left, then `failure` if there is one, then the end.
    func finish(_ failure: WebSocketError? = nil) {
        let (reader, producer, message) = state.withLockedValue { state in
            if state.end == nil { state.end = .some(failure) }
            defer { (state.reader, state.producer) = (nil, nil) }
            return (state.reader, state.producer, state.end)
        }
        producer?.resume()
        switch message {
        case .some(.some(let failure)) where reader != nil:
            state.withLockedValue { $0.end = .some(nil) }
            reader?.resume(throwing: failure)
        default: reader?.resume(returning: nil)
        }
    }

    /// The reader is gone or the connection is closing: the reading task never waits again, and a waiting reader
    /// ends.
    func stop() {
        let (reader, producer) = state.withLockedValue { state in
            state.stopped = true
            defer { (state.reader, state.producer) = (nil, nil) }
            return (state.reader, state.producer)
        }
        producer?.resume()
        reader?.resume(returning: nil)
    }
}
#endif
