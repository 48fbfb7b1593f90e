@testable import Courier
import CourierTestServer
import Foundation
import Testing

/// The fields libcurl is given and the fields it hands back: an engine shares one header list among the requests with
/// the same fields, and keeps a head's fields as bytes until something asks for them.
@Suite(.timeLimit(.minutes(1))) struct CurlHeaderTests {
    /// Requests in flight together over one engine, each with one of three sets of fields: the server receives each
    /// request's own, whichever list the engine made last.
    @Test func requestsInFlightTogetherEachSendTheirOwnFields() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: CurlTransport(engines: 1))
            let sets: [[String: String]?] = [nil, ["X-Set": "one"], ["X-Set": "two", "Authorization": "Bearer t"]]
            let received = await withTaskGroup(of: (Int, ReceivedRequest?).self) { group in
                for index in 0..<30 {
                    group.addTask {
                        let endpoint = TestApi.echo(path: "\(index)", headers: sets[index % 3])
                        let result = await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self)
                        return (index, try? result.get())
                    }
                }
                var received: [Int: ReceivedRequest] = [:]
                for await (index, request) in group { received[index] = request }
                return received
            }
            #expect(received.count == 30)
            for (index, request) in received {
                let fields = sets[index % 3] ?? [:]
                #expect(request.path == "/echo/\(index)")
                #expect(request.headerValues("X-Set") == (fields["X-Set"].map { [$0] } ?? []))
                #expect(request.headerValues("Authorization") == (fields["Authorization"].map { [$0] } ?? []))
                #expect(request.headerValues("Accept") == ["application/json"])
                #expect(request.headerValues("User-Agent").count == 1)
                // A request without a body is sent without the fields libcurl adds only before one.
                #expect(request.headerValues("Expect").isEmpty)
            }
        }
    }

    /// A body's request still goes without `Expect: 100-continue` and without a form `Content-Type` of libcurl's.
    @Test func aRequestWithABodyGoesWithoutLibcurlsOwnFields() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: CurlTransport(engines: 1))
            // Past the size before which libcurl would ask `Expect: 100-continue`.
            let body = Data(repeating: 0x78, count: 2 << 20)
            let echoed = try await provider.response(
                on: .echo(.post(body: .data(body, contentType: "text/plain")), path: "large"),
                decodeBodyTo: ReceivedRequest.self
            ).get()
            #expect(echoed.headerValues("Expect").isEmpty)
            // One `Content-Type`, the endpoint's (which wins over the body's), not libcurl's form type beside it.
            #expect(echoed.headerValues("Content-Type") == ["application/json"])
            #expect(echoed.body == body)
        }
    }

    @Test func aHeadsFieldsAreFoundWhateverTheCaseOfTheirNames() {
        var fields = CurlHeadFields()
        Self.append("Content-Type", "application/json", to: &fields)
        Self.append("Vary", "Accept", to: &fields)
        Self.append("vary", "Cookie", to: &fields)
        Self.append("Vary", "Origin", to: &fields)
        Self.append("Empty", "", to: &fields)
        #expect(fields.value(of: "content-type") == "application/json")
        #expect(fields.value(of: "VARY") == "Accept, Cookie, Origin")
        #expect(fields.value(of: "Empty") == "")
        #expect(fields.value(of: "Missing") == nil)
        // As URLSession joins them: a repeated field under the spelling it came with.
        #expect(
            fields.headerFields == [
                "Content-Type": "application/json", "Vary": "Accept, Origin", "vary": "Cookie", "Empty": "",
            ]
        )
        fields.removeAll()
        #expect(fields.headerFields.isEmpty)
        #expect(fields.value(of: "Vary") == nil)
    }

    private static func append(_ name: String, _ value: String, to fields: inout CurlHeadFields) {
        Array(name.utf8).withUnsafeBytes { name in
            Array(value.utf8).withUnsafeBytes { value in fields.append(name: name, value: value) }
        }
    }
}
