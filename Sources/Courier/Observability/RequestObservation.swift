import Foundation
import Tracing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request as its observers follow it: its id, its endpoint's name, its trace context, and what is under way
/// (a sending, a wait), so that each step is reported once, also when a cancellation races with an answer.
///
/// Made only by a provider with an observing plugin. The plugins' hooks run with it as ``current`` (and with its
/// trace context as `ServiceContext.current`, so that a hook's own spans and log metadata join the request's trace).
final class RequestObservation: Sendable {
    /// The observation whose request the running plugin hook belongs to.
    @TaskLocal static var current: RequestObservation?

    /// Unique in the process, in the order requests start: it pairs the log lines of one request.
    let id: UInt64
    /// The endpoint's ``Endpoint/telemetryName``, when an observer ``RequestObserver/namesRequests`` (else empty).
    let endpointName: String
    /// What OpenTelemetry's conventions say of the request, when an observer names requests (else `nil`s).
    let attributes: HttpClientAttributes
    /// The request as every plugin's `modifyRequest` left it.
    let request: URLRequest
    private let observers: [any RequestObserver]
    private let state: Locked<State>

    private struct State {
        /// The caller's context at the start, then the request span's.
        var context: ServiceContext
        var trace: RequestTrace?
        var sendingSpan: (any Span)?
        var waitSpan: (any Span)?
        var sending: Sending?
        var sendings = 0
        var lastStatus: Int?
        var wait: Wait?
        var ended = false
    }

    private static let ids = Locked<UInt64>(0)

    /// - Parameter endpointName: The endpoint's name, or `nil` when no observer names requests: then neither it nor
    ///   the attributes are made.
    init(endpointName: String?, request: URLRequest, context: ServiceContext, observers: [any RequestObserver]) {
        self.id = Self.ids.withLock { id in
            id &+= 1
            return id
        }
        self.endpointName = endpointName ?? ""
        self.attributes = endpointName == nil ? HttpClientAttributes() : HttpClientAttributes(request)
        self.request = request
        self.observers = observers
        self.state = Locked(State(context: context))
    }

    /// The caller's trace context, or the request span's once one has started.
    var context: ServiceContext { state.withLock { $0.context } }

    /// The request's span and its ids, once a ``TracingPlugin`` has started it.
    var trace: RequestTrace? { state.withLock { $0.trace } }

    /// Records the request's span: hooks and child spans from now on run in its context.
    func setTrace(_ trace: RequestTrace) {
        state.withLock { state in
            state.trace = trace
            state.context = trace.span.context
        }
    }

    /// What a request's child span covers; one of each is open at a time.
    enum ChildSpan {
        case sending
        case wait
    }

    /// Keeps `span` until its step ends; a request that has already ended (a cancellation that overtook the step
    /// starting) ends it at once, so that no span stays open.
    func setChildSpan(_ span: any Span, for slot: ChildSpan) {
        let kept = state.withLock { state in
            guard !state.ended else { return false }
            switch slot {
            case .sending: state.sendingSpan = span
            case .wait: state.waitSpan = span
            }
            return true
        }
        if !kept { span.end() }
    }

    func takeChildSpan(for slot: ChildSpan) -> (any Span)? {
        state.withLock { state in
            switch slot {
            case .sending:
                defer { state.sendingSpan = nil }
                return state.sendingSpan
            case .wait:
                defer { state.waitSpan = nil }
                return state.waitSpan
            }
        }
    }

