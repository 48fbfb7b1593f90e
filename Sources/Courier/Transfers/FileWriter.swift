import Foundation

/// Writes one sending's body to a file on a queue of its own, so that neither URLSession's delegate queue nor an
/// event loop waits for the disk; the next part is asked for once the last one is written.
final class FileWriter: Sendable {
    let url: URL
    /// Bytes already in the file before this sending's first (a resumed download).
    let offset: Int64
    /// The whole file's size when the answer announced it, counting `offset`.
    let expectedSize: Int64?
    private let limit: Int64
    private let handle: FileHandle
    /// `nil` to write on the calling thread: a mocked answer is written before the scheduler's `advance` returns.
    private let queue: DispatchQueue?

    private struct State {
        var accepted: Int64 = 0
        var error: (any Error)?
        var closed = false
    }

    private let state = Locked(State())

    init(url: URL, handle: FileHandle, offset: Int64, expectedSize: Int64?, limit: Int64, inline: Bool) {
        queue = inline ? nil : DispatchQueue(label: "Courier.FileWriter")
        self.url = url
        self.handle = handle
        self.offset = offset
        self.expectedSize = expectedSize
        self.limit = limit
    }

    /// Queues `part` for writing; `readMore` runs once it is written. Throws the first write error, or the size
    /// limit as soon as the file would pass it.
    func write(_ part: Data, then readMore: @escaping @Sendable () -> Void) throws {
        try state.withLock { state in
            if let error = state.error { throw error }
            guard offset + state.accepted + Int64(part.count) <= limit else {
                throw ResponseBodyTooLargeError(limit: Int(clamping: limit))
            }
            state.accepted += Int64(part.count)
        }
        run { [self] in
            do {
                try handle.write(contentsOf: part)
            } catch {
                state.withLock { state in
                    if state.error == nil { state.error = FileError(url: url, error: error) }
                }
            }
            readMore()
        }
    }

    /// Closes the file once every queued part is written; `completion` gets the first write error, if any. Only the
    /// first call closes; later ones report the same.
    func close(_ completion: @escaping @Sendable ((any Error)?) -> Void) {
        run { [self] in
            let (error, wasClosed) = state.withLock { state in
                defer { state.closed = true }
                return (state.error, state.closed)
            }
            if !wasClosed { try? handle.close() }
            completion(error)
        }
    }

    private func run(_ work: @escaping @Sendable () -> Void) {
        guard let queue else { return work() }
        queue.async(execute: work)
    }
}
