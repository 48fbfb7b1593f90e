import Courier
import CourierTestServer
import Foundation
import PropertyBased
import Testing

/// Random Unicode through every place a request carries text: what the loopback server decodes is what was given.
@Suite(.timeLimit(.minutes(2))) struct RequestPropertyTests {
    /// ASCII (control characters included), Latin-1, or any Unicode scalar but the surrogates.
    static let character = Gen<Character>.oneOf(
        Gen.ascii,
        Gen.latin1,
        Gen<UInt32>.value(in: 0...0x10FFFF).compactMap { Unicode.Scalar($0) }.map { Character($0) }
    )
    static let text = character.string(of: 0...12)
    static let pairs = zip(text, text).array(of: 0...4)

    @Test func queryKeysAndValuesArriveAsGiven() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            await propertyCheck(input: Self.pairs) { pairs in
                let ordered = pairs.map { (key: $0.0, value: QueryParameterValue.string($0.1)) }
                _ = await provider.response(on: FreeEndpoint(subpath: "echo", ordered: ordered))
                let received = await server.receivedRequests().last
                #expect(received?.decodedQuery == pairs.map { ReceivedRequest.Field(name: $0.0, value: $0.1) })
            }
        }
    }

    @Test func pathSegmentsArriveAsGivenOrAreRefusedWhenTheyWouldBeResolved() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            await propertyCheck(input: Self.text) { segment in
                let countBefore = await server.receivedRequests().count
                let result = await provider.response(on: FreeEndpoint(subpath: "echo/" + segment))
                let received = await server.receivedRequests()
                if segment.split(separator: "/", omittingEmptySubsequences: false).contains(where: {
                    $0 == "." || $0 == ".."
                }) {
                    #expect(result.invalidRequestReason?.contains("segment") == true)
                    #expect(received.count == countBefore)
                } else {
                    #expect(received.last?.decodedPath == "/echo/" + segment)
                }
            }
        }
    }

    @Test func formFieldsArriveAsGiven() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            await propertyCheck(input: Self.pairs) { pairs in
                let fields = pairs.map { (name: $0.0, value: $0.1) }
                _ = await provider.response(on: FreeEndpoint(subpath: "echo", method: .post(body: .form(fields))))
                let received = await server.receivedRequests().last
                #expect(received?.formFields == pairs.map { ReceivedRequest.Field(name: $0.0, value: $0.1) })
            }
        }
    }

    @Test func multipartNamesAndValuesArriveAsGivenWithNamesEscapedAsBrowsersDo() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            await propertyCheck(input: Self.pairs) { pairs in
                let parts = pairs.map { MultipartPart.text(name: $0.0, value: $0.1) }
                _ = await provider.response(on: FreeEndpoint(subpath: "echo", method: .post(body: .multipart(parts))))
                let received = await server.receivedRequests().last?.multipartParts
                let escaped = pairs.map {
                    $0.0.replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
                        .replacingOccurrences(of: "\"", with: "%22")
                }
                #expect(received?.map(\.name) == escaped)
                #expect(received?.map(\.body) == pairs.map { Data($0.1.utf8) })
            }
        }
    }
}
