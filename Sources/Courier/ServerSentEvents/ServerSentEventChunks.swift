/// A streamed body read as Server-Sent Events, ending with the body (``StreamedResponse/events``).
public struct ServerSentEventChunks<ClientErrorType: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = ServerSentEvent

    let chunks: ResponseChunks<ClientErrorType>
    /// The last event ID of an earlier connection, which carries over to this one.
    var lastEventId = ""

    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator(), parser: EventStreamParser(lastEventId: lastEventId))
    }

    /// Reads the next event.
    public struct Iterator: AsyncIteratorProtocol {
        var chunks: ResponseChunks<ClientErrorType>.Iterator
        var parser: EventStreamParser
        var ready: [ServerSentEvent] = []

        /// The next event, or `nil` when the body ends.
        public mutating func next() async throws -> ServerSentEvent? {
            while ready.isEmpty {
                guard let chunk = try await chunks.next() else {
                    parser.finish()
                    return nil
                }
                ready = parser.parse(chunk)
            }
            return ready.removeFirst()
        }

        /// The server's last `retry`, in milliseconds.
        var reconnectionTime: Int? { parser.reconnectionTime }
        /// The last event ID so far.
        var lastEventId: String { parser.lastEventId }
    }
}
