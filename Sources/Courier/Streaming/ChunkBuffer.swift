import Foundation

/// The parts of a streamed body between the transport and the one task that reads them: up to 1 MiB is held
/// ahead of the reader, then the transport is asked to wait (AsyncHTTPClient waits; URLSession cannot, and the
/// buffer grows as fast as the network delivers).
final class ChunkBuffer: Sendable {
    private struct State {
        var parts: [Data] = []
        var bufferedBytes = 0
        var heldReadMore: (@Sendable () -> Void)?
        /// `nil` while the body goes on; then how it ended.
        var end: Result<Void, any Error>?
        var waiter: CheckedContinuation<Data?, any Error>?
    }

    private let state = Locked(State())
    private let stop: @Sendable () -> Void
    static let highWater = 1 << 20

    /// - Parameter stop: Stops the transfer, when the reader goes away before the end.
    init(stop: @escaping @Sendable () -> Void) {
        self.stop = stop
    }

    /// Whether the transport has been asked to wait for the reader.
    var isHoldingBack: Bool { state.withLock { $0.heldReadMore != nil } }

    func push(_ part: Data, then readMore: @escaping @Sendable () -> Void) {
        let (waiter, readMoreNow) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
            guard state.end == nil else { return (nil, true) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, true)
            }
            state.parts.append(part)
            state.bufferedBytes += part.count
            guard state.bufferedBytes >= Self.highWater else { return (nil, true) }
            state.heldReadMore = readMore
            return (nil, false)
        }
        waiter?.resume(returning: part)
        if readMoreNow { readMore() }
    }

    /// The body has ended, whole or with `error`; parts already here are still read first.
    func finish(throwing error: (any Error)?) {
        let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            defer { state.waiter = nil }
            return state.waiter
        }
        guard let waiter else { return }
        if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
    }

    /// The next part, or `nil` at the end; throws how the body failed. Cancelling the reading task stops the
    /// transfer.
    func next() async throws -> Data? {
        // A part already here is taken without a continuation: a reader that keeps up pays for none.
        if let part = takeBufferedPart() { return part }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                enum Next {
                    case part(Data, (@Sendable () -> Void)?)
                    case end(Result<Void, any Error>)
                    case wait
                }
                let next = state.withLock { state -> Next in
                    if !state.parts.isEmpty {
                        let part = state.parts.removeFirst()
                        state.bufferedBytes -= part.count
                        var readMore: (@Sendable () -> Void)?
                        if state.bufferedBytes < Self.highWater / 2 {
                            readMore = state.heldReadMore
                            state.heldReadMore = nil
                        }
                        return .part(part, readMore)
                    }
                    if let end = state.end { return .end(end) }
                    state.waiter = continuation
                    return .wait
                }
                switch next {
                case .part(let part, let readMore):
                    readMore?()
                    continuation.resume(returning: part)
                case .end(.success):
                    continuation.resume(returning: nil)
                case .end(.failure(let error)):
                    continuation.resume(throwing: error)
                case .wait:
                    break
                }
            }
        } onCancel: {
            cancel()
        }
    }

    private func takeBufferedPart() -> Data? {
        let taken = state.withLock { state -> (Data, (@Sendable () -> Void)?)? in
            guard !state.parts.isEmpty else { return nil }
            let part = state.parts.removeFirst()
            state.bufferedBytes -= part.count
            guard state.bufferedBytes < Self.highWater / 2 else { return (part, nil) }
            defer { state.heldReadMore = nil }
            return (part, state.heldReadMore)
        }
        guard let (part, readMore) = taken else { return nil }
        readMore?()
        return part
    }

    /// The reader is gone: the transfer stops and what is buffered is dropped.
    func cancel() {
        let (waiter, readMore) = state.withLock { state in
            if state.end == nil { state.end = .failure(URLError(.cancelled)) }
            state.parts = []
            state.bufferedBytes = 0
            defer {
                state.waiter = nil
                state.heldReadMore = nil
            }
            return (state.waiter, state.heldReadMore)
        }
        stop()
        readMore?()
        waiter?.resume(throwing: URLError(.cancelled))
    }
}
