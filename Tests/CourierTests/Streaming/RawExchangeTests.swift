import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The raw exchange (the seam generated OpenAPI clients will use): the head and the streamed body of an answer of any
/// status, through plugins, retries and mocks, failing only when no answer came.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct RawExchangeTests {
    /// What the plugins' `process` saw, as status codes, and their `didPerformRequest` as results.
    final class Seen: Plugin<FreeEndpoint>, @unchecked Sendable {
        let statuses = EventLog<Int>()
        let outcomes = EventLog<String>()

        override func process(_ attempt: Attempt, endpoint: FreeEndpoint) async -> AttemptDecision {
            statuses.append(attempt.response?.statusCode ?? 0)
            return .proceed
        }

        override func didPerformRequest<ResultType: Decodable>(
            urlSessionResult: ApiProvider<FreeEndpoint>.URLSessionResult,
            typedResult: ApiProvider<FreeEndpoint>.TypedResult<ResultType>,
            endpoint: FreeEndpoint
        ) {
            outcomes.append(typedResult.isSuccess ? "success" : "failure")
        }
    }

    static func body(of chunks: ResponseChunks<TestError>) async throws -> Data {
        var body = Data()
        for try await chunk in chunks { body.append(chunk) }
        return body
    }

    @Test(arguments: TransportKind.allCases)
    func anAnswerOfAnyStatusIsHandedBackWithItsBody(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let seen = Seen()
            // The retry waits no time: a 503 is sent again at once, and the second answer is the one handed back.
            let retry = RetryPlugin<FreeEndpoint>(policy: RetryPolicy(initialDelay: .zero, jitter: 0))
            // `seen` last, nearest the network: it sees every answer before the retry plugin judges it.
            try await kind.withProvider(baseUrl: server.baseUrl, plugins: [retry, seen]) { provider in
                let notFound = try await provider.rawExchange(on: FreeEndpoint(subpath: "status/404")).get()
                let notFoundBody = try await Self.body(of: notFound.chunks)
                #expect(notFound.statusCode == 404)
                let error = try JSONDecoder().decode(TestError.self, from: notFoundBody)
                #expect(error == TestError(code: 404, message: "status 404"))

                let flaky = FreeEndpoint(subpath: "flaky/raw-\(kind.rawValue)", queryParameters: ["failures": "1"])
                let retried = try await provider.rawExchange(on: flaky).get()
                let retriedBody = try await Self.body(of: retried.chunks)
                #expect(retried.statusCode == 200)
                #expect(try JSONDecoder().decode([String: Int].self, from: retriedBody) == ["attempt": 2])
            }
            // The plugins judged every answer as they do on any door: the 404 is a failure to them.
            #expect(seen.statuses.events == [404, 503, 200])
            #expect(seen.outcomes.events == ["failure", "success"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRequestWithoutAnAnswerFails(kind: TransportKind) async throws {
        // Port 1 (tcpmux) has no listener here; a port freed by a stopped server could be taken by a parallel test's
        // server, which would then answer this request (and count it among its own).
        let closed = URL(string: "http://127.0.0.1:1")
        let result = try await kind.withProvider(FreeEndpoint.self, baseUrl: closed) { provider in
            await provider.rawExchange(on: FreeEndpoint(subpath: "status/200")).map(\.statusCode)
        }
        #expect(result == .failure(.noResponseReceived(error: URLError(.cannotConnectToHost))))
    }

    @Test func aMockedAnswerOfAnyStatusIsStreamedToo() async throws {
        let body = Data(#"{"code":500,"message":"mocked"}"#.utf8)
        let provider = ApiProvider<FreeEndpoint>(
            mockingBehavior: MockingBehavior { _ in MockedResponse(status: .internalServerError, bodyData: body) }
        )
        let streamed = try await provider.rawExchange(on: FreeEndpoint()).get()
        let received = try await Self.body(of: streamed.chunks)
        #expect(streamed.statusCode == 500)
        #expect(received == body)
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
