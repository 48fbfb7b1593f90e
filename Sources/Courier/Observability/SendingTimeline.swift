import Tracing

/// A sending's ``SendingTimings`` as events of its span, at the instants the phases ended: the transport's clock
/// gives durations, placed after the sending's start on the tracer's wall clock.
enum SendingTimeline {
    /// The instant a sending's span starts at.
    static func start(of sending: Sending) -> some TracerInstant {
        At(nanosecondsSinceEpoch: sending.startedAtOnTracerClock)
    }

    static func add(_ timings: SendingTimings, of sending: Sending, to span: any Span) {
        let start = sending.startedAtOnTracerClock
        func event(_ name: String, after offset: Duration) {
            span.addEvent(SpanEvent(name: name, at: At(nanosecondsSinceEpoch: start + nanoseconds(offset))))
        }
        if let reused = timings.reusedConnection { span.attributes["courier.connection.reused"] = reused }
        var elapsed = Duration.zero
        if let lookup = timings.nameLookup {
            event("domainLookupStart", after: elapsed)
            elapsed += lookup
            event("domainLookupEnd", after: elapsed)
        }
        if let connect = timings.connect {
            event("connectStart", after: elapsed)
            elapsed += connect
            if let handshake = timings.tlsHandshake {
                event("secureConnectionStart", after: elapsed)
                elapsed += handshake
            }
            event("connectEnd", after: elapsed)
        }
        if let firstByte = timings.firstByte { event("responseStart", after: max(firstByte, elapsed)) }
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
    }

    private struct At: TracerInstant {
        let nanosecondsSinceEpoch: UInt64

        static func < (left: At, right: At) -> Bool { left.nanosecondsSinceEpoch < right.nanosecondsSinceEpoch }
    }
}
