extension TestScheduler {
    /// Suspends until at least `count` pieces of work are pending.
    ///
    /// The exact handshake for requests started elsewhere (another thread blocked in a wait-door call, a thousand
    /// child tasks): wait until they have all been scheduled, then advance. Returns at once if they already are;
    /// returns early if the waiting task is cancelled.
    public func waitForPendingWork(count: Int = 1) async {
        let id = state.withLock { state in
            defer { state.nextWaiterId += 1 }
            return state.nextWaiterId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let reached = state.withLock { state in
                    guard state.items.count < count, !Task.isCancelled else { return true }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if reached { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                let index = state.waiters.firstIndex { $0.id == id }
                return index.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume()
        }
    }

    /// Throws ``PendingWorkError`` if work is still pending, e.g. at the end of a test: a mocked answer nobody
    /// waited for, or a request that was never cancelled.
    ///
    /// ```swift
    /// try scheduler.checkNoPendingWork()  // Swift Testing or XCTest, in a throwing test
    /// ```
    public func checkNoPendingWork() throws(PendingWorkError) {
        let (now, dueTimes) = state.withLock { ($0.now, $0.items.map(\.due)) }
        guard dueTimes.isEmpty else { throw PendingWorkError(now: now, dueTimes: dueTimes) }
    }
}

/// Work was still pending on a ``TestScheduler`` that was expected to be done.
public struct PendingWorkError: Error, Equatable, CustomStringConvertible {
    /// The scheduler's clock when it was checked.
    public let now: Duration
    /// When each pending piece of work is due, earliest first.
    public let dueTimes: [Duration]

    /// Says how much work is pending and when it falls due.
    public var description: String {
        let count = dueTimes.count == 1 ? "1 piece of work is" : "\(dueTimes.count) pieces of work are"
        let due = dueTimes.map { "\($0)" }.joined(separator: ", ")
        return "TestScheduler: \(count) still pending at \(now), due at \(due); advance the scheduler past them, "
            + "run() it, or cancel the requests that scheduled them."
    }
}
