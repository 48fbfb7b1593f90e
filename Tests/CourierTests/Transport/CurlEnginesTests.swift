@testable import Courier
import CourierTestServer
import Foundation
import Testing

/// How a libcurl transport spreads its requests over its engines: none started before the first request, one while
/// requests come one at a time, more only while every engine has work, never more than asked; cookies shared by all.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct CurlEnginesTests {
    @Test func aTransportStartsNoThreadUntilItSends() {
        let transport = CurlTransport(engines: 4)
        #expect(transport.engines == 4)
        #expect(transport.runningEngines == 0)
        #expect(CurlTransport(engines: 0).engines == 1)
        #expect(CurlTransport().engines == min(ProcessInfo.processInfo.activeProcessorCount, 16))
    }

    @Test func requestsOneAtATimeKeepToTheFirstEngineAndItsConnection() async throws {
        try await TestServer.withServer { server in
            let transport = CurlTransport(engines: 4)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: transport)
            for _ in 0..<5 {
                _ = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            }
            #expect(transport.runningEngines == 1)
            #expect(await server.connectionCount() == 1)
        }
    }

    @Test func requestsHeldAtOnceSpreadOverTheEnginesUpToTheLimit() async throws {
        try await TestServer.withServer { server in
            let transport = CurlTransport(engines: 3)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: transport)
            let held = (0..<5).map { index in
                Task { await provider.response(on: .silent(id: "spread-\(index)")) }
            }
            await server.waitForRequests(count: 5)
            #expect(transport.runningEngines == 3)
            for task in held { task.cancel() }
            for task in held {
                guard case .failure(.cancelled) = await task.value else {
                    Issue.record("a held request did not end as cancelled")
                    continue
                }
            }
            for index in 0..<5 { await server.waitForDisconnect(of: "spread-\(index)") }
            // The engines go on serving once the held requests are gone.
            let echoed = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(echoed.path == "/echo/")
        }
    }

    /// A cancelled request leaves the engine's load as its caller hears of the cancel, before the engine's thread has
    /// let the exchange go: the next request still finds the first engine free.
    @Test func aRequestAfterACancelledOneKeepsToTheFirstEngine() async throws {
        try await TestServer.withServer { server in
            let transport = CurlTransport(engines: 2)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: transport)
            for index in 0..<3 {
                let held = Task { await provider.response(on: .silent(id: "cancelled-\(index)")) }
                await server.waitForRequests(count: index * 2 + 1)
                held.cancel()
                #expect(await held.value.failure == .cancelled)
                _ = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            }
            #expect(transport.runningEngines == 1)
        }
    }

    /// A cookie set through the first engine is sent by the second, which starts because the first is busy.
    @Test func theEnginesShareTheTransportsCookies() async throws {
        try await TestServer.withServer { server in
            let transport = CurlTransport(engines: 2)
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: transport)
            _ = try await provider.response(on: .setCookie(name: "session", value: "abc")).get()
            #expect(transport.runningEngines == 1)
            let held = Task { await provider.response(on: .silent(id: "busy")) }
            await server.waitForRequests(count: 2)
            let echoed = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(transport.runningEngines == 2)
            #expect(echoed.headerValues("Cookie") == ["session=abc"])
            held.cancel()
            _ = await held.value
        }
    }
}
