import CourierTestServer
import Foundation
import HTTPTypes
import HummingbirdWebSocket
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// What each upgrade path does (see ``WebSocketTestServer``).
enum WebSocketRoutes {
    typealias Handler = WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>

    static func upgrade(
        _ request: HTTPRequest,
        channel: any Channel,
        log: UpgradeLog
    ) async throws -> ShouldUpgradeResult<Handler> {
        let components = URLComponents(string: request.path ?? "/")
        let path = components?.path ?? "/"
        let query = Dictionary((components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { _, last in last }
        // HTTPTypes keeps `Host` as the request's authority.
        var headers: [String: String] = request.authority.map { ["host": $0] } ?? [:]
        for field in request.headerFields {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        await log.record(ReceivedUpgrade(path: path, query: query, headers: headers))
        switch path {
        case "/ws/echo": return .upgrade([:], echo(closingAfter: query["count"].flatMap { Int($0) }))
        case "/ws/push": return .upgrade([:], push(count: Int(query["count"] ?? "") ?? 1))
        case "/ws/close":
            let code = WebSocketErrorCode(codeNumber: Int(query["code"] ?? "") ?? 1000)
            return .upgrade([:]) { _, outbound, _ in try await outbound.close(code, reason: query["reason"]) }
        case "/ws/drop":
            return .upgrade([:]) { _, outbound, _ in
                try await outbound.write(.text(#"{"number":1}"#))
                try await channel.close()
            }
        case "/ws/large":
            let size = Int(query["size"] ?? "") ?? 0
            return .upgrade([:]) { inbound, outbound, _ in
                try await outbound.writeBinaryMessage(ByteBuffer(bytes: (0..<size).map { UInt8($0 % 251) }))
                for try await _ in inbound {}
            }
        case "/ws/stray-continuation":
            return .upgrade([:]) { inbound, outbound, _ in
                try await outbound.write(
                    .custom(WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(string: "x")))
                )
                for try await _ in inbound {}
            }
        case "/ws/not-utf8":
            return .upgrade([:]) { inbound, outbound, _ in
                try await outbound.write(
                    .custom(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: [0xC3, 0x28])))
                )
                for try await _ in inbound {}
            }
        case "/ws/ping":
            let after = Int(query["after"] ?? "") ?? 0
            return .upgrade([:]) { inbound, outbound, _ in
                try await recordPongs(on: channel, into: log)
                for number in 0..<after { try await outbound.write(.text(#"{"number":\#(number + 1)}"#)) }
                let ping = WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "are you there"))
                try await outbound.write(.custom(ping))
                for try await _ in inbound {}
            }
        case "/ws/deaf":
            // Reads nothing, so answers no ping and no close, until the client drops the connection.
            return .upgrade([:]) { _, _, _ in try await channel.closeFuture.get() }
        case "/ws/hang-up":
            // Closes the connection without a word, as a proxy that drops an upgrade can.
            try await channel.close()
            return .dontUpgrade
        case "/ws/drops":
            let number = await log.received.filter { $0.path == "/ws/drops" }.count
            guard number > Int(query["count"] ?? "") ?? 1 else {
                return .upgrade([:], dropping(connection: number, closingWith: query["code"], on: channel, log: log))
            }
            if let status = query["refuse"].flatMap({ Int($0) }) {
                try await refuse(channel, status: status, message: "not now")
                return .dontUpgrade
            }
            return .upgrade([:], answering(connection: number, log: log))
        case "/ws/refuse":
            let status = Int(query["status"] ?? "") ?? 400
            try await refuse(channel, status: status, message: "refused")
            return .dontUpgrade
        case "/ws/protected":
            guard headers["authorization"] == "Bearer \(query["accept"] ?? "")" else {
                try await refuse(channel, status: 401, message: "bad token")
                return .dontUpgrade
            }
            return .upgrade([:], echo(closingAfter: nil))
        default:
            return .dontUpgrade
        }
    }

    /// Sends back each message; after `count` of them, closes with 1000 "done".
    private static func echo(closingAfter count: Int?) -> Handler {
        { inbound, outbound, _ in
            var echoed = 0
            for try await message in inbound.messages(maxSize: 1 << 24) {
                switch message {
                case .text(let text): try await outbound.writeTextMessage(text)
                case .binary(let bytes): try await outbound.writeBinaryMessage(bytes)
                }
                echoed += 1
                if echoed == count { return try await outbound.close(.normalClosure, reason: "done") }
            }
        }
    }

    /// Records the first message as `"<connection> <text>"`, answers it with `{"number":<connection>}`, and then
    /// closes with `code`, or drops the connection without a close frame when there is none.
    private static func dropping(
        connection: Int,
        closingWith code: String?,
        on channel: any Channel,
        log: UpgradeLog
    ) -> Handler {
        { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
            guard case .text(let text) = try await messages.next() else { return }
            await log.recordMessage("\(connection) \(text)")
            try await outbound.writeTextMessage(#"{"number":\#(connection)}"#)
            if let code = code.flatMap({ Int($0) }) {
                try await outbound.close(WebSocketErrorCode(codeNumber: code), reason: "come back")
            } else {
                try await channel.close()
            }
        }
    }

    /// Records each text message as `"<connection> <text>"` and answers it with `{"number":<connection>}`.
    private static func answering(connection: Int, log: UpgradeLog) -> Handler {
        { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 1 << 16) {
                guard case .text(let text) = message else { continue }
                await log.recordMessage("\(connection) \(text)")
                try await outbound.writeTextMessage(#"{"number":\#(connection)}"#)
            }
        }
    }

    private static func push(count: Int) -> Handler {
        { _, outbound, _ in
            for number in 1...max(count, 1) { try await outbound.write(.text(#"{"number":\#(number)}"#)) }
            try await outbound.close(.normalClosure, reason: "done")
        }
    }

    /// Records the payload of each pong the client sends on `channel`, as it arrives, before the WebSocket handler's
    /// reading (which takes pongs in without telling).
    private static func recordPongs(on channel: any Channel, into log: UpgradeLog) async throws {
        try await channel.eventLoop.submit {
            let decoder = try channel.pipeline.syncOperations.handler(
                type: ByteToMessageHandler<WebSocketFrameDecoder>.self
            )
            try channel.pipeline.syncOperations.addHandler(PongRecorder(log: log), position: .after(decoder))
        }.get()
    }

    /// Answers the upgrade request with `status` and a JSON body, and closes the connection: hummingbird-websocket
    /// answers every refused upgrade with an empty `400`, where an API says why, as this one does. Written below
    /// the response encoder, as bytes, since the connection is still the upgrade handler's.
    private static func refuse(_ channel: any Channel, status: Int, message: String) async throws {
        let body = #"{"code":\#(status),"message":"\#(message)"}"#
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        let head =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n"
        try await channel.eventLoop.flatSubmit {
            do {
                let encoder = try channel.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
                return encoder.writeAndFlush(NIOAny(ByteBuffer(string: head + body))).flatMap { channel.close() }
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }.get()
    }
}

/// Passes every frame on, and tells the log the payload of each pong.
final class PongRecorder: ChannelInboundHandler, Sendable {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private let log: UpgradeLog

    init(log: UpgradeLog) {
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if frame.opcode == .pong {
            let payload = String(buffer: frame.unmaskedData)
            Task { await log.recordPong(payload) }
        }
        context.fireChannelRead(data)
    }
}
