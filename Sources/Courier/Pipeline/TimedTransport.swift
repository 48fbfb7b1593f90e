import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The overall timeout of one sending, owned by the pipeline in front of whatever carries it (a transport or the
/// mocks; behind the answer steps, so that a cache sees a timeout as the network's failure), on the provider's clock:
/// when it passes, the sending ends with `URLError(.timedOut)` and what carries it is cancelled. A transport keeps
/// only the limit only it can see, the idle gap.
struct TimedTransport: Transport {
    let next: any Transport
    let timeout: Duration
    /// A file's or a stream's receiver, which ends the sending itself: stopped with the timeout as its reason, it
    /// cancels `next` and takes no head or part after that. Without one, the completion gets the timeout.
    let receiver: SendingReceiver?

    func send(
        _ request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        let gate = TimeoutGate(completion: completion)
        let cancel = next.send(request, options: options) { gate.deliver($0) }
        gate.attach(cancel)
        let timedOut = URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
        if let receiver {
            gate.arm(after: timeout, on: options.timer) { [weak receiver] in receiver?.stop(because: timedOut) }
        } else {
            gate.arm(after: timeout, on: options.timer) { [weak gate] in gate?.stop(because: timedOut) }
        }
        return { gate.stop(because: URLError(.cancelled)) }
    }
}

/// One sending behind its timeout: the completion runs once, with the answer, the timeout or the cancellation,
/// whichever comes first, and the timer does not outlive the sending.
final class TimeoutGate: Sendable {
    private struct State {
        var sending = OnceState<CancelAction>()
        var timer = OnceState<ScheduledWork>()
    }

    private let completion: @Sendable (Result<TransportResponse, any Error>) -> Void
    private let state = Locked(State())

    init(completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void) {
        self.completion = completion
    }

    /// What carries the sending ended it: delivered unless the timeout or a cancel came first.
    func deliver(_ result: Result<TransportResponse, any Error>) {
        let (first, timer) = state.withLock { ($0.sending.deliver(), $0.timer.cancel()) }
        timer?.cancel()
        if first { completion(result) }
    }

    /// Keeps the carrier's cancel action, or runs it when the sending was stopped while it started.
    func attach(_ cancel: @escaping @Sendable () -> Void) {
        if case .cancelNow(let cancel) = state.withLock({ $0.sending.attach(cancel) }) { cancel() }
    }

    /// Runs `expire` after `timeout` on `timer`, unless the sending ends first (before or after this). Not armed for
    /// a sending that ended while it started: a mocked or stored answer leaves no timer behind.
    func arm(after timeout: Duration, on timer: any Scheduler, _ expire: @escaping @Sendable () -> Void) {
        guard !state.withLock({ $0.sending.isOver }) else { return }
        let work = timer.schedule(after: timeout, expire)
        if case .cancelNow(let work) = state.withLock({ $0.timer.attach(work) }) { work.cancel() }
    }

    /// Ends the sending with `reason` unless it has ended, then cancels what carries it.
    func stop(because reason: any Error) {
        let (stop, timer) = state.withLock { ($0.sending.stop(), $0.timer.cancel()) }
        timer?.cancel()
        if stop.deliver { completion(.failure(reason)) }
        stop.handle?()
    }
}
