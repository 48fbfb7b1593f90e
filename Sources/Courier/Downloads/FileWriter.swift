import Foundation

/// Writes one sending's body to a file on a queue of its own, so that neither URLSession's delegate queue nor an
/// event loop waits for the disk. Parts are gathered into writes of 1 MiB (the network delivers 16-64 KiB at a
/// time, and a write call per part made the disk the slower side). The network goes on while one such write is
/// under way and is held back only when a second is full behind it, so that receiving and writing overlap and, over
/// a transport that waits for `readMore` (AsyncHTTPClient), at most 3 MiB wait in memory. URLSession cannot wait:
/// there batches queue as fast as the network delivers.
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

    private static let writeSize = 1 << 20

    private struct State {
        var accepted: Int64 = 0
        /// Parts not yet handed to the queue.
        var pending = Data()
        /// Batches handed to the queue and not yet written.
        var batchesWriting = 0
        /// The transport's go-aheads, held while two batches are being written (more than one only from a transport
        /// that goes on without waiting for them).
        var heldReadMore: [@Sendable () -> Void] = []
        var error: (any Error)?
        var closed = false
    }

    private let state = Locked(State())

    /// Whether the transport is being held back for the disk: the server's silence then is not its own.
    var isHoldingBack: Bool { state.withLock { !$0.heldReadMore.isEmpty } }

    init(url: URL, handle: FileHandle, offset: Int64, expectedSize: Int64?, limit: Int64, inline: Bool) {
        queue = inline ? nil : DispatchQueue(label: "Courier.FileWriter")
        self.url = url
        self.handle = handle
        self.offset = offset
        self.expectedSize = expectedSize
        self.limit = limit
    }

    /// Queues `part` for writing; `readMore` runs at once, or, when two batches wait for the disk, once the first
    /// of them is written. Throws the first write error, or the size limit as soon as the file would pass it.
    func write(_ part: Data, then readMore: @escaping @Sendable () -> Void) throws {
        let (batch, readMoreNow) = try state.withLock { state -> (Data?, Bool) in
            if let error = state.error { throw error }
            guard offset + state.accepted + Int64(part.count) <= limit else {
                throw ResponseBodyTooLargeError(limit: Int(clamping: limit))
            }
            state.accepted += Int64(part.count)
            if state.pending.isEmpty { state.pending.reserveCapacity(Self.writeSize) }
            state.pending.append(part)
            guard state.pending.count >= Self.writeSize else { return (nil, true) }
            defer { state.pending = Data() }
            state.batchesWriting += 1
            guard state.batchesWriting > 1 else { return (state.pending, true) }
            state.heldReadMore.append(readMore)
            return (state.pending, false)
        }
        if let batch { flush(batch) }
        if readMoreNow { readMore() }
    }

    private func flush(_ data: Data) {
        run { [self] in
            // A part that arrived after the file was closed (a transfer being stopped) is dropped: writing to a
            // closed handle would trap.
            if !state.withLock({ $0.closed }) {
                do {
                    try handle.write(contentsOf: data)
                } catch {
                    state.withLock { state in
                        if state.error == nil { state.error = FileError(url: url, error: error) }
                    }
                }
            }
            let held = state.withLock { state in
                state.batchesWriting -= 1
                defer { state.heldReadMore = [] }
                return state.heldReadMore
            }
            for readMore in held { readMore() }
        }
    }

    /// Closes the file once every queued part is written; `completion` gets the first write error, if any. Only the
    /// first call closes; later ones report the same.
    func close(_ completion: @escaping @Sendable ((any Error)?) -> Void) {
        let rest = state.withLock { state in
            defer { state.pending = Data() }
            guard !state.closed, !state.pending.isEmpty else { return Data() }
            state.batchesWriting += 1
            return state.pending
        }
        if !rest.isEmpty { flush(rest) }
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