    /// Runs a synchronous hook with this observation current.
    func bound<Result>(_ hook: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self) {
            try ServiceContext.withValue(context, operation: hook)
        }
    }

    /// Runs the `async` hooks of one step with this observation current.
    func bound<Result>(_ hooks: () async -> Result) async -> Result {
        await Self.$current.withValue(self) {
            await ServiceContext.withValue(context, operation: hooks)
        }
    }

    func began() {
        for observer in observers { observer.requestStarted(self) }
    }

    /// Lets the observers change a sending's request (the trace context), before any plugin's `prepare`.
    /// - Returns: Why the request cannot be sent: a header an observer made invalid, blamed on that observer.
    func prepareSending(_ request: inout URLRequest) -> PluginFailure? {
        for observer in observers where observer.changesRequests {
            observer.willSend(&request, observation: self)
            do {
                try RequestBuilder.validateHeaders(of: request)
            } catch {
                return PluginFailure(by: observer, error: error)
            }
        }
        return nil
    }

    func sendingStarted(_ number: Int, at instant: ContinuousClock.Instant) {
        let sending = Sending(number: number, startedAt: instant)
        let isOpen = state.withLock { state in
            guard !state.ended else { return false }
            state.sending = sending
            state.sendings = max(state.sendings, number)
            return true
        }
        guard isOpen else { return }
        for observer in observers { observer.sendingStarted(self, sending: sending) }
    }

    /// Reports the answer (or failure) of sending `number`, unless the request has already ended without it.
    func sendingEnded(_ number: Int, exchange: Exchange) {
        let now = ContinuousClock.now
        let sending: Sending? = state.withLock { state in
            guard let sending = state.sending, sending.number == number else { return nil }
            state.sending = nil
            if let status = exchange.head?.statusCode { state.lastStatus = status }
            return sending
        }
        guard let sending else { return }
        let outcome = SendingOutcome(exchange: exchange, duration: sending.startedAt.duration(to: now))
        for observer in observers { observer.sendingEnded(self, sending: sending, outcome: outcome) }
    }

    /// A plugin asked for the request to be sent again, after `delay` (zero: at once).
    func retryScheduled(requestedBy plugin: String, delay: Duration) {
        guard !state.withLock({ $0.ended }) else { return }
        for observer in observers { observer.retryScheduled(self, requestedBy: plugin, delay: delay) }
    }

    func waitStarted(_ kind: Wait.Kind) {
        let wait = Wait(kind: kind)
        let isOpen = state.withLock { state in
            guard !state.ended else { return false }
            state.wait = wait
            return true
        }
        guard isOpen else { return }
        for observer in observers { observer.waitStarted(self, wait: wait) }
    }

    func waitEnded(error: (any Error)? = nil) {
        let wait: Wait? = state.withLock { state in
            defer { state.wait = nil }
            return state.wait
        }
        guard let wait else { return }
        for observer in observers { observer.waitEnded(self, wait: wait, error: error) }
    }

    /// Reports how the request ended, once; a sending or a wait still under way ends as cancelled first.
    func ended<Value, ClientError>(with result: Result<Value, ApiError<ClientError>>, exchange: Exchange) {
        let now = ContinuousClock.now
        let open: (sending: Sending?, wait: Wait?, sendings: Int, lastStatus: Int?)? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            defer { (state.sending, state.wait) = (nil, nil) }
            return (state.sending, state.wait, state.sendings, state.lastStatus)
        }
        guard let open else { return }
        if let sending = open.sending {
            let outcome = SendingOutcome(cancelledAfter: sending.startedAt.duration(to: now))
            for observer in observers { observer.sendingEnded(self, sending: sending, outcome: outcome) }
        }
        if let wait = open.wait {
            for observer in observers { observer.waitEnded(self, wait: wait, error: URLError(.cancelled)) }
        }
        let outcome = RequestOutcome(
            result: result,
            exchange: exchange,
            lastStatus: open.lastStatus,
            sendings: open.sendings
        )
        for observer in observers { observer.requestEnded(self, outcome: outcome) }
    }
}

extension RequestObservation {
    /// Reports the wait of the current request (if observed) for a token refresh around `refresh`.
    static func waitingForTokenRefresh<Token: Sendable>(_ refresh: Task<Token, Error>) async throws -> Token {
        guard let observation = current else { return try await refresh.value }
        observation.waitStarted(.tokenRefresh)
        do {
            let token = try await refresh.value
            observation.waitEnded()
            return token
        } catch {
            observation.waitEnded(error: error)
            throw error
        }
    }
}

extension RequestObservation? {
    /// Runs a synchronous hook with the observation current, or just runs it when there is none.
    func bound<Result>(_ hook: () throws -> Result) rethrows -> Result {
        guard let observation = self else { return try hook() }
        return try observation.bound(hook)
    }

    /// Runs the `async` hooks of one step with the observation current, or just runs them when there is none.
    func bound<Result>(_ hooks: () async -> Result) async -> Result {
        guard let observation = self else { return await hooks() }
        return await observation.bound(hooks)
    }
}
