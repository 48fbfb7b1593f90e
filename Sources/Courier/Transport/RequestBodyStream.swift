import Foundation

/// A request body produced while it is sent: the request half of the raw exchange, for a generated OpenAPI client
/// whose body is an async sequence that may be iterated only once.
///
/// Each sending of the request (the first, then each retry or token-refresh replay) reads it through a ``Reader``
/// of its own. A body that can be produced again (``Iteration/repeatable``) is produced anew for each. One that can
/// be produced only once (``Iteration/once``) is kept as it is read, up to `replayLimit` bytes: a sending after the
/// first replays what was kept, and is refused, with a reason the caller sees as
/// ``ApiError/invalidRequest(reason:)``, when the body was larger than that or the sending before did not read it to
/// its end. A body is never read twice from its producer.
package struct RequestBodyStream: Sendable {
    /// Whether the producer can give the body more than once.
    package enum Iteration: Sendable {
        case once
        case repeatable
    }

    /// The body's length, when it is known before it is produced: sent as `Content-Length`, and held to (a body
    /// that ends shorter or runs longer fails the request); `nil` sends it chunked.
    package let length: Int64?
    private let tape: Tape

    /// - Parameters:
    ///   - length: The body's length, or `nil` when it is not known.
    ///   - iteration: Whether `parts` may be called more than once.
    ///   - replayLimit: The most bytes of a ``Iteration/once`` body kept to send again.
    ///   - parts: Makes the sequence of the body's parts.
    package init(
        length: Int64?,
        iteration: Iteration,
        replayLimit: Int,
        parts: @escaping @Sendable () -> AsyncThrowingStream<Data, any Error>
    ) {
        self.length = length
        tape = Tape(iteration: iteration, replayLimit: replayLimit, parts: parts)
    }

    /// A reader for the next sending, or the reason the body cannot be sent again.
    /// - Parameter onPart: Told of each part read, and of the body's end.
    package func reader(onPart: (@Sendable () -> Void)? = nil) throws(InvalidRequestError) -> Reader {
        let source = try tape.source()
        return Reader(length: length, source: source, onPart: onPart)
    }

    /// One sending's way through the body.
    package actor Reader {
        /// The producer (and where what it gives is kept, for a body produced once), or the parts kept, last first.
        fileprivate enum Source {
            case producer(AsyncThrowingStream<Data, any Error>.AsyncIterator, keptIn: Tape?)
            case replay([Data])
        }

        /// The announced length, which the parts must add up to.
        nonisolated package let length: Int64?
        private var source: Source
        private var read: Int64 = 0
        private let onPart: (@Sendable () -> Void)?

        fileprivate init(length: Int64?, source: sending Source, onPart: (@Sendable () -> Void)?) {
            self.length = length
            self.source = source
            self.onPart = onPart
        }

        /// The next part, or `nil` at the end of the body.
        /// - Throws: The producer's error, or ``InvalidRequestError`` when the parts do not add up to ``length``.
        package func next() async throws -> Data? {
            let part: Data?
            switch source {
            case .replay(var parts):
                part = parts.popLast()
                source = .replay(parts)
            case .producer(var iterator, let tape):
                // Skips empty parts: a transport may take an empty write for the end of the body.
                var produced = try await iterator.next(isolation: #isolation)
                while produced?.isEmpty == true { produced = try await iterator.next(isolation: #isolation) }
                // A producer's sequence ends when its reader is cancelled: that is no end of the body.
                if produced == nil { try Task.checkCancellation() }
                source = .producer(iterator, keptIn: tape)
                tape?.keep(produced)
                part = produced
            }
            try check(adding: part)
            onPart?()
            return part
        }

        private func check(adding part: Data?) throws {
            guard let length else { return }
            guard let part else {
                if read < length { throw Self.mismatch(announced: length, reason: "it ended after \(read)") }
                return
            }
            read += Int64(part.count)
            if read > length { throw Self.mismatch(announced: length, reason: "more came") }
        }

        private static func mismatch(announced: Int64, reason: String) -> InvalidRequestError {
            InvalidRequestError(reason: "the request body was announced as \(announced) bytes, but \(reason)")
        }
    }

    /// What a body produced once has given so far, kept for the sendings after the first.
    fileprivate final class Tape: Sendable {
        private struct Kept {
            var readers = 0
            var parts: [Data] = []
            var bytes = 0
            /// Whether `parts` no longer holds all that was read: the body passed the limit.
            var dropped = false
            var ended = false
        }

        private let iteration: Iteration
        private let replayLimit: Int
        private let parts: @Sendable () -> AsyncThrowingStream<Data, any Error>
        private let kept = Locked(Kept())

        init(
            iteration: Iteration,
            replayLimit: Int,
            parts: @escaping @Sendable () -> AsyncThrowingStream<Data, any Error>
        ) {
            self.iteration = iteration
            self.replayLimit = replayLimit
            self.parts = parts
        }

        /// Where the next sending's reader takes the body from.
        func source() throws(InvalidRequestError) -> Reader.Source {
            if case .repeatable = iteration { return .producer(parts().makeAsyncIterator(), keptIn: nil) }
            let replay = kept.withLock { kept -> Result<[Data]?, InvalidRequestError> in
                kept.readers += 1
                guard kept.readers > 1 else { return .success(nil) }
                if kept.dropped {
                    return .failure(
                        InvalidRequestError(
                            reason: "the request body can be produced only once and was larger than the "
                                + "\(replayLimit) bytes kept to send it again, so the request is not sent again"
                        )
                    )
                }
                guard kept.ended else {
                    return .failure(
                        InvalidRequestError(
                            reason: "the request body can be produced only once and its first sending stopped "
                                + "before its end, so the request is not sent again"
                        )
                    )
                }
                return .success(kept.parts)
            }
            switch replay {
            case .success(let parts?): return .replay(parts.reversed())
            case .success(nil): return .producer(self.parts().makeAsyncIterator(), keptIn: self)
            case .failure(let refusal): throw refusal
            }
        }

        func keep(_ part: Data?) {
            kept.withLock { kept in
                guard let part else { return kept.ended = true }
                guard !kept.dropped else { return }
                kept.bytes += part.count
                if kept.bytes > replayLimit {
                    kept.dropped = true
                    kept.parts = []
                } else {
                    kept.parts.append(part)
                }
            }
        }
    }
}
