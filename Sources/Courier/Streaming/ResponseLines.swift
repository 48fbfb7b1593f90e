import Foundation

/// A streamed response body as lines of text (UTF-8, invalid bytes replaced), split at LF or CRLF, without the
/// line ends: e.g. newline-delimited JSON. A last line without a line end is still returned.
///
/// A line longer than the endpoint's ``Endpoint/maximumResponseBodySize`` fails with
/// ``ApiError/responseBodyTooLarge(limit:)`` instead of filling memory. Like ``ResponseChunks``, it is read once.
public struct ResponseLines<ClientErrorType: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = String

    let chunks: ResponseChunks<ClientErrorType>
    let maximumLineLength: Int

    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator(), maximumLineLength: maximumLineLength)
    }

    /// Reads the next line.
    public struct Iterator: AsyncIteratorProtocol {
        var chunks: ResponseChunks<ClientErrorType>.Iterator
        let maximumLineLength: Int
        var pending: [UInt8] = []
        var start = 0
        var ended = false

        /// The next line, or `nil` at the end of the body.
        public mutating func next() async throws -> String? {
            while true {
                if let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    var end = newline
                    if end > start, pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                    let line = String(decoding: pending[start..<end], as: UTF8.self)
                    start = newline + 1
                    return line
                }
                if ended {
                    guard start < pending.count else { return nil }
                    let line = String(decoding: pending[start...], as: UTF8.self)
                    start = pending.count
                    return line
                }
                // Only the unfinished line is kept.
                pending.removeFirst(start)
                start = 0
                guard let chunk = try await chunks.next() else {
                    ended = true
                    continue
                }
                guard pending.count + chunk.count <= maximumLineLength || chunk.contains(UInt8(ascii: "\n")) else {
                    throw ApiError<ClientErrorType>.responseBodyTooLarge(limit: maximumLineLength)
                }
                pending.append(contentsOf: chunk)
            }
        }
    }
}
