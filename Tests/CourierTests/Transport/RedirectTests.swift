import Courier
import CourierTestServer
import Foundation
import Testing

/// Redirects are followed, but what identifies the user stays with the origin it was meant for.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct RedirectTests {
    let credentials = [
        "Accept": "application/json",
        "Authorization": "Bearer from-endpoint",
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

    @Test(arguments: Door.allCases)
    func redirectToAnotherHostDropsEndpointCredentials(door: Door) async throws {
        try await TestServer.withServer { origin in
            try await TestServer.withServer { elsewhere in
                let target = "http://localhost:\(elsewhere.port)/echo/landed"
                let provider = ApiProvider<TestApi>(baseUrl: origin.baseUrl)
                let endpoint = TestApi.redirect(to: target, headers: credentials)
                let result = await provider.result(through: door, on: endpoint, decodeBodyTo: ReceivedRequest.self)
                let sentToOrigin = try #require(await origin.receivedRequests().first)
                #expect(sentToOrigin.header("Authorization") == "Bearer from-endpoint")
                #expect(sentToOrigin.header("Cookie") == "session=secret")
                // A proxy's credentials: the default transport on Linux (libcurl) sends them to a proxy alone.
                #if os(Linux)
                #expect(sentToOrigin.header("Proxy-Authorization") == nil)
                #else
                #expect(sentToOrigin.header("Proxy-Authorization") == "Basic cHJveHk6c2VjcmV0")
                #endif
                let landed = try result.get()
                #expect(landed.header("Authorization") == nil)
                #expect(landed.header("Cookie") == nil)
                #expect(landed.header("Proxy-Authorization") == nil)
                #expect(landed.header("Accept") == "application/json")
            }
        }
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func redirectToAnotherHostOnTheSamePortDropsCredentials(status: Int) async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let target = "http://localhost:\(server.port)/echo/landed"
            let endpoint = TestApi.redirect(to: target, status: status, headers: credentials)
            let landed = try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
            #expect(landed.path == "/echo/landed")
            #expect(landed.header("Authorization") == nil)
            #expect(landed.header("Cookie") == nil)
            #expect(landed.header("Proxy-Authorization") == nil)
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
