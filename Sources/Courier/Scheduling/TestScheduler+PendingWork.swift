extension TestScheduler {
    /// Suspends until at least `count` pieces of work are pending (work that was already pending counts too).
    ///
    /// The exact handshake for requests started elsewhere (another thread blocked in a wait-door call, a thousand
    /// child tasks): wait until they have all been scheduled, then advance. Returns at once if they already are,
    /// and early if the waiting task is cancelled.
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
