import Foundation
import NIOCore
import NIOPosix

/// Reads one request at a time off a raw connection and answers it with the fault its path names.
final class FaultHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        /// Collecting the request's head.
        case head
        /// The head is read; `remaining` body bytes are read next, and then `fault` is answered (if `answered` is
        /// false) or the connection closed.
        case body(fault: Fault, remaining: Int, answered: Bool)
        /// The answer is under way or done; whatever else arrives is dropped.
        case answering
    }

    private var state = State.head
    private var received = ByteBuffer()
    /// Whether the request being answered carries `Authorization: Bearer fresh`.
    private var authorized = false
    private let onRequest: (Fault) -> Void

    /// - Parameter onRequest: Told of each request's fault once its head is read.
    init(onRequest: @escaping (Fault) -> Void) {
        self.onRequest = onRequest
    }

    private static let json = "Content-Type: application/json\r\n"
    private static let okHead = "HTTP/1.1 200 OK\r\n\(json)Content-Length: 7\r\n\r\n"
    private static let body = "[1,2,3]"
    private static let maximumHeadSize = 64 * 1024
    /// The spaces before a drip's `[1,2,3]` (JSON allows them): at a byte a second, ten minutes of body.
    private static let dripPadding = 600

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        switch state {
        case .answering:
            // Kept for a connection that stays alive; a client that never stops sending is not kept for.
            if received.readableBytes < Self.maximumHeadSize { received.writeBuffer(&bytes) }
        case .body:
            consumeBody(&bytes, context: context)
        case .head:
            received.writeBuffer(&bytes)
            readHead(context: context)
        }
    }

    private func readHead(context: ChannelHandlerContext) {
        let view = received.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else {
            if received.readableBytes > Self.maximumHeadSize { context.close(promise: nil) }
            return
        }
        let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        received.moveReaderIndex(forwardBy: end.upperBound - view.startIndex)
        var rest = received
        received = ByteBuffer()

        let lines = head.split(separator: "\r\n")
        let target = lines.first?.split(separator: " ").dropFirst().first ?? ""
        let name = target.hasPrefix("/fault/") ? target.dropFirst("/fault/".count) : ""
        let contentLength =
            lines.dropFirst().lazy
            .compactMap { line -> Int? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
            .first ?? 0
        guard let fault = Fault(rawValue: String(name.split(separator: "?").first ?? "")) else {
            state = .answering
            send(
                "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                context: context,
                close: true
            )
            return
        }
        authorized = lines.contains { $0.lowercased() == "authorization: bearer fresh" }
        onRequest(fault)
        if fault == .answerBeforeBody {
            answer(fault, context: context)
        }
        // After an early answer, the body is read and dropped until the client closes, however it is framed.
        let remaining = fault == .answerBeforeBody ? Int.max : contentLength
        state = .body(fault: fault, remaining: remaining, answered: fault == .answerBeforeBody)
        consumeBody(&rest, context: context)
    }

    private func consumeBody(_ bytes: inout ByteBuffer, context: ChannelHandlerContext) {
        guard case .body(let fault, let remaining, let answered) = state else { return }
        let taken = min(remaining, bytes.readableBytes)
        bytes.moveReaderIndex(forwardBy: taken)
        guard remaining == taken else {
            state = .body(fault: fault, remaining: remaining - taken, answered: answered)
            return
        }
        if answered {
            state = .answering
            context.close(promise: nil)
            return
        }
        state = .answering
        received = bytes
        answer(fault, context: context)
    }

    /// Starts over for the next request on a connection kept alive, with what already arrived of it.
    private func nextRequest(context: ChannelHandlerContext) {
        state = .head
        if received.readableBytes > 0 { readHead(context: context) }
    }

    private func answer(_ fault: Fault, context: ChannelHandlerContext) {
        let okHead = Self.okHead
        let body = Self.body
        switch fault {
        case .none:
            send(okHead + body, context: context) { self.nextRequest(context: context) }
        case .staleToken:
            let error = #"{"message":"stale token"}"#
            let rejection =
                "HTTP/1.1 401 Unauthorized\r\n\(Self.json)Content-Length: \(error.utf8.count)\r\n\r\n" + error
            send(authorized ? okHead + body : rejection, context: context) { self.nextRequest(context: context) }
        case .refuse, .silence:
            break
        case .resetBeforeStatusLine:
            reset(context: context)
        case .resetAfterHeaders:
            send(okHead, context: context) { self.reset(context: context, after: .milliseconds(50)) }
        case .resetMidBody:
            send(okHead + "[1,2", context: context) { self.reset(context: context, after: .milliseconds(50)) }
        case .shortBody:
            send(okHead + "[1,2", context: context, close: true)
        case .conflictingContentLengths:
            let head = "HTTP/1.1 200 OK\r\n\(Self.json)Content-Length: 7\r\nContent-Length: 8\r\n\r\n"
            send(head + body + " ", context: context, close: true)
        case .repeatedContentLength:
            let head = "HTTP/1.1 200 OK\r\n\(Self.json)Content-Length: 7\r\nContent-Length: 7\r\n"
            send(head + "Connection: close\r\n\r\n" + body, context: context, close: true)
        case .unplaceablePart:
            let head =
                "HTTP/1.1 206 Partial Content\r\n\(Self.json)Content-Range: bytes 4-20/20\r\nContent-Length: 7\r\n"
            send(head + "Connection: close\r\n\r\n" + body, context: context, close: true)
        case .overflowingPart:
            let head = "HTTP/1.1 206 Partial Content\r\n\(Self.json)Content-Range: bytes 4-10/*\r\n"
            send(head + "Content-Length: \(Int64.max)\r\n\r\n" + body, context: context, close: true)
        case .contentLengthWithChunked:
            let head = "HTTP/1.1 200 OK\r\n\(Self.json)Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
            send(head + "7\r\n\(body)\r\n0\r\n\r\n", context: context, close: true)
        case .invalidChunkSize:
            let head = "HTTP/1.1 200 OK\r\n\(Self.json)Transfer-Encoding: chunked\r\n\r\n"
            send(head + "zz\r\n\(body)\r\n0\r\n\r\n", context: context, close: true)
        case .malformedStatusLine:
            send("HTTP/1.1 2OO OK\r\n\(Self.json)Content-Length: 7\r\n\r\n" + body, context: context, close: true)
        case .invalidHeaderBytes:
            let head = "HTTP/1.1 200 OK\r\nX-B\u{1}d: 1\r\n\(Self.json)Content-Length: 7\r\n\r\n"
            send(head + body, context: context, close: true)
        case .megabyteOfHeaders:
            let field = String(repeating: "a", count: 1_000)
            let fields = (0..<1_000).map { "X-Filler-\($0): \(field)\r\n" }.joined()
            send(
                "HTTP/1.1 200 OK\r\n\(fields)\(Self.json)Content-Length: 7\r\n\r\n" + body,
                context: context,
                close: true
            )
        case .endlessHeader:
            send("HTTP/1.1 200 OK\r\nX-Endless: ", context: context) { self.endlessHeader(context: context, sent: 0) }
        case .corruptGzip:
            // A gzip header, then a deflate block of the reserved type 3, which no inflater accepts.
            let garbage: [UInt8] = [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff, 0x07, 0xff, 0xff, 0xff]
            let head =
                "HTTP/1.1 200 OK\r\n\(Self.json)Content-Encoding: gzip\r\nContent-Length: \(garbage.count)\r\n"
                + "Connection: close\r\n\r\n"
            send(Array(head.utf8) + garbage, context: context, close: true)
        case .informationalFirst:
            let early = "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
            send(early + okHead + body, context: context) { self.nextRequest(context: context) }
        case .answerBeforeBody:
            let error = #"{"message":"too large"}"#
            let head = "HTTP/1.1 413 Content Too Large\r\n\(Self.json)Content-Length: \(error.utf8.count)\r\n"
            send(head + "Connection: close\r\n\r\n" + error, context: context)
        case .closeDelimitedBody:
            send("HTTP/1.0 200 OK\r\n\(Self.json)\r\n" + body, context: context, close: true)
        case .drip:
            let padded = String(repeating: " ", count: Self.dripPadding) + body
            let head = "HTTP/1.1 200 OK\r\n\(Self.json)Content-Length: \(padded.utf8.count)\r\n\r\n"
            send(head, context: context) { self.drip(Array(padded.utf8)[...], context: context) }
        }
    }

    private func send(
        _ text: String,
        context: ChannelHandlerContext,
        close: Bool = false,
        then next: (() -> Void)? = nil
    ) {
        send(Array(text.utf8), context: context, close: close, then: next)
    }

    /// Writes `bytes`; once they are with the kernel, closes the connection or runs `next`.
    private func send(
        _ bytes: [UInt8],
        context: ChannelHandlerContext,
        close: Bool = false,
        then next: (() -> Void)? = nil
    ) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes))).assumeIsolated().whenComplete { result in
            guard case .success = result else { return context.close(promise: nil) }
            if close { context.close(promise: nil) }
            next?()
        }
    }

    /// Closes with `SO_LINGER` at zero, which makes the kernel send a TCP RST instead of a FIN.
    private func reset(context: ChannelHandlerContext, after delay: TimeAmount = .zero) {
        context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            guard let options = context.channel as? any SocketOptionProvider else { return context.close(promise: nil) }
            options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    private func endlessHeader(context: ChannelHandlerContext, sent: Int) {
        let chunk = 16 * 1024
        guard context.channel.isActive, sent < 64 * 1024 * 1024 else { return context.close(promise: nil) }
        context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(10)) {
            self.send(Array(repeating: UInt8(ascii: "a"), count: chunk), context: context) {
                self.endlessHeader(context: context, sent: sent + chunk)
            }
        }
    }

    private func drip(_ bytes: ArraySlice<UInt8>, context: ChannelHandlerContext) {
        guard let byte = bytes.first else { return context.close(promise: nil) }
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) {
            guard context.channel.isActive else { return }
            self.send([byte], context: context) { self.drip(bytes.dropFirst(), context: context) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
