import Foundation
import Tracing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Traces every request through apple/swift-distributed-tracing, following OpenTelemetry's HTTP client conventions,
/// and propagates the trace to the server.
///
/// - One span per request, of kind `client`, named `{method} {endpoint}` (e.g. `GET TodoApi.list`, from
///   ``Endpoint/telemetryName``), a child of the caller's span (`ServiceContext.current` where the request starts).
///   Its attributes: `http.request.method`, `url.full` (without credentials, query values hidden as
///   ``LogRedaction`` and OpenTelemetry ask), `server.address`, `server.port`, `courier.endpoint`, and at the end
///   `http.response.status_code`, `http.request.resend_count` (when sent more than once) and `error.type`; with an
///   ``HttpCache``, `courier.cache.status` (``CacheStatus/name``) and, for a stale answer, `courier.cache.stale_reason`.
/// - Child spans for each sending (`send`, with `http.request.resend_count`, the status and the cache's status), each
///   wait before a retry (`retry wait`) and each wait for a token refresh (`token refresh`). When the transport
///   measured the sending's ``SendingTimings`` (`CurlTransport` does), its span has `courier.connection.reused` and
///   an event at the end of each phase, named as the browser's resource timing and OpenTelemetry's web
///   instrumentations name them: `domainLookupStart`, `domainLookupEnd`, `connectStart`, `secureConnectionStart`,
///   `connectEnd`, `responseStart`.
/// - A 4xx or 5xx answer, a transport failure or a body that does not decode marks the request's span as an error;
///   a caller's cancellation does not.
/// - The request span's context is injected into the headers of every sending with the tracer's propagation (e.g.
///   `traceparent` with a W3C propagator) before any plugin's ``Plugin/prepare(_:endpoint:)``, wherever the plugin
///   stands in the list: a signing plugin signs it and ``RequestLoggerPlugin`` logs it as sent.
/// - Plugins' hooks run with the request span's context as `ServiceContext.current`, so that their own spans and a
///   logger's metadata provider join the trace.
/// - A WebSocket connection (CourierWebSocket) is a span `WebSocket {endpoint}` of its own, with its upgrade
///   requests' spans as children.
///
/// The tracer is called where each sending starts and where its answer arrives, which may be a transport's own
/// thread serving other requests: a tracer must not block there (those made for servers do not).
///
/// One tracing plugin per provider. Over AsyncHTTPClient, give the client no tracer of its own (Courier's
/// `AsyncHTTPClientTransport()` does not), or it adds a second, unparented span per sending.
///
/// ```swift
/// let provider = ApiProvider<TodoApi>(
///     plugins: [
///         HttpAuthPlugin { token },
///         TracingPlugin(),
///         RequestLoggerPlugin(logger: Logger(label: "todo.api")),
///         ResponseLoggerPlugin(logger: Logger(label: "todo.api")),
///     ]
/// )
/// ```
public final class TracingPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, RequestObserver, @unchecked Sendable {
    /// It only observes: the trace context goes on each sending through the request's observation, without a
    /// task for `prepare`.
    override public var implementedHooks: PluginHooks { [] }
    private let configuredTracer: (any Tracer)?
    private let redaction: LogRedaction

    /// Creates the plugin.
    /// - Parameters:
    ///   - tracer: Where spans go, e.g. an `InMemoryTracer` in tests; `nil` for the tracer that
    ///     `InstrumentationSystem.bootstrap` installed, read for each request.
    ///   - redaction: The query parameters whose values `url.full` hides, as the logging plugin hides them;
    ///     OpenTelemetry's `AWSAccessKeyId`, `Signature`, `sig` and `X-Goog-Signature` are hidden in any case.
    public init(tracer: (any Tracer)? = nil, redaction: LogRedaction = LogRedaction()) {
        self.configuredTracer = tracer
        var redaction = redaction
        redaction.queryParameters.formUnion(["awsaccesskeyid", "signature", "sig", "x-goog-signature"])
        self.redaction = redaction
    }

    var tracer: any Tracer { configuredTracer ?? InstrumentationSystem.tracer }

    /// Puts the request span's context on `request`, as the pipeline does for every sending before the plugins'
    /// `prepare` (it does not call this hook).
    override public func prepare(_ request: inout URLRequest, endpoint: EndpointType) async throws {
        guard let observation = RequestObservation.current else { return }
        willSend(&request, observation: observation)
    }

    var changesRequests: Bool { true }

    func willSend(_ request: inout URLRequest, observation: RequestObservation) {
        guard let trace = observation.trace else { return }
        tracer.inject(trace.span.context, into: &request, using: URLRequestInjector())
    }

