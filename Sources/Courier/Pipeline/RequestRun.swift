import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one request carries from sending to sending: the request as `modifyRequest` left it, its body file, who
/// asked for retries, the time spent, and the one delivery of its outcome.
final class RequestRun<EndpointType: Endpoint>: Sendable {
    let endpoint: EndpointType
    let request: URLRequest
    let bodyFile: RequestBuilder.BodyFile?
    let handle: CancellableRequest

    /// Where answers from the network are handed over for the plugins' `process` and the caller, or `nil` for
    /// the transport's own queue.
    let deliveryQueue: DispatchQueue?

    /// What the provider's observing plugins follow of this request, or `nil` when it has none.
    let observation: RequestObservation?

    /// Where the body goes and who hears of progress, for a download, a stream or a request with progress reports.
    let transfer: TransferPlan?

    /// What carries every sending of this request instead of the provider's transport, the mocks and the answer
    /// steps: a WebSocket's upgrade (see ``ApiProvider/performUpgrade(on:over:completion:)``), or `nil`.
    let carriedBy: (any Transport)?

    /// A mocked provider's scheduler clock when the request entered the pipeline (with a delay only): the first
    /// sending's mocked answer is due a delay after it.
    let mockClockAtStart: Duration?

    private struct Progress {
        var firstSentAt: ContinuousClock.Instant?
        var retriesRequested: [ObjectIdentifier: Int] = [:]
        var realTimeWaited = Duration.zero
        var scheduledTimeWaited = Duration.zero
    }

    /// What the plugins' `Attempt` reports, or `nil` for a provider without plugins, which never asks.
    private let progress: Locked<Progress>?
    private let deliver: ExchangeDelivery

    init(
        endpoint: EndpointType,
        built: RequestBuilder.Built,
        handle: CancellableRequest,
        deliveryQueue: DispatchQueue?,
        observation: RequestObservation?,
        transfer: TransferPlan? = nil,
        followsAttempts: Bool,
        mockClockAtStart: Duration? = nil,
        carriedBy: (any Transport)? = nil,
        deliver: ExchangeDelivery
    ) {
        self.carriedBy = carriedBy
        self.mockClockAtStart = mockClockAtStart
        progress = followsAttempts ? Locked(Progress()) : nil
        self.observation = observation
        self.transfer = transfer
        self.endpoint = endpoint
        self.request = built.request
        self.bodyFile = built.bodyFile
        self.handle = handle
        self.deliveryQueue = deliveryQueue
        self.deliver = deliver
    }

    /// Delivers the outcome, the first time only: a cancellation and a late answer may race to it. Once the request
    /// was cancelled, the outcome is the cancellation, whatever a hook interrupted by it made of it.
    func finish(_ exchange: Exchange) {
        let cancelled = handle.isCancelled
        if cancelled { exchange.receiver?.discard() }
        var exchange = cancelled ? Exchange(request: exchange.request, error: URLError(.cancelled)) : exchange
        if let observation { exchange.observation = observation }
        guard handle.finish() else {
            // A late answer after a cancellation: what it holds goes nowhere.
            exchange.receiver?.discard()
            return
        }
        // Whatever way the request ended, a multipart body written to a temporary file is not needed anymore.
        bodyFile?.removeIfTemporary()
        deliver(exchange)
    }

    /// Hands a sending's outcome to `judge` where outcomes are delivered: on the delivery queue, or where it came
    /// (a mocked answer, inside its scheduler).
    func handOver(_ exchange: Exchange, to judge: @escaping @Sendable (Exchange) -> Void) {
        guard let deliveryQueue else { return judge(exchange) }
        deliveryQueue.async { judge(exchange) }
    }

    /// Ends the request as cancelled, where its outcome is delivered.
    func finishCancelled(_ request: URLRequest? = nil) {
        finishWhereDelivered(Exchange(request: request ?? self.request, error: URLError(.cancelled)))
    }

    /// ``finish(_:)`` on the delivery queue, or here when there is none. Not ``handOver(_:to:)`` with `finish`: that
    /// would make a closure for every request.
    private func finishWhereDelivered(_ exchange: Exchange) {
        guard let deliveryQueue else { return finish(exchange) }
        deliveryQueue.async { self.finish(exchange) }
    }

    /// Begins a step of the request (a sending, the plugins' hooks, a wait) with the action that cancels it, unless
    /// the request was cancelled first: then it ends as cancelled, with `request` as the one it was about to send.
    func step(_ request: URLRequest? = nil, _ begin: () -> @Sendable () -> Void) {
        if !handle.step(begin) { finishCancelled(request) }
    }

    /// Notes that a sending starts now.
    func markSent(at instant: ContinuousClock.Instant) {
        progress?.withLock { progress in
            if progress.firstSentAt == nil { progress.firstSentAt = instant }
        }
    }

    func noteRetry(requestedBy plugin: AnyObject) {
        progress?.withLock { $0.retriesRequested[ObjectIdentifier(plugin), default: 0] += 1 }
    }

    /// Notes a wait between sendings: `real` as it passed, `scheduled` as the scheduler counted it.
    func noteWait(real: Duration, scheduled: Duration) {
        progress?.withLock { progress in
            progress.realTimeWaited += real
            progress.scheduledTimeWaited += scheduled
        }
    }

    func attempt(_ number: Int, sent: URLRequest, at sentAt: ContinuousClock.Instant, answer: Exchange) -> Attempt {
        let now = ContinuousClock.now
        // Only a provider with a plugin that judges answers asks (its `judge`), and its runs follow their attempts:
        // both come from the provider's `pluginHooks` having `.process`. A run without a record would report its times
        // from this sending alone.
        return (progress ?? Locked(Progress())).withLock { progress in
            let realElapsed = (progress.firstSentAt ?? sentAt).duration(to: now)
            return Attempt(
                number: number,
                request: sent,
                response: answer.response as? HTTPURLResponse,
                data: answer.data,
                error: answer.error,
                sentAt: sentAt,
                duration: sentAt.duration(to: now),
                elapsed: realElapsed - progress.realTimeWaited + progress.scheduledTimeWaited,
                retriesRequested: progress.retriesRequested
            )
        }
    }
}
