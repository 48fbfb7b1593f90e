import InMemoryTracing
import Tracing

/// An `InMemoryTracer` with W3C-shaped ids that propagates them as a W3C propagator does (swift-otel's, in an
/// app): one `traceparent` header, `00-{trace id}-{span id}-01`.
struct W3CTracer: Tracer {
    let recorder = InMemoryTracer(
        idGenerator: .init(nextTraceID: { Self.randomHex(bytes: 16) }, nextSpanID: { Self.randomHex(bytes: 8) })
    )

    /// Whether the propagated header's name has a space, which no header name may have.
    var corruptsHeader = false

    var finishedSpans: [FinishedInMemorySpan] { recorder.finishedSpans }
    var activeSpans: [InMemorySpan] { recorder.activeSpans }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> InMemorySpan {
        recorder.startSpan(
            operationName,
            context: context(),
            ofKind: kind,
            at: instant(),
            function: function,
            file: fileID,
            line: line
        )
    }

    func activeSpan(identifiedBy context: ServiceContext) -> InMemorySpan? {
        recorder.activeSpan(identifiedBy: context)
    }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext,
        into carrier: inout Carrier,
        using injector: Inject
    )
    where Carrier == Inject.Carrier {
        guard let span = context.inMemorySpanContext else { return }
        let name = corruptsHeader ? "trace parent" : "traceparent"
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: name, into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier,
        into context: inout ServiceContext,
        using extractor: Extract
    )
    where Carrier == Extract.Carrier {}

    private static func randomHex(bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}

extension FinishedInMemorySpan {
    /// The span's attributes as text (`GET`, `200`), for comparing with a table.
    var attributeTexts: [String: String] {
        var texts: [String: String] = [:]
        attributes.forEach { name, attribute in texts[name] = attribute.text }
        return texts
    }
}

extension SpanAttribute {
    /// The value as text, whatever its type.
    fileprivate var text: String {
        switch self {
        case .string(let value): value
        case .int32(let value): String(value)
        case .int64(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        default: "\(self)"
        }
    }
}
