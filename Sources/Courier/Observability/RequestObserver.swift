import Foundation
import Tracing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Follows each request of a provider through the pipeline: the built-in ``MetricsPlugin`` and ``TracingPlugin``,
/// and the swift-log forms of ``RequestLoggerPlugin`` and ``ResponseLoggerPlugin``, which only read the request's id
/// and trace id.
///
/// The pipeline reports every step here, from one place, whichever plugin decided it: the start, each sending and
/// its answer (also one a plugin nearer the network retried before the observer's own `process` could see it),
/// each wait before a retry, each wait for a token refresh, and the end with the typed outcome. A provider without
/// an observing plugin makes no ``RequestObservation`` and calls nothing here.
protocol RequestObserver: AnyObject, Sendable {
    /// Whether this instance observes at all (a logger's closure form does not, and costs nothing to observe).
    var isObserving: Bool { get }
    /// Whether the observer reads ``RequestObservation/endpointName`` and ``RequestObservation/attributes``, which
    /// cost a reflection and a URL parse per request to make.
    var namesRequests: Bool { get }

    func requestStarted(_ observation: RequestObservation)
    /// Whether ``willSend(_:observation:)`` changes requests; only then is it called, and the headers checked after.
    var changesRequests: Bool { get }
    /// Changes a sending's request before any plugin's `prepare` sees it, e.g. to carry the trace context.
    func willSend(_ request: inout URLRequest, observation: RequestObservation)
    func sendingStarted(_ observation: RequestObservation, sending: Sending)
    func sendingEnded(_ observation: RequestObservation, sending: Sending, outcome: SendingOutcome)
    func retryScheduled(_ observation: RequestObservation, requestedBy plugin: String, delay: Duration)
    func waitStarted(_ observation: RequestObservation, wait: Wait)
    func waitEnded(_ observation: RequestObservation, wait: Wait, error: (any Error)?)
    func requestEnded(_ observation: RequestObservation, outcome: RequestOutcome)
}

extension RequestObserver {
    var isObserving: Bool { true }
    var namesRequests: Bool { true }
    var changesRequests: Bool { false }

    func requestStarted(_ observation: RequestObservation) {}
    func willSend(_ request: inout URLRequest, observation: RequestObservation) {}
    func sendingStarted(_ observation: RequestObservation, sending: Sending) {}
    func sendingEnded(_ observation: RequestObservation, sending: Sending, outcome: SendingOutcome) {}
    func retryScheduled(_ observation: RequestObservation, requestedBy plugin: String, delay: Duration) {}
    func waitStarted(_ observation: RequestObservation, wait: Wait) {}
    func waitEnded(_ observation: RequestObservation, wait: Wait, error: (any Error)?) {}
    func requestEnded(_ observation: RequestObservation, outcome: RequestOutcome) {}
}

/// One sending of a request: the first, or a resend.
struct Sending: Sendable {
    /// 1 for the first sending.
    let number: Int
    let startedAt: ContinuousClock.Instant
    /// ``startedAt`` on the tracer's wall clock, placed once: the sending's span starts there, and the phases the
    /// transport measured are placed after it, so that they never fall before the span however late it was made.
    let startedAtOnTracerClock: UInt64

    init(number: Int, startedAt: ContinuousClock.Instant) {
        self.number = number
        self.startedAt = startedAt
        let sinceStart = ContinuousClock.now - startedAt
        let now = DefaultTracerClock.now.nanosecondsSinceEpoch
        startedAtOnTracerClock = now - min(SendingTimeline.nanoseconds(sinceStart), now)
    }

    /// OpenTelemetry's `http.request.resend_count`: 0 for the first sending.
    var resendCount: Int { number - 1 }
}

/// What one sending brought back.
struct SendingOutcome: Sendable {
    /// The status, when an answer arrived.
    let statusCode: Int?
    /// Why no answer arrived (`nil` when one did).
    let error: (any Error)?
    let duration: Duration
    /// What the provider's cache did, when the answer went through one.
    let cacheStatus: CacheStatus?
    /// How long the sending's phases took, when the transport measured them.
    let timings: SendingTimings?

    init(exchange: Exchange, duration: Duration) {
        self.statusCode = exchange.head?.statusCode
        self.error = exchange.error
        self.duration = duration
        self.cacheStatus = exchange.head?.cacheStatus
        self.timings = exchange.head?.timings
    }

    init(cancelledAfter duration: Duration) {
        self.statusCode = nil
        self.error = URLError(.cancelled)
        self.duration = duration
        self.cacheStatus = nil
        self.timings = nil
    }

    /// OpenTelemetry's `error.type` for this sending: the status from 400 on, the transport's failure by name, or
    /// `nil` for a success.
    var errorType: String? {
        if let error { return ErrorType.of(error) }
        if let statusCode, statusCode >= 400 { return String(statusCode) }
        return nil
    }
}

/// A wait inside a request: before a retry, or for a fresh token.
struct Wait: Sendable {
    enum Kind: Sendable {
        /// Before resending, as `requestedBy` (a plugin's type name) asked, for `delay` on its scheduler.
        case retry(delay: Duration, requestedBy: String)
        /// For the token refresh that the request needs before it can be sent or resent.
        case tokenRefresh
    }

    let kind: Kind
}

/// How a request ended, as its caller got it.
struct RequestOutcome: Sendable {
    /// The last status received, if any.
    let statusCode: Int?
    /// What the provider's cache did for the last answer, when it went through one.
    let cacheStatus: CacheStatus?
    /// The ``ApiError`` case the caller got (e.g. `clientError`), or `nil` on success.
    let errorKind: String?
    /// OpenTelemetry's `error.type`: the status from 400 on, the transport's failure by name, else ``errorKind``.
    let errorType: String?
    /// The underlying error, for a span's exception event.
    let error: (any Error)?
    /// The caller cancelled: not a failure of the server or the network.
    let isCancelled: Bool
    /// How many times the request was sent.
    let sendings: Int
}

extension RequestOutcome {
    init<Value, ClientError>(
        result: Result<Value, ApiError<ClientError>>,
        exchange: Exchange,
        lastStatus: Int?,
        sendings: Int
    ) {
        let status = exchange.head?.statusCode ?? lastStatus
        self.statusCode = status
        self.cacheStatus = exchange.head?.cacheStatus
        self.sendings = sendings
        switch result {
        case .success:
            (errorKind, errorType, error, isCancelled) = (nil, nil, nil, false)
        case .failure(let apiError):
            errorKind = apiError.kind
            isCancelled = if case .cancelled = apiError { true } else { false }
            error = exchange.error ?? apiError
            if let transportError = exchange.error {
                errorType = ErrorType.of(transportError)
            } else if let status, status >= 400 {
                errorType = String(status)
            } else {
                errorType = apiError.kind
            }
        }
    }
}
