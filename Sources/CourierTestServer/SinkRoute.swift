import Foundation
import Hummingbird

/// What `/sink` saw of a body it read as a stream, without holding it: for bodies far larger than memory should
/// hold, such as a 200 MB upload.
public struct SinkReport: Codable, Sendable {
    /// How many body bytes arrived.
    public let bytes: Int
    /// The first bytes of the body (up to 256).
    public let head: Data
    /// The last bytes of the body (up to 256).
    public let tail: Data
    /// The `Content-Length` header, if one was sent.
    public let contentLength: String?
    /// The `Transfer-Encoding` header, if one was sent.
    public let transferEncoding: String?
    /// The `Content-Type` header, if one was sent.
    public let contentType: String?
}

enum SinkRoute {
    static let keptBytes = 256

    /// `POST`/`PUT /sink`: reads the body chunk by chunk and answers with a ``SinkReport``.
    /// `POST /relay`: answers 200 at once and sends each part of the request body back as it arrives, so that a
    /// client sees a part of its body come back before it has sent the next.
    static func add(to router: Router<TestRequestContext>) {
        router.post("/relay") { request, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody { writer in
                    for try await buffer in request.body { try await writer.write(buffer) }
                    try await writer.finish(nil)
                }
            )
        }
        for method in [HTTPRequest.Method.post, .put] {
            router.on("/sink", method: method) { request, _ in
                var bytes = 0
                var head = Data()
                var tail = Data()
                for try await buffer in request.body {
                    bytes += buffer.readableBytes
                    let chunk = Data(buffer.readableBytesView)
                    if head.count < keptBytes { head.append(chunk.prefix(keptBytes - head.count)) }
                    tail = (tail + chunk).suffix(keptBytes)
                }
                let report = SinkReport(
                    bytes: bytes,
                    head: head,
                    tail: Data(tail),
                    contentLength: request.headers[.contentLength],
                    transferEncoding: request.headers[.transferEncoding],
                    contentType: request.headers[.contentType]
                )
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(report)))
                )
            }
        }
    }
}
