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
final class RequestBodyEnd: Sendable {
    private struct State {
        var written: EventLoopFuture<Void>?
        var released = false
    }

    /// The task's event loop, where the body's future completes and the client hears of it.
    let eventLoop: any EventLoop
    private let state = NIOLockedValueBox(State())

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// The body began to stream; `written` completes, on ``eventLoop``, when it has ended or failed.
    func started(_ written: EventLoopFuture<Void>) {
        state.withLockedValue { $0.written = written }
    }

    /// Stops waiting: with a status of 300 or more the client pauses the body, may never end it, and closes the
    /// connection after the response instead.
    func release() {
        state.withLockedValue { $0.released = true }
    }

    /// `consumed`, completed no earlier than the body's end has been taken by the client.
    func holding(_ consumed: EventLoopFuture<Void>) -> EventLoopFuture<Void> {
        let written = state.withLockedValue { $0.released ? nil : $0.written }
        guard let written else { return consumed }
        let held = eventLoop.makePromise(of: Void.self)
        // The client's own callback on `written` runs at once on this loop; `execute` queues after it.
        written.whenComplete { [eventLoop] _ in
            eventLoop.execute { held.completeWith(consumed) }
        }
        return held.futureResult
    }
}
