#if AsyncHTTPClient && OpenAPI
import Foundation
import Hummingbird
import HummingbirdCore
import Logging

/// The loopback server, run in a process of its own so that it does not share the client's cores' scheduling.
enum BenchServer {
    /// - Parameter server: How connections are served: plain HTTP/1.1 by default, or HTTPS.
    static func run(server: HTTPServerBuilder = .http1()) async throws {
        let router = Router()
        router.get("/tiny") { _, _ in response(Bodies.tiny) }
        router.get("/items/1k") { _, _ in response(Bodies.oneKilobyte) }
        router.get("/items/1m") { _, _ in response(Bodies.oneMegabyte) }
        // The same kilobyte with a validator, revalidated on every use: `304` when the client names its `ETag`.
        router.get("/validated/1k") { request, _ in
            guard request.headers[.ifNoneMatch] == "\"1\"" else {
                var full = response(Bodies.oneKilobyte)
                full.headers[.eTag] = "\"1\""
                full.headers[.cacheControl] = "no-cache"
                return full
            }
            return Response(status: .notModified, headers: [.eTag: "\"1\"", .cacheControl: "no-cache"])
        }
        router.get("/stream/{bytes}") { _, context in
            let count = Int(context.parameters.get("bytes") ?? "") ?? 0
            let part = ByteBuffer(repeating: UInt8(ascii: "x"), count: 64 * 1024)
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: count) { writer in
                    var left = count
                    while left > 0 {
                        let length = min(left, part.readableBytes)
                        try await writer.write(part.getSlice(at: 0, length: length) ?? part)
                        left -= length
                    }
                    try await writer.finish(nil)
                }
            )
        }
        var logger = Logger(label: "bench-server")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in
                FileHandle.standardOutput.write(Data("port \(channel.localAddress?.port ?? 0)\n".utf8))
            },
            logger: logger
        )
        try await app.run()
    }

    private static func response(_ body: Data) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
#endif
