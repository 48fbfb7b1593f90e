#if WebSocket
import NIOCore

/// Holds back what the server sends after a `101` head until the connection speaks WebSocket.
///
/// A server that writes a message or a close frame right after switching often has it read together with the `101`;
/// SwiftNIO's upgrade handler loses such bytes (they are left in the HTTP decoder while it is removed mid-read). So
/// only the head reaches the HTTP handlers; the rest, and the end of the server's side, wait until the upgrade
/// handler has left (`upgradeEnded()`). The connection allows a half-closure, so that a server that closes right
/// after its close frame does not take the connection's handlers away before the upgrade is over. An answer that
/// does not switch passes through whole, and the gate leaves.
final class SwitchGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The most a head may take before the gate gives up looking for its end, and lets the HTTP decoder judge it.
    private static let headLimit = 1 << 16

    private enum State {
        /// Gathering the head.
        case reading(ByteBuffer)
        /// The head was a `101`: holding what came after it, and how the connection has ended since.
        case holding(ByteBuffer, ended: End)
        case open
    }

    private struct End {
        var inputClosed = false
        var inactive = false
    }

    private var state = State.reading(ByteBuffer())
    /// Whether the upgrade handler has given its outcome: it leaves the pipeline before the next event.
    private var upgradeDone = false
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        switch state {
        case .reading(var gathered):
            gathered.writeBuffer(&bytes)
            guard let headEnd = Self.headEnd(in: gathered) else {
                if gathered.readableBytes > Self.headLimit { return passThrough(gathered, context: context) }
                state = .reading(gathered)
                return
            }
            guard Self.switches(gathered) else { return passThrough(gathered, context: context) }
            let head = gathered.readSlice(length: headEnd) ?? ByteBuffer()
            state = .holding(gathered, ended: End())
            context.fireChannelRead(wrapInboundOut(head))
        case .holding(var held, let ended):
            held.writeBuffer(&bytes)
            state = .holding(held, ended: ended)
            if upgradeDone { open() }
        case .open:
            context.fireChannelRead(data)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case ChannelEvent.inputClosed = event else { return context.fireUserInboundEventTriggered(event) }
        switch state {
        case .reading:
            // The server ended its side before a whole head: no answer will come, and the connection is only
            // half-closed, so nothing else would end the upgrade.
            context.fireErrorCaught(ChannelError.eof)
            context.close(promise: nil)
        case .holding(let held, var ended):
            ended.inputClosed = true
            state = .holding(held, ended: ended)
            if upgradeDone { open() }
        case .open:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        guard case .holding(let held, var ended) = state else { return context.fireChannelInactive() }
        ended.inactive = true
        state = .holding(held, ended: ended)
        // The connection's handlers are removed once this event is over: what was held must be handed on now. (Before
        // the upgrade is over it is lost: the connection was reset, for the server has only half-closed it otherwise.)
        if upgradeDone { open() }
    }

    /// The upgrade handler has its outcome (the WebSocket handlers are in place, or the switch failed) and leaves
    /// before the channel's next event. Called on the channel's event loop, from that outcome's callback.
    func upgradeEnded() {
        upgradeDone = true
        context?.eventLoop.assumeIsolated().execute { self.open() }
    }

    /// Hands on what was held, then leaves.
    private func open() {
        guard let context, case .holding(let held, let ended) = state else { return }
        state = .open
        if held.readableBytes > 0 {
            context.fireChannelRead(wrapInboundOut(held))
            context.fireChannelReadComplete()
        }
        if ended.inputClosed { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
        if ended.inactive { context.fireChannelInactive() }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func passThrough(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        state = .open
        context.fireChannelRead(wrapInboundOut(bytes))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// The length of the head, its blank line included, once it has all come.
    private static func headEnd(in buffer: ByteBuffer) -> Int? {
        let bytes = buffer.readableBytesView
        guard bytes.count >= 4 else { return nil }
        var index = bytes.startIndex
        while index <= bytes.endIndex - 4 {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                return index - bytes.startIndex + 4
            }
            index += 1
        }
        return nil
    }

    /// Whether the status line says `101`: `HTTP/1.1 101 Switching Protocols`.
    private static func switches(_ buffer: ByteBuffer) -> Bool {
        let statusLine = buffer.readableBytesView.prefix { $0 != 13 }
        let fields = statusLine.split(separator: 32, maxSplits: 2)
        return fields.count >= 2 && fields[1].elementsEqual("101".utf8)
    }
}
#endif
