#if WebSocket
import Courier
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads the answer to an upgrade request that the server did not switch: its head and its body, up to the
/// endpoint's limit, so that the refusal decodes as a request's answer would.
final class RefusalReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let limit: Int
    private let promise: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    /// A promise is completed once: the first of the end, a failure and the connection's close decides.
    private var completed = false

    init(limit: Int, eventLoop: any EventLoop) {
        self.limit = limit
        promise = eventLoop.makePromise()
    }

    /// The answer, once its end has come.
    var answer: EventLoopFuture<(HTTPResponseHead, ByteBuffer)> { promise.futureResult }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var part):
            guard body.readableBytes + part.readableBytes <= limit else {
                complete(.failure(ResponseBodyTooLargeError(limit: limit)))
                context.close(promise: nil)
                return
            }
            body.writeBuffer(&part)
        case .end:
            guard let head else { return complete(.failure(URLError(.badServerResponse))) }
            complete(.success((head, body)))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Closed before the end of the answer.
        complete(.failure(URLError(.networkConnectionLost)))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        complete(.failure(error))
        context.close(promise: nil)
    }

    private func complete(_ result: Result<(HTTPResponseHead, ByteBuffer), any Error>) {
        guard !completed else { return }
        completed = true
        promise.completeWith(result)
    }
}
#endif
