#if WebSocket
import Courier

/// The task behind a ``WebSocketConnection``: waits for each link to end, and opens a dropped one again when the
/// options ask for it, until the connection ends for good.
struct ConnectionKeeping: Sendable {
    /// What opening the connection again gave: a switched connection, or the failure and whether it is worth
    /// another attempt.
    typealias Reopen = @Sendable () async -> Result<SwitchedConnection, ReopenFailure>

    struct ReopenFailure: Error {
        let error: any Error
        let retryable: Bool
    }

    let options: WebSocketOptions
    let relay: MessageRelay
    let links: LinkSwitch
    /// Where the waits before reconnecting are timed: the provider's clock.
    let scheduler: any Scheduler
    let reopen: Reopen
    /// Sends what the caller's hook sends after a reconnection, on the new link, before anyone else may.
    let resubscribe: (@Sendable (ConnectionLink) async throws -> Void)?

    /// Keeps the connection from `first` on; returns how it ended, once it has for good.
    func run(from first: ConnectionLink) async -> WebSocketClosure {
        var link = first
        // Upgrades since the last connection that was alive (delivered a message or answered a ping): a server that
        // switches and drops at once is given up on, a connection that lived long starts the count again.
        var attempts = 0
        while true {
            let end = await link.reading.value
            if end.wasAlive { attempts = 0 }
            guard let reconnection = options.reconnection, end.isDrop(under: reconnection),
                links.closeRequest == nil
            else { return finish(end.closure, failure: end.failure) }
            links.reconnecting()
            var lastError: (any Error)?
            var next: ConnectionLink?
            var made = 0
            var retryable = true
            while next == nil, retryable, attempts < max(reconnection.policy.maximumAttempts, 1) {
                attempts += 1
                made += 1
                let random = reconnection.randomFraction()
                let delay = reconnection.policy.backoff(beforeRetry: attempts, randomFraction: random)
                guard await links.wait(delay, on: scheduler) else { return finish(links.closeRequest ?? end.closure) }
                switch await reopen() {
                case .success(let switched):
                    next = await ConnectionLink.start(switched, number: link.number + 1, options: options, relay: relay)
                case .failure(let failure):
                    lastError = failure.error
                    retryable = failure.retryable
                }
            }
            guard let next else {
                return finish(end.closure, failure: .reconnectionFailed(attempts: made, lastError: lastError))
            }
            do {
                try await resubscribe?(next)
            } catch WebSocketError.closed(_) {
                // Dropped again while resubscribing: the next round finds it ended.
            } catch {
                await next.close(.goingAway, reason: "resubscribing failed")
                return finish(await next.reading.value.closure, failure: .resubscribeFailed(error: error))
            }
            guard links.install(next) else {
                let request = links.closeRequest ?? WebSocketClosure(code: .normalClosure)
                await next.close(request.code, reason: request.reason)
                return finish(await next.reading.value.closure)
            }
            link = next
        }
    }

    private func finish(_ closure: WebSocketClosure, failure: WebSocketError? = nil) -> WebSocketClosure {
        relay.finish(failure)
        links.end()
        return closure
    }
}
#endif
