/// The HTML standard's event stream interpretation (§9.2.6), fed with the body in parts split anywhere.
///
/// Lines end at CRLF, LF or CR (a CR at the end of one part and an LF at the start of the next are one line end);
/// one leading byte order mark is skipped; lines starting with a colon are comments; a field name runs to the first
/// colon and one space after it is dropped. `event` sets the type, `data` adds a line of data, `id` sets the last
/// event ID unless its value contains NULL, `retry` sets the reconnection time when it is all ASCII digits, other
/// fields are ignored. A blank line dispatches the event, unless it has no data; an event not ended by a blank line
/// when the stream ends is dropped.
struct EventStreamParser: Sendable {
    /// The `retry` field's last valid value, in milliseconds.
    private(set) var reconnectionTime: Int?
    /// The last event ID buffer, which carries over from event to event.
    private(set) var lastEventId = ""

    private var line: [UInt8] = []
    private var afterCarriageReturn = false
    private var atStreamStart = true
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""

    /// The longest line kept; a longer one is cut there, so that an endless line cannot fill memory.
    let maximumLineLength: Int

    /// - Parameter lastEventId: The last event ID of an earlier connection, which carries over to this one.
    init(maximumLineLength: Int = 16 * 1024 * 1024, lastEventId: String = "") {
        self.maximumLineLength = maximumLineLength
        self.lastEventId = lastEventId
    }

    /// The events that `part` completes.
    mutating func parse<Bytes: Sequence>(_ part: Bytes) -> [ServerSentEvent] where Bytes.Element == UInt8 {
        var events: [ServerSentEvent] = []
        for byte in part {
            if atStreamStart {
                // U+FEFF as UTF-8 is EF BB BF; only a whole one at the very start is dropped.
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                line.append(byte)
                if line.count <= 3, line[...] == bom[..<line.count] {
                    if line.count == 3 {
                        line = []
                        atStreamStart = false
                    }
                    continue
                }
                atStreamStart = false
                let pending = line
                line = []
                for byte in pending { consume(byte, into: &events) }
                continue
            }
            consume(byte, into: &events)
        }
        return events
    }

    /// The stream has ended: a partial BOM is text after all, and an event without its blank line is dropped.
    mutating func finish() {
        line = []
        data = []
        hasData = false
        eventType = ""
        afterCarriageReturn = false
    }

    private mutating func consume(_ byte: UInt8, into events: inout [ServerSentEvent]) {
        switch byte {
        case UInt8(ascii: "\n") where afterCarriageReturn:
            afterCarriageReturn = false
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            afterCarriageReturn = byte == UInt8(ascii: "\r")
            if let event = endLine() { events.append(event) }
        default:
            afterCarriageReturn = false
            if line.count < maximumLineLength { line.append(byte) }
        }
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line = [] }
        guard !line.isEmpty else { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            data.append(contentsOf: value)
            data.append(UInt8(ascii: "\n"))
            hasData = true
        case "id":
            if !value.contains(0) { lastEventId = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                reconnectionTime = Int(String(decoding: value, as: UTF8.self)) ?? Int.max
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = []
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        if data.last == UInt8(ascii: "\n") { data.removeLast() }
        return ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType,
            data: String(decoding: data, as: UTF8.self),
            id: lastEventId
        )
    }
}
