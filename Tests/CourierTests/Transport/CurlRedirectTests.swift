import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// What libcurl 7.88 does of redirects that other transports follow differently, and how `CurlTransport` keeps a
/// request from going where it should not.
@Suite(.timeLimit(.minutes(1))) struct CurlRedirectTests {
    struct Redirected: Endpoint {
        typealias ClientErrorType = TestError

        let method: HttpMethod
        let status: Int
        let target: String

        var subpath: String { "redirect" }
        var queryParameters: [String: QueryParameterValue] {
            ["to": .string(target), "status": .string(String(status))]
        }
    }

    /// A body sent again to follow a 307 or 308 starts over: libcurl rewinds it through the seek callback.
    @Test(arguments: [307, 308]) func aPostRedirectedBy307Or308IsSentAgainWithItsBody(status: Int) async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<Redirected>(baseUrl: server.baseUrl, transport: CurlTransport())
            let body = Data(repeating: 0x61, count: 100_000)
            let endpoint = Redirected(method: .post(body: .data(body)), status: status, target: "/echo/landed")
            let landed = try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
            #expect(landed.path == "/echo/landed")
            #expect(landed.method == "POST")
            #expect(landed.body == body)
        }
    }

    /// libcurl 7.88 would send a DELETE on to where a 303 points: the 303 is the answer instead.
    @Test func aDeleteRedirectedBy303IsNotFollowed() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<Redirected>(baseUrl: server.baseUrl, transport: CurlTransport())
            let endpoint = Redirected(method: .delete, status: 303, target: "/echo/landed")
            let result = await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self)
            #expect(result.failure == .unexpectedStatusCode(statusCode: 303))
            #expect(await server.receivedRequests().map(\.path) == ["/redirect"])
        }
    }
}
