import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A provider made with a scheduler times its requests on it, over the network too: an hour's timeout ends a
/// request that the loopback server never answers as soon as a `TestScheduler` has moved an hour, while the test
/// takes a fraction of a second of real time (and its one-minute guard would stop it long before a real hour).
@Suite(.timeLimit(.minutes(1))) struct VirtualTimeoutTests {
    static let hour = Duration.seconds(3_600)

    @Test(arguments: TransportKind.allCases)
    func anEndpointsTimeoutRunsOnTheProvidersScheduler(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let scheduler = TestScheduler()
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl, scheduler: scheduler) { provider in
                let id = "virtual-\(kind.rawValue)"
                let endpoint = FreeEndpoint(subpath: "silent/\(id)", timeout: Self.hour)
                async let result = provider.rawDataResponse(on: endpoint)
                // The request is on the wire and its timer set (the two may come in either order).
                await server.waitForRequests(count: 1)
                await scheduler.waitForPendingWork(count: 1)
                await scheduler.advance(by: Self.hour)
                #expect(await result == .failure(.noResponseReceived(error: URLError(.timedOut))))
                await server.waitForDisconnect(of: id)
            }
        }
    }

    /// A download's timeouts are kept by Courier, not the transport: the endpoint's as the longest wait for the
    /// answer to begin, `DownloadOptions.timeout` for the whole download. Both run on the provider's scheduler.
    @Test(arguments: TransportKind.allCases, [true, false])
    func aDownloadsTimeoutsRunOnTheProvidersScheduler(kind: TransportKind, overall: Bool) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let scheduler = TestScheduler()
                let id = "download-\(kind.rawValue)-\(overall)"
                let endpoint = FreeEndpoint(subpath: "silent/\(id)", timeout: overall ? nil : Self.hour)
                let options = DownloadOptions(timeout: overall ? Self.hour : nil)
                let failure = try await kind.withProvider(baseUrl: server.baseUrl, scheduler: scheduler) { provider in
                    async let result = provider.download(on: endpoint, to: directory.file("data"), options: options)
                    await server.waitForRequests(count: 1)
                    await scheduler.waitForPendingWork(count: 1)
                    await scheduler.advance(by: Self.hour)
                    guard case .failure(let error) = await result else { return ApiError<TestError>?.none }
                    return error
                }
                #expect(failure == .noResponseReceived(error: URLError(.timedOut)))
                await server.waitForDisconnect(of: id)
                #expect(try directory.contents() == [])
            }
        }
    }
}
