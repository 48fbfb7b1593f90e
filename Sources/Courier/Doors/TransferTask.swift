/// A transfer under way, with its progress as an `AsyncSequence` (see ``ApiProvider/downloadTask(on:to:options:)``
/// and ``ApiProvider/responseTask(on:decodeBodyTo:)``).
///
/// ```swift
/// let task = provider.downloadTask(on: .video(id: 7), to: destination)
/// for await progress in task.progress {
///     fractions.append(progress.fractionCompleted ?? 0)
/// }
/// let downloaded = try await task.result.get()
/// ```
public final class TransferTask<Success: Sendable, ClientErrorType: Decodable & Sendable>: Sendable {
    /// The progress reports, ending when the transfer ends; read by one task. Reports that the reader has not taken
    /// yet are kept, up to the 100 newest.
    public let progress: AsyncStream<TransferProgress>

    private let handle: CancellableRequest
    private let outcome = Locked(Outcome())

    private struct Outcome {
        var result: Result<Success, ApiError<ClientErrorType>>?
        var waiters: [CheckedContinuation<Result<Success, ApiError<ClientErrorType>>, Never>] = []
    }

    init(
        start: (
            _ handle: CancellableRequest,
            _ report: @escaping @Sendable (TransferProgress) -> Void,
            _ completion: @escaping @Sendable (Result<Success, ApiError<ClientErrorType>>) -> Void
        ) -> Void
    ) {
        let (progress, continuation) = AsyncStream.makeStream(
            of: TransferProgress.self,
            bufferingPolicy: .bufferingNewest(100)
        )
        self.progress = progress
        let handle = CancellableRequest()
        self.handle = handle
        let outcome = outcome
        start(handle, { continuation.yield($0) }) { result in
            continuation.finish()
            let waiters = outcome.withLock { outcome in
                outcome.result = result
                defer { outcome.waiters = [] }
                return outcome.waiters
            }
            for waiter in waiters { waiter.resume(returning: result) }
        }
    }

    /// The outcome, once the transfer has ended. Cancelling the awaiting task does not cancel the transfer; use
    /// ``cancel()``.
    public var result: Result<Success, ApiError<ClientErrorType>> {
        get async {
            await withCheckedContinuation { continuation in
                let known = outcome.withLock { outcome in
                    if outcome.result == nil { outcome.waiters.append(continuation) }
                    return outcome.result
                }
                if let known { continuation.resume(returning: known) }
            }
        }
    }

    /// Cancels the transfer; its result is ``ApiError/cancelled`` unless it had ended.
    public func cancel() {
        handle.cancel()
    }
}
