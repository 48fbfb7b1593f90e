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
    let telemetry: ConnectionTelemetry?
    let reopen: Reopen
    /// Sends what the caller's hook sends after a reconnection, on the new link, before anyone else may.
    let resubscribe: (@Sendable (ConnectionLink) async throws -> Void)?

    /// Keeps the connection from `first` on; returns how it ended, once it has for good.
    func run(from first: ConnectionLink) async -> WebSocketClosure {
        var link = first
        var openedAt = scheduler.now
        // Upgrades since the last connection that stayed up: a server that switches and drops at once, or answers and
        // drops, is given up on; a connection that stayed up for the longest backoff starts the count again.
        var attempts = 0
        while true {
            let end = await link.reading.value
            guard let reconnection = options.reconnection, end.isDrop(under: reconnection),
                links.closeRequest == nil
            else { return finish(end.closure, failure: end.failure) }
            if scheduler.now - openedAt >= reconnection.policy.maximumDelay { attempts = 0 }
            links.reconnecting()
            switch await reopen(after: link, under: reconnection, attempts: &attempts) {
            case .opened(let next):
                telemetry?.reconnected()
                link = next
                openedAt = scheduler.now
            case .ended(let closure, let failure):
                let request = links.closeRequest
                return finish(request ?? closure ?? end.closure, failure: request == nil ? failure : nil)
            }
        }
    }

    private enum Reopening {
        case opened(ConnectionLink)
        /// No new connection: how the whole connection ended, when a new one ended it (else the drop's closure), and
        /// the reader's failure.
        case ended(WebSocketClosure?, WebSocketError?)
    }

    /// Opens `dropped` again within the policy's attempts, runs the resubscribe hook on the new link and installs
    /// it; stops as soon as the caller closes.
    private func reopen(
        after dropped: ConnectionLink,
        under reconnection: WebSocketReconnection,
        attempts: inout Int
    ) async -> Reopening {
        var lastError: (any Error)?
        var made = 0
        attempting: while attempts < max(reconnection.policy.maximumAttempts, 1) {
            attempts += 1
            made += 1
            let delay = reconnection.policy.backoff(
                beforeRetry: attempts,
                randomFraction: reconnection.randomFraction()
            )
            telemetry?.reconnecting(attempt: made, delay: delay)
            guard await links.wait(delay, on: scheduler) else { return .ended(nil, nil) }
            switch await reopen() {
            case .success(let switched):
                guard links.closeRequest == nil else {
                    // The caller closed while the upgrade was under way: the new connection is not wanted.
                    try? await switched.frames.channel.close()
                    return .ended(nil, nil)
                }
                let next = await ConnectionLink.start(
                    switched,
                    number: dropped.number + 1,
                    options: options,
                    relay: relay,
                    telemetry: telemetry
                )
                return await resubscribed(next)
            case .failure(let failure):
                lastError = failure.error
                guard failure.retryable else { break attempting }
            }
        }
        return .ended(nil, .reconnectionFailed(attempts: made, lastError: lastError))
    }

    /// Runs the resubscribe hook on `next` and installs it; a link the caller no longer wants is closed.
    private func resubscribed(_ next: ConnectionLink) async -> Reopening {
        do {
            try await resubscribe?(next)
        } catch WebSocketError.closed(_) {
            // Dropped again while resubscribing: the next round finds it ended.
        } catch {
            await next.close(.goingAway, reason: "resubscribing failed")
            return .ended(await next.reading.value.closure, .resubscribeFailed(error: error))
        }
        guard links.install(next) else {
            let request = links.closeRequest ?? WebSocketClosure(code: .normalClosure)
            await next.close(request.code, reason: request.reason)
            return .ended(await next.reading.value.closure, nil)
        }
        return .opened(next)
    }

    private func finish(_ closure: WebSocketClosure, failure: WebSocketError? = nil) -> WebSocketClosure {
        // A drop is a failure too, as OpenTelemetry counts a connection lost: the reader saw no fault, but no close.
        let errorType = failure?.kind ?? (closure.code == .abnormalClosure ? "abnormalClosure" : nil)
        telemetry?.ended(closeCode: closure.code.rawValue, reason: closure.reason, errorType: errorType)
        relay.finish(failure)
        links.end()
        return closure
    }
}
#endif
