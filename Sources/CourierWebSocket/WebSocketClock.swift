#if WebSocket
import Courier

/// What times a WebSocket connection's pings, close and reconnections: the provider's clock, where an
/// `ImmediateScheduler`, on which every wait would be nothing (pings without pause, a close not waited for), is
/// replaced by real time.
enum WebSocketClock {
    static func of(_ timer: any Scheduler) -> any Scheduler {
        timer is ImmediateScheduler ? DispatchQueueScheduler() : timer
    }
}
#endif
