#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// An exchange whose body goes to a ``ResponseBodyReceiver`` as it arrives, or whose upload is reported: the
/// client reads the next part of the body only once the receiver asks for more, so a slow reader slows the
/// connection instead of filling memory.
final class StreamingDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = TransportResponse

    private let url: URL
    private let receiver: (any ResponseBodyReceiver)?
    private let uploadProgress: (@Sendable (Int64, Int64?) -> Void)?
    private let uploadSize: Int64?
    private let bodyEnd: RequestBodyEnd?
    private let isHead: Bool

    private struct State {
        var sent: Int64 = 0
        var head: HTTPResponseHead?
        var fields: [String: String] = [:]
        /// Without a receiver: the body, collected up to the limit.
        var body: BodyCollector
        /// What the receiver threw, delivered as it is rather than as a transport error.
        var receiverError: (any Error)?
    }

    private let state: NIOLockedValueBox<State>

    init(url: URL, method: HTTPMethod, options: TransportOptions, uploadSize: Int64?, bodyEnd: RequestBodyEnd?) {
        self.url = url
        isHead = method == .HEAD
        receiver = options.responseBodyReceiver
        uploadProgress = options.uploadProgress
        self.uploadSize = uploadSize
        self.bodyEnd = bodyEnd
        state = NIOLockedValueBox(State(body: BodyCollector(limit: options.maximumResponseBodySize)))
    }

    func didSendRequestPart(task: HTTPClient.Task<TransportResponse>, _ part: IOData) {
        guard let uploadProgress else { return }
        let sent = state.withLockedValue { state in
            state.sent += Int64(part.readableBytes)
            return state.sent
        }
        uploadProgress(sent, uploadSize)
    }

    /// Every head, a redirect's too (which the client follows without handing it on): with a status of 300 or more,
    /// a streamed body's end is not waited for.
    func didVisitURL(task: HTTPClient.Task<TransportResponse>, _ request: HTTPClient.Request, _ head: HTTPResponseHead)
    {
        if head.status.code >= 300 { bodyEnd?.release() }
    }

    func didReceiveHead(task: HTTPClient.Task<TransportResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let fields = head.headers.headerFields
        let announced = HeaderFields.contentLength(in: fields)
        do {
            try state.withLockedValue { state in
                state.head = head
                state.fields = fields
                if receiver == nil { try state.body.expect(announced: announced, isHead: isHead) }
            }
            try receiver?.receiveHead(statusCode: Int(head.status.code), headerFields: fields)
        } catch {
            fail(task, because: error)
        }
        return bodyEnd.holding(task.eventLoop.makeSucceededVoidFuture())
    }

    func didReceiveBodyPart(task: HTTPClient.Task<TransportResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard let receiver else {
            let tooLarge = state.withLockedValue { state -> (any Error)? in
                do {
                    try buffer.withUnsafeReadableBytes { try state.body.append(contentsOf: $0) }
                    return nil
                } catch {
                    return error
                }
            }
            if let tooLarge { task.fail(reason: tooLarge) }
            return bodyEnd.holding(task.eventLoop.makeSucceededVoidFuture())
        }
        let readMore = task.eventLoop.makePromise(of: Void.self)
        do {
            try receiver.receive(Self.data(of: buffer)) { readMore.succeed() }
        } catch {
            readMore.succeed()
            fail(task, because: error)
        }
        return bodyEnd.holding(readMore.futureResult)
    }

    /// A part's bytes as `Data`: a large part shares the client's buffer instead of being copied (a copy of every
    /// byte was a third of the client's CPU time for a large stream), a small one is copied, so that a few bytes do
    /// not hold a whole receive buffer (whose storage NIO reuses only once nothing else refers to it).
    private static func data(of buffer: ByteBuffer) -> Data {
        guard buffer.readableBytes >= sharedPartSize else {
            return buffer.withUnsafeReadableBytes { Data($0) }
        }
        return buffer.withUnsafeReadableBytesWithStorageManagement { bytes, storage in
            guard let start = bytes.baseAddress else { return Data() }
            let owner = storage.takeUnretainedValue()
            return Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: start),
                count: bytes.count,
                deallocator: .custom { _, _ in withExtendedLifetime(owner) {} }
            )
        }
    }

    /// The smallest part handed over without a copy.
    private static let sharedPartSize = 16 * 1024

    /// What the receiver threw, if it stopped the exchange.
    var receiverError: (any Error)? { state.withLockedValue { $0.receiverError } }

    private func fail(_ task: HTTPClient.Task<TransportResponse>, because error: any Error) {
        state.withLockedValue { state in
            if state.receiverError == nil { state.receiverError = error }
        }
        task.fail(reason: error)
    }

    func didFinishRequest(task: HTTPClient.Task<TransportResponse>) throws -> TransportResponse {
        let (head, fields, body) = state.withLockedValue { ($0.head, $0.fields, $0.body.body) }
        guard let head else { throw URLError(.badServerResponse) }
        return TransportResponse(
            url: url,
            statusCode: Int(head.status.code),
            httpVersion: "HTTP/\(head.version.major).\(head.version.minor)",
            headerFields: fields,
            body: body
        )
    }
}
#endif
