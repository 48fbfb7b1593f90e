import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A file's or a stream's idle timeout (the endpoint's ``Endpoint/idleTimeout``), which the receiver keeps, on the
/// provider's scheduler: only it sees when a part arrives and whether the reader or the disk holds the body back.
extension SendingReceiver {
    /// Once the transport's cancel action is known: a stop asked for before then is carried out now, and the idle
    /// timeout starts (on a mocked answer's scheduler too; an answer that came whole before this ends it unstarted).
    func attach(cancel: @escaping @Sendable () -> Void) {
        if case .cancelNow(let cancel) = state.withLock({ $0.sending.attach(cancel) }) { cancel() }
        watchIdle()
    }

    /// A part of a produced request body was taken (or its end reached): a caller still producing its body is no
    /// silence of the server's, and the wait for the head counts from the body's end.
    func noteRequestBodyPart() {
        let now = timer.now
        state.withLock { $0.lastActivity = now }
    }

    /// Keeps `work` to cancel when the exchange ends, so that no timer of an ended transfer stays pending (a
    /// ``TestScheduler`` would count it); cancels it at once if the exchange has ended already.
    private func keep(_ work: ScheduledWork, as timer: WritableKeyPath<State, ScheduledWork?>) {
        let ended = state.withLock { state in
            if !state.sending.isOver { state[keyPath: timer] = work }
            return state.sending.isOver
        }
        if ended { work.cancel() }
    }

    /// A file or a stream fails when nothing arrives for the idle timeout; a reader that holds the stream back, or a
    /// disk that holds the file back, does not count as the server's silence. On an ``ImmediateScheduler``, where
    /// no time passes and every delay is skipped, the timeout is over at once.
    private func watchIdle(after delay: Duration? = nil) {
        guard let timeout = plan.idleTimeout, !state.withLock({ $0.sending.isOver }) else { return }
        let work = timer.schedule(after: delay ?? timeout) { [weak self] in self?.checkIdle(timeout: timeout) }
        keep(work, as: \.idleTimer)
    }

    private func checkIdle(timeout: Duration) {
        // The buffer or the writer, not the phase: a copy of a body being collected would make its next append copy
        // it whole.
        let (ended, lastActivity, buffer, writer) = state.withLock {
            state -> (Bool, Duration, ChunkBuffer?, FileWriter?) in
            switch state.phase {
            case .streaming(let buffer): (state.sending.isOver, state.lastActivity, buffer, nil)
            case .writing(let writer): (state.sending.isOver, state.lastActivity, nil, writer)
            case .waiting, .collecting: (state.sending.isOver, state.lastActivity, nil, nil)
            }
        }
        guard !ended else { return }
        let heldBack = buffer?.isHoldingBack == true || writer?.isHoldingBack == true
        let quiet = timer.now - lastActivity
        if timer is ImmediateScheduler || (quiet >= timeout && !heldBack) {
            stop(because: URLError(.timedOut))
        } else {
            watchIdle(after: max(timeout - quiet, .milliseconds(10)))
        }
    }
}
