extension ApiProvider {
    /// What carries a provider's requests after the plugins: the network, or a mocking behavior.
    enum Carrier: Sendable {
        case network(any Transport)
        case mocks(MockingBehavior<EndpointType>)
    }

    /// The one place that tells the network and the mocks apart: what carries sending number `number` of `run`,
    /// behind the provider's answer steps.
    func carrier(for run: RequestRun<EndpointType>, number: Int) -> any Transport {
        // An upgrade is neither a cache's (a stored answer to a GET is no switch of protocols) nor the mocks'.
        if let upgrade = run.carriedBy {
            guard let timeout = run.endpoint.timeout else { return upgrade }
            return TimedTransport(next: upgrade, timeout: timeout, receiver: nil)
        }
        // The network's transport without reading `carrier`, whose generic payload costs a lookup of its type.
        var transport = self.transport ?? mocks(for: run, number: number)
        if run.transfer?.requestBody != nil, !(transport is any RequestBodyStreaming) {
            transport = BodyReadingTransport(next: transport)
        }
        // The sending's overall timeout, behind the answer steps, so that a cache sees it as the network's failure
        // (and may serve a stale answer for it). A file's or a stream's is kept in front of its receiver instead
        // (`sendTransfer`), which must take no head after it.
        if run.transfer == nil, let timeout = run.endpoint.timeout {
            transport = TimedTransport(next: transport, timeout: timeout, receiver: nil)
        }
        if hasAnswerSteps {
            for step in answerSteps.reversed() {
                transport = SteppedTransport(step: step, endpoint: run.endpoint, next: transport)
            }
        }
        return transport
    }

    /// What answers sending number `number` of `run` on a provider the mocks answer.
    private func mocks(for run: RequestRun<EndpointType>, number: Int) -> any Transport {
        switch carrier {
        case .network(let network):
            return network
        case .mocks(let behavior):
            // A mocked answer's delay counts from the request's start, not from a retry's.
            let startedAt = number == 1 ? run.mockClockAtStart : nil
            return MockTransport(behavior: behavior, endpoint: run.endpoint, startedAt: startedAt)
        }
    }

    /// What runs a request's timers (timeouts, retry waits without a scheduler of their own), or `nil` for real
    /// time: the provider's scheduler over the network, the behavior's for the mocks, whose answers come on that
    /// scheduler's time. Kept as the provider's `clock`, read once.
    static func clock(of carrier: Carrier, scheduler: (any Scheduler)?) -> (any Scheduler)? {
        switch carrier {
        case .network: scheduler
        case .mocks(let behavior): behavior.scheduler
        }
    }

    /// ``clock``, or real time without one: what waits out a retry or a reconnection that has no scheduler of its
    /// own.
    package var timer: any Scheduler { clock ?? DispatchQueueScheduler.realTime }
}
