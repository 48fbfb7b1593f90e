import Tracing

/// The span of one request, and its trace's id as the tracer's propagation writes it (W3C `traceparent`), for logs.
struct RequestTrace: Sendable {
    let span: any Span
    let traceId: String?
}
