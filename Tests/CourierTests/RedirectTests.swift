import Courier
import CourierTestServer
import Foundation
import Testing

/// Redirects are followed, but what identifies the user stays with the origin it was meant for.
@Suite struct RedirectTests {
    let credentials = [
        "Accept": "application/json",
        "Cookie": "session=secret",
        "Proxy-Authorization": "Basic cHJveHk6c2VjcmV0",
    ]

    @Test(arguments: Door.allCases)
    func redirectToAnotherHostDropsCredentials(door: Door) async throws {
        try await TestServer.withServer { origin in
            try await TestServer.withServer { elsewhere in
                let auth = HttpAuthPlugin<TestApi>(scheme: .bearer) { "token-123" }
                let provider = ApiProvider<TestApi>(baseUrl: origin.baseUrl, plugins: [auth])
                let target = "http://localhost:\(elsewhere.port)/echo/landed"
                let result = await provider.result(
                    through: door,
                    on: .redirect(to: target),
                    decodeBodyTo: ReceivedRequest.self
                )

                let sentToOrigin = try #require(await origin.receivedRequests().first)
                #expect(sentToOrigin.header("Authorization") == "Bearer token-123")
                let landed = try result.get()
                #expect(landed.path == "/echo/landed")
                #expect(landed.header("Authorization") == nil)
                #expect(landed.header("Cookie") == nil)
                #expect(landed.header("Proxy-Authorization") == nil)
                #expect(await elsewhere.receivedRequests() == [landed])
            }
        }
    }

    @Test func redirectToAnotherHostDropsEndpointCookieAndProxyCredentials() async throws {
        try await TestServer.withServer { origin in
            try await TestServer.withServer { elsewhere in
                let target = "http://localhost:\(elsewhere.port)/echo/landed"
                let provider = ApiProvider<TestApi>(baseUrl: origin.baseUrl)
                let result = await provider.response(
                    on: .redirect(to: target, headers: credentials),
                    decodeBodyTo: ReceivedRequest.self
                )
                let sentToOrigin = try #require(await origin.receivedRequests().first)
                #expect(sentToOrigin.header("Cookie") == "session=secret")
                #expect(sentToOrigin.header("Proxy-Authorization") == "Basic cHJveHk6c2VjcmV0")
                let landed = try result.get()
                #expect(landed.header("Cookie") == nil)
                #expect(landed.header("Proxy-Authorization") == nil)
                #expect(landed.header("Accept") == "application/json")
            }
        }
    }

    @Test func redirectOnTheSameOriginKeepsCredentials() async throws {
        try await TestServer.withServer { server in
            let auth = HttpAuthPlugin<TestApi>(scheme: .bearer) { "token-123" }
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [auth])
            let result = await provider.response(on: .redirect(to: "/echo/same"), decodeBodyTo: ReceivedRequest.self)
            let landed = try result.get()
            #expect(landed.path == "/echo/same")
            #expect(landed.header("Authorization") == "Bearer token-123")
        }
    }
}
