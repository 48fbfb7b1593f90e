import Foundation
import PropertyBased
import Testing

@testable import Courier

/// The event stream interpretation of the HTML standard (§9.2.6), case by case, and the same events however the
/// stream is split into parts.
@Suite(.serialized) struct EventStreamParserTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let rule: String
        let stream: String
        let events: [ServerSentEvent]
        var retry: Int?

        var testDescription: String { rule }
    }

    static func event(_ data: String, type: String = "message", id: String = "") -> ServerSentEvent {
        ServerSentEvent(type: type, data: data, id: id)
    }

    /// Each row is one rule of the standard's parsing algorithm.
    static let table: [Row] = [
        Row(rule: "a blank line dispatches the event", stream: "data: hello\n\n", events: [event("hello")]),
        Row(rule: "data lines join with LF", stream: "data: a\ndata: b\n\n", events: [event("a\nb")]),
        Row(rule: "event sets the type", stream: "event: add\ndata: 1\n\n", events: [event("1", type: "add")]),
        Row(rule: "a line starting with a colon is a comment", stream: ": ping\ndata: x\n\n", events: [event("x")]),
        Row(rule: "only a comment dispatches nothing", stream: ": ping\n\n", events: []),
        Row(rule: "no space after the colon", stream: "data:x\n\n", events: [event("x")]),
        Row(rule: "only one space after the colon is dropped", stream: "data:  x\n\n", events: [event(" x")]),
        Row(rule: "a colon in the value stays", stream: "data: a:b\n\n", events: [event("a:b")]),
        Row(rule: "a field without colon has an empty value", stream: "data\n\n", events: [event("")]),
        Row(rule: "an empty data field dispatches empty data", stream: "data:\n\n", events: [event("")]),
        Row(rule: "only the last LF of data is removed", stream: "data: a\ndata:\n\n", events: [event("a\n")]),
        Row(
            rule: "no data dispatches nothing, and the type resets",
            stream: "event: lost\n\ndata: x\n\n",
            events: [event("x")]
        ),
        Row(
            rule: "the last event ID carries over",
            stream: "id: 1\ndata: a\n\ndata: b\n\n",
            events: [event("a", id: "1"), event("b", id: "1")]
        ),
        Row(
            rule: "an empty id clears the last event ID",
            stream: "id: 1\ndata: a\n\nid\ndata: b\n\n",
            events: [event("a", id: "1"), event("b")]
        ),
        Row(
            rule: "an id containing NULL is ignored",
            stream: "id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n",
            events: [event("a", id: "1"), event("b", id: "1")]
        ),
        Row(rule: "retry with digits sets the reconnection time", stream: "retry: 5000\n\n", events: [], retry: 5000),
        Row(rule: "retry with anything else is ignored", stream: "retry: 5s\nretry: -1\n\n", events: []),
        Row(rule: "unknown fields are ignored", stream: "foo: bar\ndata: a\n\n", events: [event("a")]),
        Row(rule: "a field name with a leading space is unknown", stream: " data: x\n\n", events: []),
        Row(rule: "field names are case-sensitive", stream: "Data: x\n\n", events: []),
        Row(rule: "CR alone ends lines", stream: "data: a\rdata: b\r\r", events: [event("a\nb")]),
        Row(rule: "CRLF ends lines", stream: "data: a\r\ndata: b\r\n\r\n", events: [event("a\nb")]),
        Row(rule: "line ends can be mixed", stream: "data: a\rdata: b\ndata: c\r\n\n", events: [event("a\nb\nc")]),
        Row(rule: "one leading BOM is skipped", stream: "\u{FEFF}data: a\n\n", events: [event("a")]),
        Row(rule: "a second BOM is part of the field name", stream: "\u{FEFF}\u{FEFF}data: a\n\n", events: []),
        Row(rule: "a BOM later on is text", stream: "data: \u{FEFF}a\n\n", events: [event("\u{FEFF}a")]),
        Row(
            rule: "an event not ended by a blank line is dropped",
            stream: "data: a\n\ndata: b\n",
            events: [event("a")]
        ),
        Row(rule: "UTF-8 data", stream: "data: Grüße ✓ 🚀\n\n", events: [event("Grüße ✓ 🚀")]),
        Row(
            rule: "the type applies to one event only",
            stream: "event: a\ndata: 1\n\ndata: 2\n\n",
            events: [event("1", type: "a"), event("2")]
        ),
    ]

    @Test(arguments: table)
    func theStreamParsesAsTheStandardSays(row: Row) {
        var parser = EventStreamParser()
        let events = parser.parse(Array(row.stream.utf8))
        parser.finish()
        #expect(events == row.events)
        #expect(parser.reconnectionTime == row.retry)
    }

    @Test func invalidUtf8IsReplacedNotFatal() {
        var parser = EventStreamParser()
        let events = parser.parse([UInt8]("data: a".utf8) + [0xFF, 0xFE] + [UInt8]("b\n\n".utf8))
        #expect(events == [Self.event("a\u{FFFD}\u{FFFD}b")])
    }

    @Test func anEndlessLineIsCutAtTheLimit() {
        var parser = EventStreamParser(maximumLineLength: 16)
        let events = parser.parse(Array(("data: " + String(repeating: "x", count: 1_000) + "\n\n").utf8))
        #expect(events == [Self.event(String(repeating: "x", count: 10))])
    }

    /// Pieces from which streams are made: every kind of line end, BOM bytes, fields, comments, multi-byte text.
    static let pieces: [[UInt8]] =
        [
            "data: x", "data:y", "id: 7", "id", "event: e", "retry: 10", ": c", "\n", "\r", "\r\n", "\n\n", "é", "🚀",
            "data", ":",
        ].map { Array($0.utf8) } + [[0xEF, 0xBB, 0xBF], [0xEF], [0xBB, 0xBF]]

    static let streams = Gen<Int>.int(in: 0..<pieces.count).array(of: 0...40).map { indices in
        indices.flatMap { pieces[$0] }
    }
    static let cuts = Gen<Int>.int(in: 1...9).array(of: 1...40)

    /// However the network splits the stream, the same events and the same reconnection time come out.
    @Test func splittingTheStreamAnywhereGivesTheSameEvents() async {
        await propertyCheck(input: Self.streams, Self.cuts) { stream, cuts in
            var whole = EventStreamParser()
            let expected = whole.parse(stream)
            var split = EventStreamParser()
            var events: [ServerSentEvent] = []
            var start = 0
            var cutIndex = 0
            while start < stream.count {
                let end = min(stream.count, start + cuts[cutIndex % cuts.count])
                events += split.parse(stream[start..<end])
                start = end
                cutIndex += 1
            }
            #expect(events == expected)
            #expect(split.reconnectionTime == whole.reconnectionTime)
            #expect(split.lastEventId == whole.lastEventId)
        }
    }
}
