#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request whose answer is collected whole, up to the size limit: AsyncHTTPClient's delegate, the request's one
/// delivery (the answer or a cancel, whichever comes first) and its cancel, in one object. The closures handed to the
/// client and the pipeline capture this object alone, and a closure that captures one object needs no allocation of
/// its own.
final class CollectingDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = TransportResponse

    private let url: URL
    /// The limit as the endpoint gave it.
    private let limit: Int
    private let isHead: Bool
    private let bodyEnd: RequestBodyEnd?
    private let completion: @Sendable (Result<TransportResponse, any Error>) -> Void

    private struct State {
        /// The task to cancel, and whether the outcome was delivered: Courier's one rule for both. The completion is
        /// not kept in here to be taken out: a closure handed out through the lock's generic closure is reabstracted,
        /// an allocation per request. It goes with this object, which the client lets go of when the exchange ends.
        var once = OnceState<HTTPClient.Task<TransportResponse>>()
        var head: HTTPResponseHead?
        var body: ByteBuffer?
        /// How many answers' heads came, redirects included, and the URL of the last when there was more than one.
        var visits = 0
        var redirectedUrl: URL?
    }

    private let state: NIOLockedValueBox<State>

    init(
        url: URL,
        method: HTTPMethod,
        limit: Int,
        bodyEnd: RequestBodyEnd?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        self.url = url
        self.limit = limit
        isHead = method == .HEAD
        self.bodyEnd = bodyEnd
        self.completion = completion
        state = NIOLockedValueBox(State())
    }

    /// Keeps the task for a cancel, or cancels it when the request was cancelled before it started.
    func started(_ task: HTTPClient.Task<TransportResponse>) {
        if case .cancelNow(let task) = state.withLockedValue({ $0.once.attach(task) }) { task.cancel() }
    }

    /// Delivers what the client's future ended with.
    func complete(_ result: Result<TransportResponse, any Error>) {
        end(with: result.mapError { TransportErrors.urlError(for: $0, limit: limit) })
    }

    /// Fails the request as cancelled, at once, and stops its exchange.
    func cancel() {
        let stop = state.withLockedValue { state in
            defer {
                state.head = nil
                state.body = nil
            }
            return state.once.stop()
        }
        if stop.deliver { completion(.failure(URLError(.cancelled))) }
        stop.handle?.cancel()
    }

    /// Delivers `result` unless something was delivered already.
    private func end(with result: Result<TransportResponse, any Error>) {
        let first = state.withLockedValue { state in
            defer {
                state.head = nil
                state.body = nil
            }
            return state.once.deliver()
        }
        if first { completion(result) }
    }

    /// What a `ByteBuffer` can hold: 4 GiB.
    private static let room = Int(UInt32.max)

    /// Every head, a redirect's too (which the client follows without handing it on): with a status of 300 or more,
    /// a streamed body's end is not waited for. After a redirect, the answer is the last URL's, which a cache must
    /// not take for the first's.
    func didVisitURL(task: HTTPClient.Task<TransportResponse>, _ request: HTTPClient.Request, _ head: HTTPResponseHead)
    {
        if head.status.code >= 300 { bodyEnd?.release() }
        state.withLockedValue { state in
            state.visits += 1
            if state.visits > 1 { state.redirectedUrl = request.url }
        }
    }

    func didReceiveHead(task: HTTPClient.Task<TransportResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let announced = HeaderFields.announcedLength(
            contentLength: head.headers.first(name: "Content-Length"),
            contentEncoding: head.headers.first(name: "Content-Encoding")
        )
        if !isHead, let announced {
            do {
                try BodyCollector.check(announced: announced, limit: limit, room: Self.room)
            } catch {
                return task.eventLoop.makeFailedFuture(error)
            }
        }
        let ended = state.withLockedValue { state in
            if !state.once.isOver { state.head = head }
            return state.once.isOver
        }
        return ended
            ? task.eventLoop.makeFailedFuture(HTTPClientError.cancelled)
            : bodyEnd.holding(task.eventLoop.makeSucceededVoidFuture())
    }

    func didReceiveBodyPart(task: HTTPClient.Task<TransportResponse>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        let refusal = state.withLockedValue { state -> (any Error)? in
            // Cancelled (the pipeline's timeout cancels too): the rest of the body goes nowhere.
            guard !state.once.isOver else { return HTTPClientError.cancelled }
            // BodyCollector's rule, on a `ByteBuffer`: the parts are the client's own buffers, kept without a copy.
            do {
                try BodyCollector.check(
                    holding: state.body?.readableBytes ?? 0,
                    adding: part.readableBytes,
                    limit: limit,
                    room: Self.room
                )
            } catch {
                return error
            }
            guard var body = state.body else {
                state.body = part
                return nil
            }
            // Out of the state while it grows, so that the buffer is not copied for being referenced twice.
            state.body = nil
            body.writeImmutableBuffer(part)
            state.body = body
            return nil
        }
        if let refusal { return task.eventLoop.makeFailedFuture(refusal) }
        return bodyEnd.holding(task.eventLoop.makeSucceededVoidFuture())
    }

    func didFinishRequest(task: HTTPClient.Task<TransportResponse>) throws -> TransportResponse {
        let (head, body, redirectedUrl) = state.withLockedValue { state in
            defer {
                state.head = nil
                state.body = nil
            }
            return (state.head, state.body, state.redirectedUrl)
        }
        // AsyncHTTPClient finishes a request only after its head; unless the request ended first, and then what is
        // returned here goes nowhere.
        guard let head else { throw URLError(.badServerResponse) }
        return TransportResponse(
            url: redirectedUrl ?? url,
            statusCode: Int(head.status.code),
            httpVersion: head.version == .http1_1
                ? "HTTP/1.1" : "HTTP/\(head.version.major).\(head.version.minor)",
            fields: head.headers,
            // One copy, straight from the buffer's bytes: `Data(buffer.readableBytesView)` boxes the view first.
            body: body.map { buffer in buffer.withUnsafeReadableBytes { Data($0) } } ?? Data()
        )
    }
}
#endif
