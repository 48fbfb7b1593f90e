#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import NIOConcurrencyHelpers
import NIOCore

/// A request body produced while it is sent (``TransportOptions``' `requestBody`), written to the client part by
/// part, each once the client has taken the one before: a producer never runs ahead of the connection.
///
/// The parts are read in a task of their own, the one place this transport uses Swift concurrency: only the raw
/// exchange, an `async` door, sends such a body. The task ends with the exchange (``stop()``), so that a producer
/// the server stopped reading is not read on.
final class ProducedBody: Sendable {
    private struct State {
        /// The task that writes the parts, and whether the exchange ended (stopped) before or while it ran.
        var writing = OnceState<Task<Void, Never>>()
        var began = false
    }

    private let reader: RequestBodyStream.Reader
    private let state = NIOLockedValueBox(State())

    /// The body's announced length, or `nil` to send it chunked.
    var length: Int64? { reader.length }

    init(_ reader: RequestBodyStream.Reader) {
        self.reader = reader
    }

    /// Writes the body to `writer`; the future, on `eventLoop`, fails with the producer's error or the client's.
    func write(to writer: HTTPClient.Body.StreamWriter, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let written = eventLoop.makePromise(of: Void.self)
        let begins = state.withLockedValue { state -> Bool in
            defer { state.began = true }
            return !state.began && !state.writing.isOver
        }
        guard begins else {
            // Stopped, or asked again by a redirect that keeps the body: what was produced is gone.
            written.fail(Self.redirectRefusal)
            return written.futureResult
        }
        let reader = reader
        let task = Task {
            do {
                while let part = try await reader.next() {
                    try await writer.write(.byteBuffer(ByteBuffer(bytes: part))).get()
                }
                written.succeed()
            } catch {
                written.fail(error)
            }
        }
        if case .cancelNow(let task) = state.withLockedValue({ $0.writing.attach(task) }) { task.cancel() }
        return written.futureResult
    }

    /// Stops reading the producer: the exchange has ended.
    func stop() {
        state.withLockedValue { $0.writing.cancel() }?.cancel()
    }

    static let redirectRefusal = InvalidRequestError(
        reason: "the request body was produced while it was sent and cannot be sent again to follow a redirect"
    )
}
#endif
