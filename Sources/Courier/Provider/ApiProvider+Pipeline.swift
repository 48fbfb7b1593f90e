import Foundation
import Tracing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one request pipeline that every entry point goes through.
///
/// ``start(_:method:transfer:handle:transportDeliveryQueue:deliver:)`` builds and modifies the request, then runs its sendings:
/// the plugins' `prepare`, the network or the mocks, the plugins' `process`, again while a plugin asks for a
/// retry; it hands back the final ``Exchange``. ``finish(_:endpoint:)`` decodes it and runs the plugins'
/// `didPerformRequest`. The split lets each entry point decode on the caller's side, so result types need not be
/// `Sendable`. Each step is a callback or a ``HookTask`` that starts on the calling thread, never a wait, so a
/// blocking wait cannot starve it.
extension ApiProvider {
    /// - Parameter transportDeliveryQueue: Where to deliver what the network answers, or `nil` to deliver on the
    ///   transport's own queue (only for `deliver` closures that never block). A request refused while it is built
    ///   is delivered on the calling thread, before `start` returns; a mocked answer is delivered where its
    ///   scheduler runs it (or at once, without a delay), unless a plugin's hook suspends on the way.
    /// - Parameter method: Sent instead of the endpoint's own method, for a door that brings its own body.
    func start(
        _ endpoint: EndpointType,
        method: HttpMethod? = nil,
        transfer: TransferPlan? = nil,
        handle: CancellableRequest,
        transportDeliveryQueue: DispatchQueue? = nil,
        deliver: @escaping @Sendable (Exchange) -> Void
    ) {
        start(
            endpoint,
            method: method,
            transfer: transfer,
            handle: handle,
            transportDeliveryQueue: transportDeliveryQueue,
            delivery: .calling(deliver)
        )
    }

    /// ``start(_:method:transfer:handle:transportDeliveryQueue:deliver:)`` with the outcome's way out given as an
    /// ``ExchangeDelivery``.
    func start(
        _ endpoint: EndpointType,
        method: HttpMethod? = nil,
        transfer: TransferPlan? = nil,
        handle: CancellableRequest,
        transportDeliveryQueue: DispatchQueue? = nil,
        delivery deliver: ExchangeDelivery
    ) {
        // A mocked answer's delay counts from here, so that time passing while the request is on its way (a
        // test advancing the scheduler from another thread) is not added to it.
        var mockClockAtStart: Duration?
        if case .mocks(let behavior) = carrier, behavior.delay != nil { mockClockAtStart = behavior.scheduler.now }
        let built: RequestBuilder.Built
        // A mocked request never reaches a transport: its body stays in memory, where mocks and plugins can see it,
        // and no temporary file is written that nothing would read.
        let purpose: RequestBuilder.Purpose = mockingBehavior == nil ? .sending : .inspecting
        switch prepare(endpoint, method: method, headers: transfer?.headers ?? [:], purpose: purpose) {
        case .success(let prepared): built = prepared
        case .failure(let refusal):
            refusal.bodyFile?.removeIfTemporary()
            _ = handle.finish()
            return deliver(Exchange(request: refusal.request, error: refusal.error))
        }
        // Plugins' hooks run off the transport's serial queue, so that a slow hook cannot hold up other requests.
        let deliveryQueue = transportDeliveryQueue ?? (plugins.isEmpty ? nil : .global())
        // Only a provider with an observing plugin follows its requests: without one, nothing of this is made.
        let observation = observers.isEmpty ? nil : observe(endpoint, request: built.request)
        let run = RequestRun(
            endpoint: endpoint,
            built: built,
            handle: handle,
            deliveryQueue: mockingBehavior == nil ? deliveryQueue : nil,
            observation: observation,
            transfer: transfer,
            followsAttempts: !plugins.isEmpty,
            deliver: deliver
        )
        if let observation { observation.began() }
        if !plugins.isEmpty {
            observation.bound {
                for plugin in plugins {
                    plugin.willPerformRequest(built.request, endpoint: endpoint)
                }
            }
        }
        attempt(1, of: run, mockClockAtStart: mockClockAtStart)
    }

    /// The observation of a request about to start, in the caller's trace context. Kept out of `start`, which a
    /// provider without observers runs without it.
    @inline(never)
    private func observe(_ endpoint: EndpointType, request: URLRequest) -> RequestObservation {
        RequestObservation(
            endpointName: observersNameRequests ? endpoint.telemetryName : nil,
            request: request,
            context: ServiceContext.current ?? .topLevel,
            observers: observers
        )
    }

    /// A request that could not be built, or that a plugin's change made invalid.
    struct Refusal: Error {
        /// The request as the plugins left it, or `nil` when it could not be built at all.
        let request: URLRequest?
        let error: InvalidRequestError
        let bodyFile: RequestBuilder.BodyFile?
    }

    /// Builds the request for `endpoint` and lets every plugin modify it: what is sent, and what
    /// ``urlRequest(for:)`` shows. The header check runs again after the plugins.
    /// - Parameter headers: Set on the built request before the plugins see it (a transfer's own, e.g.
    ///   `Last-Event-ID`).
    func prepare(
        _ endpoint: EndpointType,
        method: HttpMethod? = nil,
        headers: [String: String] = [:],
        purpose: RequestBuilder.Purpose
    ) -> Result<RequestBuilder.Built, Refusal> {
        var built: RequestBuilder.Built
        let request = RequestBuilder.request(
            for: endpoint,
            baseUrl: baseUrl,
            method: method,
            purpose: purpose,
            baseUrls: baseUrls
        )
        switch request {
        case .success(let success): built = success
        case .failure(let error): return .failure(Refusal(request: nil, error: error, bodyFile: nil))
        }
        for (name, value) in headers {
            built.request.setValue(value, forHTTPHeaderField: name)
        }
        // The builder checked its headers; only a plugin's change needs checking again.
        guard !plugins.isEmpty else { return .success(built) }
        for plugin in plugins {
            plugin.modifyRequest(&built.request, endpoint: endpoint)
        }
        do {
            try RequestBuilder.validateHeaders(of: built.request)
        } catch {
            return .failure(Refusal(request: built.request, error: error, bodyFile: built.bodyFile))
        }
        return .success(built)
    }

    /// Runs the plugins' `prepare` hooks for sending number `number`, then sends.
    private func attempt(_ number: Int, of run: RequestRun<EndpointType>, mockClockAtStart: Duration? = nil) {
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
