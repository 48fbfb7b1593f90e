import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An answer whose status and headers have arrived and whose body is still arriving: from
/// ``ApiProvider/stream(on:)``, always a 2xx one.
public struct StreamedResponse<ClientErrorType: Decodable & Sendable>: Sendable {
    /// The status and headers.
    public let response: HTTPURLResponse
    /// The body, part by part.
    public let chunks: ResponseChunks<ClientErrorType>
    let maximumLineLength: Int

    /// The body as lines of text; read either this or ``chunks``, not both.
    public var lines: ResponseLines<ClientErrorType> {
        ResponseLines(chunks: chunks, maximumLineLength: maximumLineLength)
    }

    /// The body as Server-Sent Events (`text/event-stream`), without reconnecting; see
    /// ``ApiProvider/events(on:reconnection:)`` for a stream that reconnects.
    public var events: ServerSentEventChunks<ClientErrorType> {
        ServerSentEventChunks(chunks: chunks)
    }
}
