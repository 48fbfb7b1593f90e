#if WebSocket
import NIOCore
import NIOWebSocket

/// Answers the server's pings and hands its pongs to the heartbeat, on the connection's event loop, below the task
/// that reads messages: a reader that keeps messages waiting does not keep a ping waiting (a server would take the
/// connection for dead), and a pong counts however many messages are queued before it.
final class ControlFrames: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let heartbeat: Heartbeat?

    init(heartbeat: Heartbeat?) {
        self.heartbeat = heartbeat
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // A control frame in pieces or over 125 bytes is the server's protocol error, which the reading task answers.
        guard frame.fin, frame.length <= 125 else { return context.fireChannelRead(data) }
        switch frame.opcode {
        case .ping:
            // A client masks every frame it sends.
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            heartbeat?.received(pong: frame.unmaskedData)
        default:
            context.fireChannelRead(data)
        }
    }
}
#endif
