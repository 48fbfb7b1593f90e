import Foundation

/// Turns a transfer's byte counts into a few ``TransferProgress`` reports: the first bytes, then whenever another
/// hundredth of the expected size (at least 64 KiB; 1 MiB when the size is unknown) has passed or a quarter of a
/// second has gone by since the last report, and always the last count when the transfer ends. A 1 GB transfer is
/// reported about a hundred times, not once per network read.
final class ProgressMeter: Sendable {
    private let direction: TransferProgress.Direction
    private let report: @Sendable (TransferProgress) -> Void

    private struct State {
        var expected: Int64?
        var completed: Int64 = 0
        var lastReported: Int64 = -1
        var lastReportedAt: ContinuousClock.Instant?
        var started = false
        var ended = false
    }

    private let state = Locked(State())

    private static let unknownSizeStep: Int64 = 1 << 20
    private static let smallestStep: Int64 = 64 << 10
    private static let longestQuiet = Duration.milliseconds(250)

    init(_ direction: TransferProgress.Direction, report: @escaping @Sendable (TransferProgress) -> Void) {
        self.direction = direction
        self.report = report
    }

    /// Starts counting (again, for a retried sending) from `completed` (more than 0 for a resumed download), with the
    /// size if known; nothing is reported before the first start.
    func restart(at completed: Int64, expected: Int64?) {
        let progress = state.withLock { state -> TransferProgress? in
            state = State(
                expected: expected,
                completed: completed,
                lastReported: completed,
                lastReportedAt: .now,
                started: true
            )
            return TransferProgress(direction: direction, completedBytes: completed, expectedBytes: expected)
        }
        if let progress { report(progress) }
    }

    /// Adds `count` bytes; reports if enough has passed since the last report.
    func add(_ count: Int) {
        set(to: nil, adding: Int64(count))
    }

    /// Sets the count to `completed` (a transport that reports totals); reports if enough has passed.
    func set(completed: Int64, expected: Int64?) {
        state.withLock { state in
            if state.expected == nil { state.expected = expected }
        }
        set(to: completed, adding: 0)
    }

    private func set(to total: Int64?, adding count: Int64) {
        let now = ContinuousClock.now
        let progress = state.withLock { state -> TransferProgress? in
            guard state.started, !state.ended else { return nil }
            state.completed = total ?? state.completed + count
            let step = state.expected.map { max(Self.smallestStep, $0 / 100) } ?? Self.unknownSizeStep
            let quiet = state.lastReportedAt.map { $0.duration(to: now) >= Self.longestQuiet } ?? true
            let isLast = state.expected.map { state.completed >= $0 } ?? false
            guard state.completed > state.lastReported,
                state.completed - state.lastReported >= step || isLast || quiet
            else { return nil }
            state.lastReported = state.completed
            state.lastReportedAt = now
            return TransferProgress(
                direction: direction,
                completedBytes: state.completed,
                expectedBytes: state.expected
            )
        }
        if let progress { report(progress) }
    }

    /// The transfer is over: reports the final count unless it was the last one reported; nothing is reported after.
    /// - Parameter succeeded: Whether the body went through whole; then the final report's expected size is the
    ///   count, so that the last report always equals the total.
    func end(succeeded: Bool) {
        let progress = state.withLock { state -> TransferProgress? in
            guard state.started, !state.ended else { return nil }
            state.ended = true
            let expected = succeeded ? state.completed : state.expected
            guard state.completed != state.lastReported || expected != state.expected else { return nil }
            return TransferProgress(direction: direction, completedBytes: state.completed, expectedBytes: expected)
        }
        if let progress { report(progress) }
    }
}
