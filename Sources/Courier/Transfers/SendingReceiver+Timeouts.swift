import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A file's or a stream's timeouts, which the receiver keeps instead of the transport (the endpoint's timeout counts
/// between two parts of the body there, not to the last byte), on the provider's scheduler.
extension SendingReceiver {
    /// Once the transport's cancel action is known: a stop asked for before then is carried out now, and the idle
    /// and overall timeouts start (on a mocked answer's scheduler too; an answer that came whole before this ends
    /// them unstarted).
    func attach(cancel: @escaping @Sendable () -> Void) {
        let stopNow = state.withLock { state in
            state.cancelTransport = cancel
            return state.stopReason != nil
        }
        if stopNow { cancel() }
        watchIdle()
        if let overall = plan.overallTimeout {
            keep(
                timer.schedule(after: overall) { [weak self] in
                    self?.stop(because: URLError(.timedOut))
                },
                as: \.overallTimer
            )
        }
    }

    /// Keeps `work` to cancel when the exchange ends, so that no timer of an ended transfer stays pending (a
    /// ``TestScheduler`` would count it); cancels it at once if the exchange has ended already.
    private func keep(_ work: ScheduledWork, as timer: WritableKeyPath<State, ScheduledWork?>) {
        let ended = state.withLock { state in
            if !state.ended { state[keyPath: timer] = work }
            return state.ended
        }
        if ended { work.cancel() }
    }

    /// A file or a stream fails when nothing arrives for the idle timeout; a reader that holds the stream back does
    /// not count as the server's silence.
    private func watchIdle(after delay: Duration? = nil) {
        guard let timeout = plan.idleTimeout, !state.withLock({ $0.ended }) else { return }
        keep(
            timer.schedule(after: delay ?? timeout) { [weak self] in
            guard let self else { return }
            let (ended, lastActivity, buffer) = state.withLock {
                state -> (Bool, Duration, ChunkBuffer?) in
                if case .streaming(let buffer) = state.phase { return (state.ended, state.lastActivity, buffer) }
                return (state.ended, state.lastActivity, nil)
            }
            guard !ended else { return }
            let quiet = timer.now - lastActivity
            if quiet >= timeout && buffer?.isHoldingBack != true {
                stop(because: URLError(.timedOut))
            } else {
                watchIdle(after: max(timeout - quiet, .milliseconds(10)))
            }
            },
            as: \.idleTimer
        )
    }
}