    func requestStarted(_ observation: RequestObservation) {
        let tracer = self.tracer
        let attributes = observation.attributes
        let name = "\(attributes.method == "_OTHER" ? "HTTP" : attributes.method) \(observation.endpointName)"
        let span = tracer.startSpan(name, context: observation.context, ofKind: .client)
        // A span that records nothing (sampled out, or a no-op tracer) is spared the URL's redaction.
        if span.isRecording {
            setRequestAttributes(of: observation, on: span)
        }
        var propagated: [String: String] = [:]
        tracer.inject(span.context, into: &propagated, using: DictionaryInjector())
        observation.setTrace(RequestTrace(span: span, traceId: TraceParent(propagated["traceparent"])?.traceId))
    }

    private func setRequestAttributes(of observation: RequestObservation, on span: any Span) {
        let attributes = observation.attributes
        span.updateAttributes { span in
            span["http.request.method"] = attributes.method
            span["http.request.method_original"] = attributes.originalMethod
            span["url.full"] = redaction.redacted(url: observation.request.url, hidingUser: true)
            span["server.address"] = attributes.serverAddress
            span["server.port"] = attributes.serverPort
            span[HttpClientMetrics.endpointDimension] = observation.endpointName
        }
    }

    func sendingStarted(_ observation: RequestObservation, sending: Sending) {
        guard let parent = observation.trace else { return }
        let span = tracer.startSpan(
            "send",
            context: parent.span.context,
            ofKind: .internal,
            at: SendingTimeline.start(of: sending)
        )
        if sending.resendCount > 0, span.isRecording {
            span.attributes["http.request.resend_count"] = sending.resendCount
        }
        observation.setChildSpan(span, for: .sending)
    }

    func sendingEnded(_ observation: RequestObservation, sending: Sending, outcome: SendingOutcome) {
        guard let span = observation.takeChildSpan(for: .sending) else { return }
        if let timings = outcome.timings, span.isRecording { SendingTimeline.add(timings, of: sending, to: span) }
        if let status = outcome.statusCode, span.isRecording { span.attributes["http.response.status_code"] = status }
        if let cacheStatus = outcome.cacheStatus, span.isRecording { Self.set(cacheStatus, on: span) }
        if let errorType = outcome.errorType, span.isRecording {
            span.attributes["error.type"] = errorType
            if errorType != "cancelled" { span.setStatus(SpanStatus(code: .error)) }
        }
        span.end()
    }

    func waitStarted(_ observation: RequestObservation, wait: Wait) {
        guard let parent = observation.trace else { return }
        let span: any Span
        switch wait.kind {
        case .retry(let delay, let requestedBy):
            span = tracer.startSpan("retry wait", context: parent.span.context, ofKind: .internal)
            span.updateAttributes { span in
                // Clamped: a server's `Retry-After` can name a delay no `Int` of milliseconds holds.
                let milliseconds = delay / .milliseconds(1)
                span["courier.retry.delay_ms"] = milliseconds < Double(Int.max) ? Int(milliseconds) : Int.max
                span["courier.retry.requested_by"] = requestedBy
            }
        case .tokenRefresh:
            span = tracer.startSpan("token refresh", context: parent.span.context, ofKind: .internal)
        }
        observation.setChildSpan(span, for: .wait)
    }

    func waitEnded(_ observation: RequestObservation, wait: Wait, error: (any Error)?) {
        guard let span = observation.takeChildSpan(for: .wait) else { return }
        if let error, (error as? URLError)?.code != .cancelled {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    /// `courier.cache.status` (``CacheStatus/name``), and `courier.cache.stale_reason` for a stale answer.
    private static func set(_ cacheStatus: CacheStatus, on span: any Span) {
        span.attributes[HttpClientMetrics.cacheStatusDimension] = cacheStatus.name
        if case .stale(let reason) = cacheStatus { span.attributes["courier.cache.stale_reason"] = reason.rawValue }
    }

    func requestEnded(_ observation: RequestObservation, outcome: RequestOutcome) {
        guard let span = observation.trace?.span else { return }
        if span.isRecording {
            span.updateAttributes { span in
                span["http.response.status_code"] = outcome.statusCode
                span["http.request.resend_count"] = outcome.sendings > 1 ? outcome.sendings - 1 : nil
            }
            if let cacheStatus = outcome.cacheStatus { Self.set(cacheStatus, on: span) }
        }
        if let errorType = outcome.errorType, !outcome.isCancelled, span.isRecording {
            span.attributes["error.type"] = errorType
            if let error = outcome.error { span.recordError(error) }
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }
}

/// Writes the propagated trace context as request headers, replacing those of an earlier sending.
struct URLRequestInjector: Injector {
    func inject(_ value: String, forKey key: String, into request: inout URLRequest) {
        request.setValue(value, forHTTPHeaderField: key)
    }
}

/// Collects the propagated trace context, to read the ids that the logs show.
struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key.lowercased()] = value
    }
}

/// The trace id of a W3C `traceparent` header: `00-{32 hex trace id}-{16 hex span id}-{flags}`.
struct TraceParent {
    let traceId: String

    init?(_ header: String?) {
        guard let fields = header?.split(separator: "-"), fields.count == 4, fields[1].count == 32,
            fields[2].count == 16
        else { return nil }
        traceId = String(fields[1])
    }
}
