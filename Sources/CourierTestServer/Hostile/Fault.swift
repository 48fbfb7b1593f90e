/// One way a server can misbehave, chosen per request by the path `/fault/<rawValue>` on a ``HostileServer``.
///
/// Every answer that does arrive whole is `200` with the JSON body `[1,2,3]`, except where a case says otherwise,
/// so that a test can tell a fault that a client tolerated from one it refused.
public enum Fault: String, CaseIterable, Sendable {
    /// A well-formed answer on a connection kept alive: the control that every fault is compared with.
    case none
    /// Nothing listens on the port: the connection is refused.
    case refuse
    /// The connection is accepted and the request read, and nothing is ever sent back: the connection stays open
    /// until the client closes it.
    case silence
    /// The connection is reset (a TCP RST) once the request is read, before any byte of the answer.
    case resetBeforeStatusLine
    /// The status line and headers arrive (`Content-Length: 7`), then the connection is reset.
    case resetAfterHeaders
    /// Four of the seven announced body bytes arrive, then the connection is reset.
    case resetMidBody
    /// Four of the seven announced body bytes arrive, then the connection is closed normally (a FIN).
    case shortBody
    /// Two `Content-Length` headers that disagree (7 and 8), then 8 bytes.
    case conflictingContentLengths
    /// Two `Content-Length: 7` headers, then the 7 bytes: allowed by RFC 9110, refused by NIO's parser.
    case repeatedContentLength
    /// `Content-Length: 3` beside `Transfer-Encoding: chunked`, with the body chunked: the framing a request
    /// smuggler relies on.
    case contentLengthWithChunked
    /// A chunked body whose first chunk size is not hexadecimal.
    case invalidChunkSize
    /// A status line whose code is not three digits: `HTTP/1.1 2OO OK`.
    case malformedStatusLine
    /// A header name holding a control byte (0x01), outside HTTP's token grammar.
    case invalidHeaderBytes
    /// One megabyte of headers (a thousand 1 KB fields) before a well-formed body.
    case megabyteOfHeaders
    /// A header value that never ends: 16 KB every 10 ms until the client stops reading or 64 MB were sent.
    case endlessHeader
    /// `Content-Encoding: gzip` over bytes that start like gzip and are not.
    case corruptGzip
    /// A `103 Early Hints` answer, then the real one.
    case informationalFirst
    /// `413` with the JSON body `{"message":"too large"}` as soon as the request's headers are read, before its
    /// body; the body is then read and dropped until the client closes the connection.
    case answerBeforeBody
    /// An HTTP/1.0 answer with neither `Content-Length` nor chunking: the body ends where the connection does.
    case closeDelimitedBody
    /// `Content-Length: 607`: 600 spaces, then `[1,2,3]`, one byte per second until the client goes away. That is
    /// ten minutes, longer than any test waits, so that a client's timeout always ends it first, however slow the
    /// machine; and a byte a second is more often than any idle timeout a test sets.
    case drip
    /// `206` with `Content-Range: bytes 4-20/20`, whose last byte is past the length: a part with no place in a file.
    case unplaceablePart
    /// `206` with `Content-Range: bytes 4-10/*` and `Content-Length: 9223372036854775807`: a part whose end
    /// overflows a 64-bit offset.
    case overflowingPart
    /// `401` with the JSON body `{"message":"stale token"}` unless the request carries `Authorization: Bearer fresh`,
    /// and then the well-formed answer; the connection is kept alive either way.
    case staleToken

    /// The path that asks the server for this fault.
    public var path: String { "fault/\(rawValue)" }
}
