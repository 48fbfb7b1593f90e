#if AsyncHTTPClient
import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore

/// The end of a streamed request body, which the response's delegate waits for before it lets the client read on.
///
/// AsyncHTTPClient 1.37 finishes a request when it has read the response's end from its buffer, even if the request
/// body's end has not reached it yet; that end is then dropped, and the connection stays leased until the client
/// shuts down (about one upload in four, answered at once, ran a pool of eight out within 40 sequential uploads). The
/// client waits for the body's end correctly when the delegate is still busy with the response, so the delegate's
/// futures complete only once the body has ended, on the task's event loop after the client has taken that end.
///
/// For a second at most: a server that answered before reading the whole body may never take the rest, the client
/// then never ends the body (its pause is dropped when the connection closes), and the answer must not wait for it.
/// Not at all for a status of 300 or more, after which the client closes the connection or follows a redirect.
final class RequestBodyEnd: Sendable {
    private struct State {
        /// Which sending of the body the rest is about: a redirect that keeps the body streams it again.
        var generation = 0
        var written: EventLoopFuture<Void>?
        /// Whether the client has taken the body's end, or the wait was given up.
        var done = false
        var held: [EventLoopPromise<Void>] = []
    }

    /// The task's event loop, where the body's future completes and the client hears of it.
    let eventLoop: any EventLoop
    private let state = NIOLockedValueBox(State())
    static let longestWait = TimeAmount.seconds(1)

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// A body of `length` bytes (`nil`: not known, sent chunked) that `write` streams, with its futures on one of `client`'s event loops, and its end.
    static func streamed(
        length: Int64?,
        by client: HTTPClient,
        _ write: @escaping @Sendable (HTTPClient.Body.StreamWriter, any EventLoop) -> EventLoopFuture<Void>
    ) -> (HTTPClient.Body, RequestBodyEnd) {
        let bodyEnd = RequestBodyEnd(eventLoop: client.eventLoopGroup.next())
        let body = HTTPClient.Body.stream(contentLength: length) { writer in
            let written = write(writer, bodyEnd.eventLoop)
            bodyEnd.started(written)
            return written
        }
        return (body, bodyEnd)
    }

    /// The body began to stream; `written` completes, on ``eventLoop``, when it has ended or failed.
    func started(_ written: EventLoopFuture<Void>) {
        let held = state.withLockedValue { state in
            defer { state = State(generation: state.generation + 1, written: written) }
            return state.held
        }
        for promise in held { promise.succeed() }
    }

    /// Stops waiting for the body's end.
    func release() {
        end(generation: nil)
    }

    /// `consumed`, completed no earlier than the body's end has been taken by the client, or the wait given up.
    func holding(_ consumed: EventLoopFuture<Void>) -> EventLoopFuture<Void> {
        let wait = state.withLockedValue { state -> (EventLoopFuture<Void>, EventLoopPromise<Void>, Int)? in
            guard !state.done, let written = state.written else { return nil }
            let held = eventLoop.makePromise(of: Void.self)
            state.held.append(held)
            return (written, held, state.generation)
        }
        guard let (written, held, generation) = wait else { return consumed }
        // The client's own callback on `written` runs at once on this loop; `execute` queues after it.
        written.whenComplete { [self] _ in
            eventLoop.execute { self.end(generation: generation) }
        }
        eventLoop.scheduleTask(in: Self.longestWait) { self.end(generation: generation) }
        return held.futureResult.flatMap { consumed }
    }

    /// Ends the wait of the sending `generation` (`nil`: whichever is current), for good.
    private func end(generation: Int?) {
        let held = state.withLockedValue { state -> [EventLoopPromise<Void>] in
            guard generation == nil || generation == state.generation else { return [] }
            state.done = true
            defer { state.held = [] }
            return state.held
        }
        for promise in held { promise.succeed() }
    }
}

extension RequestBodyEnd? {
    /// `consumed`, held until a streamed body's end has been taken, or at once when the body is not streamed.
    func holding(_ consumed: EventLoopFuture<Void>) -> EventLoopFuture<Void> {
        self?.holding(consumed) ?? consumed
    }
}
#endif
