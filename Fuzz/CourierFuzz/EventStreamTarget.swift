#if DEBUG
@testable import Courier

extension FuzzTarget {
    /// A `text/event-stream` body gives the same events, last event ID and reconnection time whether it arrives
    /// whole, a byte at a time, or in two parts split anywhere; and no ID holds a NUL.
    static let eventStream = FuzzTarget(name: "event-stream") { input in
        // The first byte picks the split point; it stays part of the stream.
        let split = Int(input.first ?? 0) % (input.count + 1)
        for maximumLineLength in [16 * 1024 * 1024, 8] {
            let whole = parsed([input[...]], maximumLineLength: maximumLineLength)
            let byByte = parsed(input.map { [$0][...] }, maximumLineLength: maximumLineLength)
            let inTwo = parsed([input[..<split], input[split...]], maximumLineLength: maximumLineLength)
            if byByte != whole || inTwo != whole {
                preconditionFailure(
                    "the stream hex \(FuzzInput.hex(input)) (line limit \(maximumLineLength)) parsed "
                        + "whole as \(whole), byte by byte as \(byByte), split at \(split) as \(inTwo)"
                )
            }
            // By bytes: a combining mark after a NUL makes one Character with it, which `contains("\0")` would miss.
            if whole.lastEventId.utf8.contains(0) || whole.events.contains(where: { $0.id.utf8.contains(0) }) {
                preconditionFailure("the stream hex \(FuzzInput.hex(input)) set an event ID with NUL: \(whole)")
            }
        }
    }

    /// What one connection's parser makes of `parts`, ending the stream as ``ServerSentEventChunks`` does.
    private static func parsed(_ parts: [ArraySlice<UInt8>], maximumLineLength: Int) -> ParsedEventStream {
        var parser = EventStreamParser(maximumLineLength: maximumLineLength)
        let events = parts.flatMap { parser.parse($0) }
        parser.finish()
        return ParsedEventStream(
            events: events,
            lastEventId: parser.lastEventId,
            reconnectionTime: parser.reconnectionTime
        )
    }
}

/// Everything a parsed stream leaves: the events and the state a reconnection would carry.
struct ParsedEventStream: Equatable {
    let events: [ServerSentEvent]
    let lastEventId: String
    let reconnectionTime: Int?

    /// Byte for byte: `String`'s `==` would equate canonically equivalent data or IDs that differ in bytes.
    static func == (left: ParsedEventStream, right: ParsedEventStream) -> Bool {
        left.events.elementsEqual(right.events) {
            FuzzInput.same($0.type, $1.type) && FuzzInput.same($0.data, $1.data) && FuzzInput.same($0.id, $1.id)
        } && FuzzInput.same(left.lastEventId, right.lastEventId) && left.reconnectionTime == right.reconnectionTime
    }
}
#endif
