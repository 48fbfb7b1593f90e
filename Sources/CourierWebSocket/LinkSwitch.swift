#if WebSocket
import Courier
import NIOConcurrencyHelpers

/// Which connection to the server a ``WebSocketConnection`` writes to: the open one, none while a dropped one is
/// being opened again (senders wait), or none for good once the connection has ended or the caller closed it.
final class LinkSwitch: Sendable {
    private enum Phase {
        case open(ConnectionLink)
        case reconnecting
        case ended
    }

    private struct State {
        var phase: Phase
        var senders: [Int: CheckedContinuation<ConnectionLink?, Never>] = [:]
        var nextSender = 0
        var closeRequest: WebSocketClosure?
        var backoff: CheckedContinuation<Void, Never>?
        var backoffTimer: ScheduledWork?
    }

    private let state: NIOLockedValueBox<State>

    init(first: ConnectionLink) {
        state = NIOLockedValueBox(State(phase: .open(first)))
    }

    /// The close the caller asked for, if it has: no reconnection follows it.
    var closeRequest: WebSocketClosure? { state.withLockedValue { $0.closeRequest } }

    /// The open link, other than the one numbered `stale` (which failed a sending); waits while a dropped link is
    /// being replaced, and is `nil` once the connection has ended or when the waiting task is cancelled.
    func link(otherThan stale: Int? = nil) async -> ConnectionLink? {
        // Every message asks: an open link is handed over without a continuation.
        let (ready, id) = state.withLockedValue { state -> (ConnectionLink??, Int) in
            switch state.phase {
            case .open(let link) where link.number != stale: return (.some(link), 0)
            case .ended: return (.some(nil), 0)
            case .open, .reconnecting:
                defer { state.nextSender += 1 }
                return (nil, state.nextSender)
            }
        }
        if let ready { return ready }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { sender in
                let ready = state.withLockedValue { state -> ConnectionLink?? in
                    if Task.isCancelled { return .some(nil) }
                    switch state.phase {
                    case .open(let link) where link.number != stale: return .some(link)
                    case .ended: return .some(nil)
                    case .open, .reconnecting:
                        state.senders[id] = sender
                        return nil
                    }
                }
                if let ready { sender.resume(returning: ready) }
            }
        } onCancel: {
            state.withLockedValue { $0.senders.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }

    /// The open link has dropped and a new one is being opened.
    func reconnecting() {
        state.withLockedValue { $0.phase = .reconnecting }
    }

    /// `link` replaces the dropped one, and the waiting senders send on it; `false`, and nothing changes, when the
    /// caller closed meanwhile.
    func install(_ link: ConnectionLink) -> Bool {
        let senders = state.withLockedValue { state -> [CheckedContinuation<ConnectionLink?, Never>]? in
            guard state.closeRequest == nil else { return nil }
            state.phase = .open(link)
            defer { state.senders = [:] }
            return Array(state.senders.values)
        }
        guard let senders else { return false }
        for sender in senders { sender.resume(returning: link) }
        return true
    }

    /// The connection has ended: senders, waiting or to come, get no link.
    func end() {
        let senders = state.withLockedValue { state in
            state.phase = .ended
            defer { state.senders = [:] }
            return Array(state.senders.values)
        }
        for sender in senders { sender.resume(returning: nil) }
    }

    /// The caller closes the connection with `closure`: a wait before reconnecting ends at once; the open link, if
    /// there is one, is the caller's to close.
    func requestClose(_ closure: WebSocketClosure) -> ConnectionLink? {
        typealias Taken = (link: ConnectionLink?, backoff: CheckedContinuation<Void, Never>?, timer: ScheduledWork?)
        let (link, backoff, timer) = state.withLockedValue { state -> Taken in
            if state.closeRequest == nil { state.closeRequest = closure }
            defer { (state.backoff, state.backoffTimer) = (nil, nil) }
            guard case .open(let link) = state.phase else { return (nil, state.backoff, state.backoffTimer) }
            return (link, state.backoff, state.backoffTimer)
        }
        timer?.cancel()
        backoff?.resume()
        return link
    }

    /// Waits `delay` on `scheduler` before reconnecting; `false` when the caller closed before or meanwhile.
    func wait(_ delay: Duration, on scheduler: any Scheduler) async -> Bool {
        await withCheckedContinuation { (backoff: CheckedContinuation<Void, Never>) in
            let waits = state.withLockedValue { state in
                guard state.closeRequest == nil else { return false }
                state.backoff = backoff
                return true
            }
            guard waits else { return backoff.resume() }
            let timer = scheduler.schedule(after: delay) { [state] in
                state.withLockedValue { state in
                    defer { (state.backoff, state.backoffTimer) = (nil, nil) }
                    return state.backoff
                }?.resume()
            }
            let late = state.withLockedValue { state in
                guard state.backoff != nil else { return true }
                state.backoffTimer = timer
                return false
            }
            if late { timer.cancel() }
        }
        return closeRequest == nil
    }
}
#endif
