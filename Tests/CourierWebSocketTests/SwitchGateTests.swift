#if WebSocket
import NIOCore
import NIOEmbedded
import Testing

@testable import CourierWebSocket

/// What the gate lets through to the HTTP handlers and when, on an `EmbeddedChannel`: the order of events is the claim.
@Suite struct SwitchGateTests {
    static let switching = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n"
    /// A close frame (1000, "bye") from the server, unmasked.
    static let closeFrame: [UInt8] = [0x88, 0x05, 0x03, 0xE8, 0x62, 0x79, 0x65]

    @Test func aFrameReadWithThe101WaitsUntilTheUpgradeIsOver() throws {
        let (channel, gate, seen) = try Self.gatedChannel()
        var bytes = ByteBuffer(string: Self.switching)
        bytes.writeBytes(Self.closeFrame)
        try channel.writeInbound(bytes)
        #expect(seen.reads == [Array(Self.switching.utf8)])
        gate.upgradeEnded()
        channel.embeddedEventLoop.run()
        #expect(seen.reads == [Array(Self.switching.utf8), Self.closeFrame])
        // Gone from the pipeline once it has handed everything on.
        #expect(throws: ChannelPipelineError.notFound) {
            try channel.pipeline.syncOperations.handler(type: SwitchGate.self)
        }
    }

    @Test func theServersEndWaitsBehindWhatCameBeforeIt() throws {
        let (channel, gate, seen) = try Self.gatedChannel()
        try channel.writeInbound(ByteBuffer(string: Self.switching))
        try channel.writeInbound(ByteBuffer(bytes: Self.closeFrame))
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(seen.events == ["read"])
        gate.upgradeEnded()
        // The next event, before the queued task runs, hands on what was held: the connection's handlers may go then.
        channel.pipeline.fireChannelInactive()
        #expect(seen.events == ["read", "read", "inputClosed", "inactive"])
        #expect(seen.reads.last == Self.closeFrame)
    }

    @Test func anAnswerThatDoesNotSwitchPassesThroughWhole() throws {
        let (channel, _, seen) = try Self.gatedChannel()
        let refusal = "HTTP/1.1 401 Unauthorized\r\nContent-Length: 2\r\n\r\n{}"
        try channel.writeInbound(ByteBuffer(string: String(refusal.prefix(10))))
        #expect(seen.reads.isEmpty)
        try channel.writeInbound(ByteBuffer(string: String(refusal.dropFirst(10))))
        #expect(seen.reads == [Array(refusal.utf8)])
        try channel.writeInbound(ByteBuffer(string: "more"))
        #expect(seen.reads.last == Array("more".utf8))
    }

    @Test func theServersEndBeforeAnyAnswerFailsTheUpgradeAndCloses() throws {
        let (channel, _, seen) = try Self.gatedChannel()
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 1"))
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(seen.errors == [.eof])
        #expect(!channel.isActive)
    }

    private static func gatedChannel() throws -> (EmbeddedChannel, SwitchGate, Seen) {
        let gate = SwitchGate()
        let seen = Seen()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(gate)
        try channel.pipeline.syncOperations.addHandler(seen)
        return (channel, gate, seen)
    }
}

/// The events that reached the handler behind the gate, in order.
private final class Seen: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    var reads: [[UInt8]] = []
    var events: [String] = []
    var errors: [ChannelError?] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        reads.append(Array(unwrapInboundIn(data).readableBytesView))
        events.append("read")
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { events.append("inputClosed") }
    }

    func channelInactive(context: ChannelHandlerContext) {
        events.append("inactive")
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        errors.append(error as? ChannelError)
    }
}
#endif
