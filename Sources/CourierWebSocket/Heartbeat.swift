#if WebSocket
import Courier
import NIOConcurrencyHelpers
import NIOCore

/// Keeps a connection known to be alive: a ping every interval, on the provider's scheduler; a ping still unanswered
/// at the next tick means the server, or the way to it, is gone.
final class Heartbeat: Sendable {
    private struct State {
        var sent: UInt64 = 0
        var answered: UInt64 = 0
        var tick: ScheduledWork?
        var stopped = false
    }

    let interval: Duration
    private let scheduler: any Scheduler
    private let state = NIOLockedValueBox(State())

    /// A heartbeat every `interval` on `scheduler`.
    init(interval: Duration, scheduler: any Scheduler) {
        self.interval = interval
        self.scheduler = scheduler
    }

    /// Starts the ticks: `ping` sends a ping with the payload given; `dead` is called once, at the tick that finds
    /// the last ping unanswered, after which there are no more.
    func start(ping: @escaping @Sendable (ByteBuffer) -> Void, dead: @escaping @Sendable () -> Void) {
        let work = scheduler.schedule(after: interval) { [self] in
            enum Step { case ping(UInt64), dead, none }
            let step = state.withLockedValue { state -> Step in
                guard !state.stopped else { return .none }
                guard state.answered == state.sent else {
                    state.stopped = true
                    return .dead
                }
                state.sent += 1
                return .ping(state.sent)
            }
            switch step {
            case .ping(let number):
                ping(ByteBuffer(integer: number))
                start(ping: ping, dead: dead)
            case .dead: dead()
            case .none: break
            }
        }
        let stopped = state.withLockedValue { state in
            state.tick = work
            return state.stopped
        }
        if stopped { work.cancel() }
    }

    /// A pong came with `payload`; it counts when it answers the last ping (a server may also send pongs unasked).
    func received(pong payload: ByteBuffer) {
        guard payload.readableBytes == 8, let number = payload.getInteger(at: payload.readerIndex, as: UInt64.self)
        else { return }
        state.withLockedValue { state in
            if number == state.sent { state.answered = number }
        }
    }

    /// No more ticks: the connection has ended.
    func stop() {
        let tick = state.withLockedValue { state in
            state.stopped = true
            return state.tick
        }
        tick?.cancel()
    }
}
#endif
