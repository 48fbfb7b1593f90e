#if canImport(CCourierCurl)
import Foundation

/// A request body produced while it is sent: libcurl's read callback takes what the producer has handed over, and
/// the upload waits (`CURL_READFUNC_PAUSE`) while the producer makes the next part, so a producer never runs ahead of
/// the connection.
///
/// The parts are read in a task of their own, one part at a time; the engine's thread copies them out. Both sides
/// meet under a lock.
final class CurlProducedBody: @unchecked Sendable {
    /// What the read callback gets.
    enum Read {
        case bytes(Int)
        case end
        /// The producer is making the next part: libcurl waits until `whenReady` runs.
        case notYet
        case failed(any Error)
    }

    private let reader: RequestBodyStream.Reader
    private let lock = NSLock()
    /// Guarded by `lock`: the part being copied out and how far.
    private var part = Data()
    private var offset = 0
    private var finished = false
    private var failure: (any Error)?
    private var producing: Task<Void, Never>?
    private var stopped = false
    /// Guarded by `lock`: whether libcurl has asked for the body yet.
    private var began = false

    /// The announced length, or `nil` to send the body chunked.
    var length: Int64? { reader.length }

    init(_ reader: RequestBodyStream.Reader) {
        self.reader = reader
    }

    /// Copies what the producer has handed over into `buffer`, or asks it for the next part, after which
    /// `whenReady` runs (on the producer's task).
    func read(into buffer: UnsafeMutableRawBufferPointer, whenReady: @escaping @Sendable () -> Void) -> Read {
        lock.withLock { () -> Read in
            began = true
            if offset < part.count {
                let count = min(buffer.count, part.count - offset)
                part.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
                offset += count
                return .bytes(count)
            }
            if let failure { return .failed(failure) }
            if finished { return .end }
            guard producing == nil, !stopped else { return .notYet }
            let reader = reader
            producing = Task { [weak self] in
                let next: Result<Data?, any Error>
                do {
                    next = .success(try await reader.next())
                } catch {
                    next = .failure(error)
                }
                self?.take(next)
                whenReady()
            }
            return .notYet
        }
    }

    private func take(_ next: Result<Data?, any Error>) {
        lock.withLock {
            producing = nil
            switch next {
            case .success(let data?): (part, offset) = (data, 0)
            case .success(nil): finished = true
            case .failure(let error): failure = error
            }
        }
    }

    /// Whether libcurl has asked for the body.
    var hasBegun: Bool { lock.withLock { began } }

    /// Whether the body can start over at `offset`: only before libcurl has asked for any of it.
    func canRestart(at offset: Int64) -> Bool {
        lock.withLock { offset == 0 && !began }
    }

    /// Stops asking the producer: the exchange has ended.
    func stop() {
        let task = lock.withLock {
            stopped = true
            return producing
        }
        task?.cancel()
    }

    static let resendRefusal = InvalidRequestError(
        reason: "the request body was produced while it was sent and cannot be sent again to follow a redirect"
    )
}
#endif
