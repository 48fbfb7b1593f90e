import Courier
import CourierTestServer
import Foundation
import PropertyBased
import Testing

/// Random Unicode through every place a request carries text: what the loopback server decodes is what was given,
/// byte for byte.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct RequestPropertyTests {
    /// ASCII (control characters included), Latin-1, or any Unicode scalar but the surrogates.
    static let character = Gen<Character>.oneOf(
        Gen.ascii,
        Gen.latin1,
        Gen<UInt32>.value(in: 0...0x10FFFF).compactMap { Unicode.Scalar($0) }.map { Character($0) }
    )
    static let text = character.string(of: 0...12)
    static let pairs = zip(text, text).array(of: 0...4)

    /// Sends `endpoint` and returns what the server received for it, or `nil` (recording an issue) if nothing
    /// new arrived.
    static func exchange(_ endpoint: FreeEndpoint, with server: TestServer) async -> ReceivedRequest? {
        let before = await server.receivedRequests().count
        let result = await ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl).response(on: endpoint)
        let received = await server.receivedRequests()
        guard received.count == before + 1 else {
            Issue.record("nothing arrived for \(endpoint): \(result)")
            return nil
        }
        return received.last
    }

    /// UTF-8 bytes, so that two canonically equivalent but differently written strings do not count as equal.
    static func bytes(_ fields: [ReceivedRequest.Field]) -> [[UInt8]] {
        fields.flatMap { [Array($0.name.utf8), Array($0.value.utf8)] }
    }

    static func bytes(_ pairs: [(String, String)]) -> [[UInt8]] {
        pairs.flatMap { [Array($0.0.utf8), Array($0.1.utf8)] }
    }

    @Test func queryKeysAndValuesArriveAsGiven() async throws {
        try await TestServer.withServer { server in
            await propertyCheck(input: Self.pairs) { pairs in
                let ordered = pairs.map { (key: $0.0, value: QueryParameterValue.string($0.1)) }
                let received = await Self.exchange(FreeEndpoint(subpath: "echo", ordered: ordered), with: server)
                #expect(received.map { Self.bytes($0.decodedQuery) } == Self.bytes(pairs))
            }
        }
    }

    @Test func pathSegmentsArriveAsGivenOrAreRefusedWhenTheyWouldBeResolved() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            await propertyCheck(input: Self.text) { segment in
                let endpoint = FreeEndpoint(subpath: "echo/" + segment)
                let segments = segment.split(separator: "/", omittingEmptySubsequences: false)
                if segments.contains(where: { $0 == "." || $0 == ".." }) {
                    let before = await server.receivedRequests().count
                    #expect(await provider.response(on: endpoint).invalidRequestReason?.contains("segment") == true)
                    #expect(await server.receivedRequests().count == before)
                } else {
                    let received = await Self.exchange(endpoint, with: server)
                    #expect(received.map { Array($0.decodedPath.utf8) } == Array(("/echo/" + segment).utf8))
                }
            }
        }
    }

    @Test func formFieldsArriveAsGiven() async throws {
        try await TestServer.withServer { server in
            await propertyCheck(input: Self.pairs) { pairs in
                let fields = pairs.map { (name: $0.0, value: $0.1) }
                let endpoint = FreeEndpoint(subpath: "echo", method: .post(body: .form(fields)))
                let received = await Self.exchange(endpoint, with: server)
                #expect(received.map { Self.bytes($0.formFields) } == Self.bytes(pairs))
            }
        }
    }

    /// The part-header escapes of the HTML standard, byte by byte: `"` is `%22`, CR `%0D`, LF `%0A`.
    static func escapedName(_ name: String) -> [UInt8] {
        let escapes: [UInt8: [UInt8]] = [0x22: Array("%22".utf8), 0x0D: Array("%0D".utf8), 0x0A: Array("%0A".utf8)]
        return name.utf8.flatMap { escapes[$0] ?? [$0] }
    }

    @Test func multipartNamesAndValuesArriveAsGivenWithTheStandardsEscapes() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            await propertyCheck(input: Self.pairs) { pairs in
                let parts = pairs.map { MultipartPart.text(name: $0.0, value: $0.1) }
                let endpoint = FreeEndpoint(subpath: "echo", method: .post(body: .multipart(parts)))
                guard !parts.isEmpty else {
                    #expect(
                        await provider.response(on: endpoint).invalidRequestReason?.contains("at least one") == true
                    )
                    return
                }
                let received = await Self.exchange(endpoint, with: server)?.multipartParts
                #expect(received?.map { Array(($0.name ?? "").utf8) } == pairs.map { Self.escapedName($0.0) })
                #expect(received?.map(\.body) == pairs.map { Data($0.1.utf8) })
            }
        }
    }
}
