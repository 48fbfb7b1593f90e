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
/// delivery (the answer, the timeout or a cancel, whichever comes first) and its cancel, in one object. The closures
/// handed to the client, the timer and the pipeline capture this object alone, and a closure that captures one object
/// needs no allocation of its own.
final class CollectingDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = TransportResponse

    private let url: URL
    /// The limit as the endpoint gave it, for the error.
    private let limit: Int
    /// The limit as far as a `ByteBuffer` can hold (4 GiB).
    private let collectable: Int
    private let isHead: Bool

    private struct State {
        /// Taken out, by swapping rather than as the lock closure's result, when the outcome is delivered: a closure
        /// handed out through the lock's generic result is reabstracted, an allocation per request. A timeout's timer
        /// keeps this object until it fires, but not the completion and what it holds.
        var completion: (@Sendable (Result<TransportResponse, any Error>) -> Void)?
        var task: HTTPClient.Task<TransportResponse>?
        var head: HTTPResponseHead?
        var body: ByteBuffer?
    }

    private let state: NIOLockedValueBox<State>

    init(
        url: URL,
        method: HTTPMethod,
        limit: Int,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        self.url = url
        self.limit = limit
        collectable = min(limit, Int(UInt32.max))
        isHead = method == .HEAD
        state = NIOLockedValueBox(State(completion: completion))
    }

    /// Keeps the task for a cancel or a timeout, unless the request has ended already.
    func started(_ task: HTTPClient.Task<TransportResponse>) {
        state.withLockedValue { state in
            if state.completion != nil { state.task = task }
        }
    }

    /// Delivers what the client's future ended with.
    func complete(_ result: Result<TransportResponse, any Error>) {
        _ = end(with: result.mapError { TransportErrors.urlError(for: $0, limit: limit) })
    }

    /// Fails the request as cancelled, at once, and stops its exchange.
    func cancel() {
        end(with: .failure(URLError(.cancelled)))?.cancel()
    }

    /// Fails the request as timed out, at once, and stops its exchange.
    func timeOut() {
        end(with: .failure(URLError(.timedOut)))?.cancel()
    }

    /// Delivers `result` unless something was delivered already.
    /// - Returns: The task to stop, when this call delivered and the exchange may still be running.
    private func end(with result: Result<TransportResponse, any Error>) -> HTTPClient.Task<TransportResponse>? {
        var completion: (@Sendable (Result<TransportResponse, any Error>) -> Void)?
        let task = state.withLockedValue { state in
            swap(&completion, &state.completion)
            defer {
                state.task = nil
                state.head = nil
                state.body = nil
            }
            return state.task
        }
        guard let completion else { return nil }
        completion(result)
        return task
    }

    /// Whether the outcome was delivered: whatever still arrives is not kept.
    private var hasEnded: Bool {
        state.withLockedValue { $0.completion == nil }
    }

    func didReceiveHead(task: HTTPClient.Task<TransportResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if !isHead, let announced = head.headers.first(name: "Content-Length").flatMap({ Int($0) }),
            announced > collectable
        {
            return task.eventLoop.makeFailedFuture(ResponseBodyTooLargeError(limit: limit))
        }
        let ended = state.withLockedValue { state in
            if state.completion != nil { state.head = head }
            return state.completion == nil
        }
        return ended
            ? task.eventLoop.makeFailedFuture(HTTPClientError.cancelled) : task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<TransportResponse>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = state.withLockedValue { state in
            // Cancelled or timed out: the rest of the body goes nowhere.
            guard state.completion != nil else { return false }
            guard var body = state.body else {
                state.body = part
                return part.readableBytes <= collectable
            }
            guard body.readableBytes + part.readableBytes <= collectable else { return false }
            // Out of the state while it grows, so that the buffer is not copied for being referenced twice.
            state.body = nil
            body.writeImmutableBuffer(part)
            state.body = body
            return true
        }
        guard fits else {
            let error: any Error = hasEnded ? HTTPClientError.cancelled : ResponseBodyTooLargeError(limit: limit)
            return task.eventLoop.makeFailedFuture(error)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<TransportResponse>) throws -> TransportResponse {
        let (head, body) = state.withLockedValue { state in
            defer {
                state.head = nil
                state.body = nil
            }
            return (state.head, state.body)
        }
        // AsyncHTTPClient finishes a request only after its head; unless the request ended first, and then what is
        // returned here goes nowhere.
        guard let head else { throw URLError(.badServerResponse) }
        return TransportResponse(
            url: url,
            statusCode: Int(head.status.code),
            httpVersion: head.version == .http1_1
                ? "HTTP/1.1" : "HTTP/\(head.version.major).\(head.version.minor)",
            fields: head.headers,
            // One copy, straight from the buffer's bytes: `Data(buffer.readableBytesView)` boxes the view first.
            body: body.map { buffer in buffer.withUnsafeReadableBytes { Data($0) } } ?? Data()
        )
    }
}
