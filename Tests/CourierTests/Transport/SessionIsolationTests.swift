import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each provider has its own session: cookies set for one are never sent by another.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct SessionIsolationTests {
    @Test func providersDoNotShareCookies() async throws {
        try await TestServer.withServer { server in
            let first = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let second = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            _ = try await first.response(on: .setCookie(name: "session", value: "abc")).get()

            let fromFirst = try await first.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            let fromSecond = try await second.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(fromFirst.header("Cookie") == "session=abc")
            #expect(fromSecond.header("Cookie") == nil)
        }
    }

    @Test func providersSharingAConfigurationShareItsCookies() async throws {
        try await TestServer.withServer { server in
            let configuration = URLSessionConfiguration.ephemeral
            let first = ApiProvider<TestApi>(baseUrl: server.baseUrl, sessionConfiguration: configuration)
            let second = ApiProvider<TestApi>(baseUrl: server.baseUrl, sessionConfiguration: configuration)
            _ = try await first.response(on: .setCookie(name: "session", value: "shared")).get()

            let fromSecond = try await second.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(fromSecond.header("Cookie") == "session=shared")
        }
    }
}
