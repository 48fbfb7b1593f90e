import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sendings of one request, after ``start(_:method:transfer:handle:transportDeliveryQueue:delivery:)``: the
/// plugins' `prepare`, the network or the mocks, the plugins' `process`, and again after a wait while a plugin asks
/// for a retry. Each step is a callback or a ``HookTask`` that starts on the calling thread, never a wait.
extension ApiProvider {
    /// Runs the plugins' `prepare` hooks for sending number `number`, then sends.
    func attempt(_ number: Int, of run: RequestRun<EndpointType>, mockClockAtStart: Duration? = nil) {
        guard !plugins.isEmpty else {
            return send(run.request, number: number, of: run, mockClockAtStart: mockClockAtStart)
        }
        let began = run.handle.step {
            let cancelHooks = HookTask.start { [self] in
                let prepared: URLRequest? = await run.observation.bound {
                    var request = run.request
                    for plugin in plugins {
                        do {
                            try await plugin.prepare(&request, endpoint: run.endpoint)
                            try RequestBuilder.validateHeaders(of: request)
                        } catch {
                            let failure = PluginFailure(by: plugin, error: error)
                            run.finish(Exchange(request: request, error: failure))
                            return nil
                        }
                    }
                    return request
                }
                guard let prepared else { return }
                send(prepared, number: number, of: run, mockClockAtStart: mockClockAtStart)
            }
            return {
                cancelHooks()
                run.finishCancelled()
            }
        }
        if !began { run.finishCancelled() }
    }

    /// Hands the request to the network or the mocks, unless it was cancelled first.
    private func send(
        _ request: URLRequest,
        number: Int,
        of run: RequestRun<EndpointType>,
        mockClockAtStart: Duration?
    ) {
        let sentAt = ContinuousClock.now
        // Only the plugins' `Attempt` reports times.
        if !plugins.isEmpty {
            run.markSent(at: sentAt)
            run.observation?.sendingStarted(number, at: sentAt)
        }
        // A function, not a closure value: its context is made only where it is passed on, never on the way
        // without plugins.
        @Sendable func judgeAnswer(_ exchange: Exchange) {
            judge(exchange, number: number, sentAt: sentAt, of: run)
        }
        if let plan = run.transfer {
            return sendTransfer(request, plan: plan, of: run, mockClockAtStart: mockClockAtStart, judge: judgeAnswer)
        }
        let began = run.handle.step {
            switch carrier {
            case .network(let transport):
                let options = TransportOptions(
                    bodyFile: run.bodyFile?.url,
                    timeout: run.endpoint.timeout,
                    maximumResponseBodySize: run.endpoint.maximumResponseBodySize,
                    tls: run.endpoint.tls
                )
                // Without plugins the request sent is the one built and nothing judges the answer: the completion
                // holds the run alone, one closure context fewer per request.
                if plugins.isEmpty {
                    return transport.send(request, options: options) { run.received($0) }
                }
                return transport.send(request, options: options) { result in
                    let exchange =
                        switch result {
                        case .success(let answer):
                            Exchange(request: request, data: answer.body, head: answer.head)
                        case .failure(let error):
                            Exchange(request: request, error: error)
                        }
                    guard let deliveryQueue = run.deliveryQueue else { return judgeAnswer(exchange) }
                    deliveryQueue.async { judgeAnswer(exchange) }
                }
            case .mocks(let mockingBehavior):
                // Delivered where the scheduler runs it, never re-queued: that is what makes a mocked answer
                // arrive inside the `advance` call that reaches it, or before `performRequest` returns.
                return mockingBehavior.answer(
                    request,
                    for: run.endpoint,
                    startedAt: mockClockAtStart,
                    deliver: judgeAnswer
                )
            }
        }
        if !began { run.finishCancelled(request) }
    }

    /// Asks the plugins' `process` hooks about the answer: deliver it, fail it, or send again.
    private func judge(
        _ exchange: Exchange,
        number: Int,
        sentAt: ContinuousClock.Instant,
        of run: RequestRun<EndpointType>
    ) {
        run.observation?.sendingEnded(number, exchange: exchange)
        // A cancelled sending is the request's end; there is nothing for the plugins to judge.
        guard !plugins.isEmpty, !run.handle.isCancelled else { return run.finish(exchange) }
        let attempt = run.attempt(number, sent: exchange.request ?? run.request, at: sentAt, answer: exchange)
        let began = run.handle.step {
            let cancelHooks = HookTask.start { [self] in
                let decision = await run.observation.bound { () async -> (AttemptDecision, AnyObject)? in
                    // Last to first: the plugin nearest the network judges the answer first.
                    for plugin in plugins.reversed() {
                        let decision = await plugin.process(attempt, endpoint: run.endpoint)
                        if case .proceed = decision { continue }
                        return (decision, plugin)
                    }
                    return nil
                }
                switch decision {
                case nil, (.proceed, _)?:
                    run.finish(exchange)
                case (.fail(let error), let plugin)?:
                    var failed = exchange
                    failed.error = PluginFailure(by: plugin, error: error)
                    run.finish(failed)
                case (.retry(let delay, let scheduler), let plugin)?:
                    // A retried sending's body (a stream begun, a file written) is not the one the caller gets.
                    exchange.receiver?.discard()
                    run.noteRetry(requestedBy: plugin)
                    let requester = PluginFailure.name(of: plugin)
                    run.observation?.retryScheduled(requestedBy: requester, delay: delay)
                    retry(number + 1, of: run, after: delay, on: scheduler, requestedBy: requester)
                }
            }
            return {
                cancelHooks()
                exchange.receiver?.discard()
                run.finishCancelled(exchange.request)
            }
        }
        if !began { run.finishCancelled(exchange.request) }
    }

    private func retry(
        _ number: Int,
        of run: RequestRun<EndpointType>,
        after delay: Duration,
        on scheduler: any Scheduler,
        requestedBy requester: String
    ) {
        guard delay > .zero else { return attempt(number, of: run) }
        let waitStarted = ContinuousClock.now
        run.observation?.waitStarted(.retry(delay: delay, requestedBy: requester))
        let began = run.handle.step {
            let work = scheduler.schedule(after: delay) { [self] in
                run.noteWait(real: waitStarted.duration(to: .now), scheduled: delay)
                run.observation?.waitEnded()
                attempt(number, of: run)
            }
            return {
                work.cancel()
                run.finishCancelled()
            }
        }
        if !began { run.finishCancelled() }
    }
}
