import CourierTestServer
import Foundation
import Testing

@testable import Courier

/// Accepted statuses and content types per endpoint; a mismatch says what was expected and what came.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ValidationPluginTests {
    static func provider(_ server: TestServer, expecting expectation: ResponseExpectation?) -> ApiProvider<TestApi> {
        ApiProvider(baseUrl: server.baseUrl, plugins: [ValidationPlugin { _ in expectation }])
    }

    @Test func aStatusOutsideTheAcceptedOnesFails() async throws {
        try await TestServer.withServer { server in
            let provider = Self.provider(server, expecting: ResponseExpectation(statusCodes: [200, 201, 202, 304]))
            let result = await provider.rawDataResponse(on: .empty(204))
            let expected = ResponseValidationError(expected: "status 200…202, 304", received: "status 204 No Content")
            #expect(result == .failure(.pluginFailed(plugin: "ValidationPlugin", error: expected)))
            #expect(
                result.failureDescription
                    == "The plugin ValidationPlugin stopped the request: expected status 200…202, 304, "
                    + "received status 204 No Content"
            )
        }
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8"])
    func theContentTypeMatchesWithOrWithoutParameters(contentType: String) async throws {
        try await TestServer.withServer { server in
            let provider = Self.provider(server, expecting: ResponseExpectation(contentType: "application/json"))
            #expect(await provider.rawDataResponse(on: .typed(contentType: contentType)) == .success(Data("{}".utf8)))
        }
    }

    @Test func anotherContentTypeFails() async throws {
        try await TestServer.withServer { server in
            let provider = Self.provider(server, expecting: ResponseExpectation(contentType: "application/json"))
            let result = await provider.rawDataResponse(on: .plain(200))
            let expected = ResponseValidationError(
                expected: "content type application/json",
                received: "content type text/plain; charset=utf-8"
            )
            #expect(result == .failure(.pluginFailed(plugin: "ValidationPlugin", error: expected)))
        }
    }

    @Test func anAnswerWithoutBodyOrContentTypeIsNotCheckedForOne() async throws {
        try await TestServer.withServer { server in
            let provider = Self.provider(server, expecting: ResponseExpectation(contentType: "application/json"))
            #expect(await provider.response(on: .empty(204)) == .success(EmptyBodyResponse()))
        }
    }

    @Test func anEndpointWithoutExpectationIsNotChecked() async throws {
        try await TestServer.withServer { server in
            let provider = Self.provider(server, expecting: nil)
            #expect(await provider.rawDataResponse(on: .plain(200)) == .success(Data("plain text, not JSON".utf8)))
        }
    }
}
