import Foundation
import Hummingbird

/// Answers that arrive slowly or grow large: for timeouts and body size limits.
enum StreamingRoutes {
    /// `GET /drip?bytes=&intervalMs=`: one byte per interval, without a length up front. A client that leaves is
    /// noticed at the next byte only: an interval of minutes holds the route until then, or until the server stops.
    /// `GET /bytes?count=&announce=`: `count` bytes, with a `Content-Length` unless `announce=false`.
    static func add(to router: Router<TestRequestContext>) {
        router.get("/drip") { request, _ in
            let bytes = Int(request.uri.queryParameters["bytes"] ?? "") ?? 1_000
            let interval = Int(request.uri.queryParameters["intervalMs"] ?? "") ?? 100
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody { writer in
                    for _ in 0..<bytes {
                        try await writer.write(ByteBuffer(string: "."))
                        try await Task.sleep(for: .milliseconds(interval))
                    }
                    try await writer.finish(nil)
                }
            )
        }
        // What GET /bytes would announce, without the body: a HEAD answer's length is the GET answer's.
        router.head("/bytes") { request, _ in
            let count = Int(request.uri.queryParameters["count"] ?? "") ?? 0
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: count) { writer in try await writer.finish(nil) }
            )
        }
        router.get("/bytes") { request, _ in
            let count = Int(request.uri.queryParameters["count"] ?? "") ?? 0
            let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: min(count, 1 << 16))
            let write: @Sendable (inout any ResponseBodyWriter) async throws -> Void = { writer in
                var left = count
                while left > 0 {
                    try await writer.write(chunk.getSlice(at: 0, length: min(left, chunk.readableBytes)) ?? chunk)
                    left -= min(left, chunk.readableBytes)
                }
                try await writer.finish(nil)
            }
            let body =
                request.uri.queryParameters["announce"] == "false"
                ? ResponseBody { writer in try await write(&writer) }
                : ResponseBody(contentLength: count) { writer in try await write(&writer) }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }
    }
}
