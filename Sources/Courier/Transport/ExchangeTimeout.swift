/// The timeout of one exchange, cancelled when the exchange ends first: a transport's timer would otherwise keep
/// what its work holds (the exchange, a task, a connection's state) until the timeout's end, for every request that
/// finished long before.
package final class ExchangeTimeout: Sendable {
    private enum State {
        case waiting
        case scheduled(ScheduledWork)
        case ended
    }

    private let state = Locked(State.waiting)

    package init() {}

    /// Runs `work` on `timer` after `delay`, unless ``end()`` comes first, before or after this.
    package func start(on timer: any Scheduler, after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let scheduled = timer.schedule(after: delay, work)
        let ended = state.withLock { state in
            guard case .waiting = state else { return true }
            state = .scheduled(scheduled)
            return false
        }
        if ended { scheduled.cancel() }
    }

    /// The exchange has ended: the timer, if any, is cancelled and lets go of its work.
    package func end() {
        let scheduled = state.withLock { state -> ScheduledWork? in
            defer { state = .ended }
            guard case .scheduled(let work) = state else { return nil }
            return work
        }
        scheduled?.cancel()
    }
}
