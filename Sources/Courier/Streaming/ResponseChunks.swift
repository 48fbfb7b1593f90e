import Foundation

/// A streamed response body, part by part as the network delivers it (see
/// ``ApiProvider/stream(on:)``).
///
/// It is read once, by one task: a second iterator gets what the first left. Ending the reading early (leaving the
/// loop, cancelling the reading task, or dropping the sequence) stops the transfer and closes the connection. It
/// throws ``ApiError`` when the body fails: ``ApiError/noResponseReceived(error:)`` with `URLError(.timedOut)` for
/// a timeout, ``ApiError/cancelled`` for a cancellation.
public struct ResponseChunks<ClientErrorType: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Data

    let reader: StreamReader

    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: reader)
    }

    /// Reads the next part.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: StreamReader

        /// The next part of the body, or `nil` at its end.
        public mutating func next() async throws -> Data? {
            do {
                return try await reader.buffer.next()
            } catch {
                throw ResponseDecoder.mapTransportError(error) as ApiError<ClientErrorType>
            }
        }
    }
}

/// Owns a stream's buffer for its readers: when the last of them is gone, the transfer stops.
final class StreamReader: Sendable {
    let buffer: ChunkBuffer

    init(buffer: ChunkBuffer) {
        self.buffer = buffer
    }

    deinit {
        buffer.cancel()
    }
}
