import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sendings of one request, after ``start(_:method:transfer:handle:transportDeliveryQueue:delivery:)``: the
/// plugins' `prepare`, the network or the mocks, the plugins' `process`, and again after a wait while a plugin asks
/// for a retry. Each step is a callback or a ``HookTask`` that starts on the calling thread, never a wait.
extension ApiProvider {
    /// Runs the plugins' `prepare` hooks for sending number `number`, then sends.
    func attempt(_ number: Int, of run: RequestRun<EndpointType>) {
        var request = run.request
        if let observation = run.observation, let failure = observation.prepareSending(&request) {
            return run.finish(Exchange(request: request, error: failure))
        }
        guard pluginHooks.contains(.prepare) else { return send(request, number: number, of: run) }
        let preparing = roles.preparing
        run.step {
            let cancelHooks = HookTask.start { [self, request] in
                let prepared: URLRequest? = await run.observation.bound {
                    var request = request
                    for plugin in preparing {
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
                send(prepared, number: number, of: run)
            }
            return {
                cancelHooks()
                run.finishCancelled()
            }
        }
    }

    /// Hands the request to its carrier (``carrier(for:number:)``: the network or the mocks, behind any answer
    /// steps), unless it was cancelled first.
    private func send(_ request: URLRequest, number: Int, of run: RequestRun<EndpointType>) {
        let sentAt = ContinuousClock.now
        // Only the plugins' `Attempt` reports times.
        if pluginHooks.contains(.process) { run.markSent(at: sentAt) }
        run.observation?.sendingStarted(number, at: sentAt)
        run.step(request) {
            let transport = carrier(for: run, number: number)
            guard let plan = run.transfer else {
                return send(request, over: transport, timedBy: clock, number: number, sentAt: sentAt, of: run)
            }
            return sendTransfer(request, plan: plan, over: transport, timedBy: clock, of: run) { [self] exchange in
                judge(exchange, number: number, sentAt: sentAt, of: run)
            }
        }
    }

    /// One sending over a carrier, its body collected in memory; the answer goes to ``judge(_:number:sentAt:of:)``
    /// where outcomes are delivered. (The one closure the transport is given: a request pays for no other.)
    /// - Parameter clock: What runs the sending's timers, or `nil` for real time.
    private func send(
        _ request: URLRequest,
        over transport: any Transport,
        timedBy clock: (any Scheduler)?,
        number: Int,
        sentAt: ContinuousClock.Instant,
        of run: RequestRun<EndpointType>
    ) -> @Sendable () -> Void {
        var options = TransportOptions(
            bodyFile: run.bodyFile?.url,
            timeout: run.endpoint.timeout,
            maximumResponseBodySize: run.endpoint.maximumResponseBodySize,
            tls: run.endpoint.tls,
            scheduler: clock
        )
        options.measuresTimings = run.observation != nil
        return transport.send(request, options: options) { [self] answer in
            let exchange = Exchange(request: request, answer: answer)
            guard let queue = run.deliveryQueue else { return judge(exchange, number: number, sentAt: sentAt, of: run) }
            queue.async { self.judge(exchange, number: number, sentAt: sentAt, of: run) }
        }
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
        guard pluginHooks.contains(.process), !run.handle.isCancelled else { return run.finish(exchange) }
        let judging = roles.judging
        let attempt = run.attempt(number, sent: exchange.request ?? run.request, at: sentAt, answer: exchange)
        run.step(exchange.request) {
            let cancelHooks = HookTask.start { [self] in
                let decision = await run.observation.bound { () async -> (AttemptDecision, AnyObject)? in
                    // Last to first: the plugin nearest the network judges the answer first.
                    for plugin in judging.reversed() {
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
                    retry(
                        number + 1,
                        of: run,
                        after: delay,
                        on: scheduler ?? timer,
                        requestedBy: requester
                    )
                }
            }
            return {
                cancelHooks()
                exchange.receiver?.discard()
                run.finishCancelled(exchange.request)
            }
        }
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
        run.step {
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
    }
}
