import NIOCore
import NIOHTTP1
import NIOPosix

/// A loopback server that answers every request with `200` and the JSON `[]`, entirely on NIO's event loop threads.
///
/// For the one test that blocks every thread of Swift concurrency's pool: the Hummingbird test server handles its
/// requests in tasks on that pool and would stall with it.
struct EventLoopServer {
    let channel: any Channel

    var port: Int { channel.localAddress?.port ?? 0 }

    static func start() async throws -> EventLoopServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(EmptyListAnswer())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return EventLoopServer(channel: channel)
    }

    func stop() async throws {
        try await channel.close()
    }
}

private final class EmptyListAnswer: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: "2")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))),
            promise: nil
        )
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "[]")))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
