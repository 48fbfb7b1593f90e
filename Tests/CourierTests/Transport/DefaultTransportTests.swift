import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `ApiProvider()` sends over, and what a provider that used URLSession on Linux keeps with libcurl.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct DefaultTransportTests {
    #if os(Linux)
    @Test func onLinuxTheDefaultIsLibcurlAndASessionConfigurationMeansURLSession() {
        #expect(ApiProvider<TestApi>().transport is CurlTransport)
        #expect(ApiProvider<TestApi>(mockingBehavior: nil).transport is CurlTransport)
        #expect(ApiProvider<TestApi>(sessionConfiguration: .ephemeral).transport is URLSessionTransport)
    }
    #endif

    /// Each provider has a transport of its own, as each had a `URLSession` of its own.
    @Test func providersDoNotShareTheirDefaultTransport() {
        let first = ApiProvider<TestApi>().transport as AnyObject?
        let second = ApiProvider<TestApi>().transport as AnyObject?
        #expect(first != nil && first !== second)
    }

    /// The `User-Agent` a request without one gets is the one URLSession sends on Linux; one of the request's own is
    /// sent instead.
    @Test(arguments: [TransportKind.urlSession, .curl])
    func aRequestWithoutAUserAgentGetsURLSessionsOne(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let received = try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl) { provider in
                [
                    try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get(),
                    try await provider.response(
                        on: .echo(headers: ["User-Agent": "TodoApp/2.1"]),
                        decodeBodyTo: ReceivedRequest.self
                    ).get(),
                ]
            }
            #if os(Linux)
            let expected =
                "\(ProcessInfo.processInfo.processName) (unknown version) curl/\(CurlTransport.libcurlVersion)"
            #expect(received.first?.header("User-Agent") == expected)
            #endif
            #expect(received.last?.headerValues("User-Agent") == ["TodoApp/2.1"])
        }
    }
}
