#if Combine
import CourierTestServer
import Foundation
import Testing

@testable import CourierCombine

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// CombineRequest's door: every answer as a value, and the operators that judge it.
@Suite struct CombineValidationTests {
    @Test func aClientErrorIsAnAnswerUntilTheStatusIsValidated() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let answer = try #require(await provider.dataResponsePublisher(on: .status(404)).outcome().values.first)
            #expect(answer.response.statusCode == 404)
            #expect(try JSONDecoder().decode(TestError.self, from: answer.data).message == "status 404")

            let validated = await provider.dataResponsePublisher(on: .status(404))
                .validateStatusCode(in: 200..<300)
                .outcome()
            let failure = try #require(validated.failure as? PublisherValidationError)
            #expect(failure == .unexpectedStatusCode(404, expected: "200..<300"))
            #expect(
                failure.localizedDescription
                    == "The server answered 404 Not Found, where a status in 200..<300 was expected."
            )
            #expect("\(failure)" == #"PublisherValidationError.unexpectedStatusCode(404, expected: "200..<300")"#)
        }
    }

    @Test func anyKindOfSequenceNamesTheAcceptedStatuses() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let fromArray = await provider.dataResponsePublisher(on: .status(201)).validateStatusCode(in: [200, 201])
                .outcome()
            #expect(fromArray.values.first?.response.statusCode == 201)
            let fromSet = await provider.dataResponsePublisher(on: .status(202)).validateStatusCode(in: Set([204]))
                .outcome()
            #expect(fromSet.failure as? PublisherValidationError == .unexpectedStatusCode(202, expected: "[204]"))
        }
    }

    @Test func theContentTypeIsCheckedThenTheBodyDecoded() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let decoded = await provider.dataResponsePublisher(
                on: .typed(contentType: "Application/JSON; charset=UTF-8")
            )
            .validateStatusCode(in: 200..<300)
            .hasContentType("application/json")
            .decode(type: [String: String].self, decoder: JSONDecoder())
            .outcome()
            #expect(decoded.values == [[:]])
            #expect(decoded.finishedWithOneValue)

            let refused = await provider.dataResponsePublisher(on: .typed(contentType: "text/plain"))
                .hasContentType("application/json")
                .outcome()
            let failure = try #require(refused.failure as? PublisherValidationError)
            #expect(failure == .unexpectedContentType("text/plain", expected: "application/json"))
            #expect(
                failure.localizedDescription
                    == #"The answer's Content-Type is "text/plain", where "application/json" was expected."#
            )
        }
    }

    @Test func aFailureWithoutAnAnswerIsTheApiError() async throws {
        let provider = ApiProvider<TestApi>(baseUrl: URL(string: "http://127.0.0.1:1"))
        let outcome = await provider.dataResponsePublisher(on: .echo()).validateStatusCode(in: 200..<300).outcome()
        let failure = try #require(outcome.failure as? ApiError<TestError>)
        #expect(failure == .noResponseReceived(error: URLError(.cannotConnectToHost)))
    }

    @Test(arguments: [
        ("application/json", "application/json", true),
        ("application/json; charset=utf-8", "application/json", true),
        ("APPLICATION/JSON;charset=\"UTF-8\"", "application/json", true),
        ("application/json; charset=utf-8", "application/json; charset=UTF-8", true),
        ("application/json; charset=latin1", "application/json; charset=utf-8", false),
        ("application/json; version=2", "application/json", false),
        ("text/json", "application/json", false),
        ("application/jsonx", "application/json", false),
    ])
    func contentTypesMatchWithOrWithoutACharset(contentType: String, expected: String, matches: Bool) {
        #expect(ContentTypeMatch.matches(contentType, expected: expected) == matches)
    }
}
#endif
