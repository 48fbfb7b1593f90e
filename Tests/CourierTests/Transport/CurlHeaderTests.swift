@testable import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fields libcurl is given and the fields it hands back: an engine shares one header list among the requests with
/// the same fields, and keeps a head's fields as bytes until something asks for them.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct CurlHeaderTests {
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

    /// A body past the size before which libcurl would ask `Expect: 100-continue`, sent without a `Content-Type`
    /// (as a plugin or a caller of the transport may send it): neither field of libcurl's own goes with it.
    @Test func aBodyGoesWithoutLibcurlsExpectAndFormType() async throws {
        try await TestServer.withServer { server in
            let transport = CurlTransport(engines: 1)
            var request = URLRequest(url: server.baseUrl.appendingPathComponent("echo/large"))
            request.httpMethod = "PUT"
            let body = Data(repeating: 0x78, count: 2 << 20)
            request.httpBody = body
            let echoed = try JSONDecoder().decode(
                ReceivedRequest.self,
                from: try await Self.send(request, over: transport)
            )
            #expect(echoed.method == "PUT")
            #expect(echoed.headerValues("Expect").isEmpty)
            #expect(echoed.headerValues("Content-Type").isEmpty)
            #expect(echoed.body == body)
        }
    }

    /// A `POST` without a body, which libcurl would send with a form `Content-Type`, goes without one, as over
    /// URLSession and AsyncHTTPClient.
    @Test func aPostWithoutABodyGoesWithoutAContentType() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: CurlTransport(engines: 1))
            let echoed = try await provider.response(
                on: .echo(.post(), path: "empty", headers: ["Accept": "application/json"]),
                decodeBodyTo: ReceivedRequest.self
            ).get()
            #expect(echoed.method == "POST")
            #expect(echoed.headerValues("Content-Type").isEmpty)
            #expect(echoed.headerValues("Content-Length") == ["0"])
            #expect(echoed.body.isEmpty)
        }
    }

    private static func send(_ request: URLRequest, over transport: CurlTransport) async throws -> Data {
        let answer = await withCheckedContinuation { continuation in
            _ = transport.send(request, options: TransportOptions()) { continuation.resume(returning: $0) }
        }
        return try answer.get().body
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
        // The transport's own checks read every spelling: a length given twice is given twice, whatever the case.
        Self.append("content-length", "6", to: &fields)
        Self.append("Content-Length", "5", to: &fields)
        #expect(fields.value(of: "Content-Length") == "6, 5")
        // As URLSession joins them: a repeated field under the spelling it came with.
        #expect(
            fields.headerFields == [
                "Content-Type": "application/json", "Vary": "Accept, Origin", "vary": "Cookie", "Empty": "",
                "content-length": "6", "Content-Length": "5",
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
