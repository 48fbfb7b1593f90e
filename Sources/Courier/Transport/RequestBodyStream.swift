import Foundation

/// A request body produced while it is sent: the request half of the raw exchange, for a generated OpenAPI client
/// whose body is an async sequence that may be iterated only once.
///
/// Each sending of the request (the first, then each retry or token-refresh replay) reads it through a ``Reader``
/// of its own. A body that can be produced again (``Iteration/repeatable``) is produced anew for each. One that can
/// be produced only once (``Iteration/once``) is kept as it is read, up to `replayLimit` bytes: a sending after the
/// one that read it replays what was kept, and is refused, with a reason the caller sees as
/// ``ApiError/invalidRequest(reason:)``, when the body was larger than that or that sending stopped before its end.
/// The producer is asked for its first part only when a transport sends the body, so a sending that never got a
/// connection leaves it untouched for the next. A body is never read twice from its producer.
package struct RequestBodyStream: Sendable {
    /// Whether the producer can give the body more than once.
    package enum Iteration: Sendable {
        case once
        case repeatable
    }

    /// Gives the body's next part, or `nil` at its end; called by one reader, one call at a time.
    package typealias Pull = @Sendable () async throws -> Data?

    /// The body's length, when it is known before it is produced: sent as `Content-Length`, and held to (a body
    /// that ends shorter or runs longer fails the request); `nil` sends it chunked.
    package let length: Int64?
    private let tape: Tape

    /// - Parameters:
    ///   - length: The body's length, or `nil` when it is not known.
    ///   - iteration: Whether `parts` may be called more than once.
    ///   - replayLimit: The most bytes of a ``Iteration/once`` body kept to send again.
    ///   - parts: Begins one reading of the body: called once per sending for a repeatable body, at most once for
    ///     one produced once.
    package init(length: Int64?, iteration: Iteration, replayLimit: Int, parts: @escaping @Sendable () -> Pull) {
        self.length = length
        tape = Tape(iteration: iteration, replayLimit: replayLimit, parts: parts)
    }

    /// A reader for the next sending, or the reason the body cannot be sent again.
    /// - Parameter onPart: Told of each part read, and of the body's end.
    package func reader(onPart: (@Sendable () -> Void)? = nil) throws(InvalidRequestError) -> Reader {
        Reader(length: length, source: try tape.source(), onPart: onPart)
    }

    /// One sending's way through the body.
    package actor Reader {
        /// The announced length, which the parts must add up to.
        nonisolated package let length: Int64?
        private var source: Source
        private var read: Int64 = 0
        private var ended = false
        private let onPart: (@Sendable () -> Void)?

        fileprivate init(length: Int64?, source: Source, onPart: (@Sendable () -> Void)?) {
            self.length = length
            self.source = source
            self.onPart = onPart
        }

        /// The next part, or `nil` at the end of the body.
        /// - Throws: The producer's error, ``InvalidRequestError`` when the parts do not add up to ``length`` or a
        ///   body produced once was taken by another sending, or `CancellationError`.
        package func next() async throws -> Data? {
            guard !ended else { return nil }
            let part: Data?
            switch source {
            case .replay(let parts, let index):
                part = index < parts.count ? parts[index] : nil
                source = .replay(parts, next: index + 1)
            case .unopened(let tape):
                let pull = try tape.open()
                source = .producer(pull, keptIn: tape)
                part = try await produce(from: pull, keptIn: tape)
            case .producer(let pull, let tape):
                part = try await produce(from: pull, keptIn: tape)
            }
            try check(adding: part)
            onPart?()
            return part
        }

        private func produce(from pull: Pull, keptIn tape: Tape?) async throws -> Data? {
            // Skips empty parts: a transport may take an empty write for the end of the body.
            var produced = try await pull()
            while produced?.isEmpty == true { produced = try await pull() }
            // A producer may end its parts when its reader is cancelled: that is no end of the body.
            if produced == nil { try Task.checkCancellation() }
            tape?.keep(produced)
            return produced
        }

        private func check(adding part: Data?) throws {
            guard let part else {
                ended = true
                if let length, read < length {
                    throw Self.mismatch(announced: length, reason: "it ended after \(read)")
                }
                return
            }
            read += Int64(part.count)
            guard let length else { return }
            if read > length { throw Self.mismatch(announced: length, reason: "more came") }
            // All the announced bytes are here: the body has ended (kept so, for a replay, even if the sending is
            // stopped before it asks again), and the producer is not asked past it; the next call ends the body.
            if read == length {
                if case .producer(_, let tape) = source { tape?.keep(nil) }
                source = .replay([], next: 0)
            }
        }

        private static func mismatch(announced: Int64, reason: String) -> InvalidRequestError {
            InvalidRequestError(reason: "the request body was announced as \(announced) bytes, but \(reason)")
        }
    }

    /// Where a reader takes the body from.
    fileprivate enum Source: Sendable {
        /// A body produced once, whose producer has not been asked yet.
        case unopened(Tape)
        /// The producer (and where what it gives is kept, for a body produced once).
        case producer(Pull, keptIn: Tape?)
        /// The parts kept from the sending that read the body, from `next` on.
        case replay([Data], next: Int)
    }

    /// What a body produced once has given so far, kept for the sendings after the one that read it.
    fileprivate final class Tape: Sendable {
        private struct Kept {
            var opened = false
            var parts: [Data] = []
            var bytes = 0
            /// Whether `parts` no longer holds all that was read: the body passed the limit.
            var dropped = false
            var ended = false
        }

        private let iteration: Iteration
        private let replayLimit: Int
        private let parts: @Sendable () -> Pull
        private let kept = Locked(Kept())

        init(iteration: Iteration, replayLimit: Int, parts: @escaping @Sendable () -> Pull) {
            self.iteration = iteration
            self.replayLimit = replayLimit
            self.parts = parts
        }

        /// Where the next sending's reader takes the body from.
        func source() throws(InvalidRequestError) -> Source {
            if case .repeatable = iteration { return .producer(parts(), keptIn: nil) }
            let state = kept.withLock { $0 }
            guard state.opened else { return .unopened(self) }
            if state.dropped {
                throw InvalidRequestError(
                    reason: "the request body can be produced only once and was larger than the \(replayLimit) bytes "
                        + "kept to send it again, so the request is not sent again"
                )
            }
            guard state.ended else { throw Self.stoppedEarly }
            return .replay(state.parts, next: 0)
        }

        /// The producer, for the first reader that sends the body; any later one is refused.
        func open() throws(InvalidRequestError) -> Pull {
            let first = kept.withLock { kept in
                defer { kept.opened = true }
                return !kept.opened
            }
            guard first else { throw Self.stoppedEarly }
            return parts()
        }

        func keep(_ part: Data?) {
            kept.withLock { kept in
                guard let part else { return kept.ended = true }
                guard !kept.dropped, !kept.ended else { return }
                kept.bytes += part.count
                if kept.bytes > replayLimit {
                    kept.dropped = true
                    kept.parts = []
                } else {
                    kept.parts.append(part)
                }
            }
        }

        private static let stoppedEarly = InvalidRequestError(
            reason: "the request body can be produced only once and the sending that read it stopped before its end, "
                + "so the request is not sent again"
        )
    }
}
