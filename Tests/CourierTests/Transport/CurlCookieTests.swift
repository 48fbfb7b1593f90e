import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Cookies over libcurl, kept as URLSession keeps them on Linux: within one transport, for the host that set them.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct CurlCookieTests {
    @Test func aCookieSetForOneTransportIsSentByItAloneAndOnlyToItsHost() async throws {
        try await TestServer.withServer { server in
            let first = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: CurlTransport())
            let second = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: CurlTransport())
            _ = try await first.response(on: .setCookie(name: "session", value: "abc")).get()

            let fromFirst = try await first.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            let fromSecond = try await second.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(fromFirst.header("Cookie") == "session=abc")
            #expect(fromSecond.header("Cookie") == nil)

            // The cookie belongs to 127.0.0.1: the same server under another name does not get it.
            let named = try #require(URL(string: "http://localhost:\(server.port)"))
            let transport = try #require(first.transport)
            let elsewhere = ApiProvider<TestApi>(baseUrl: named, transport: transport)
            let fromElsewhere = try await elsewhere.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(fromElsewhere.header("Cookie") == nil)
        }
    }

    /// A request refused before libcurl began it (its pin is not a pin) gives its handle back with the cookie engine
    /// never switched on: the next request, on that handle, switches it on and keeps the cookie its answer sets.
    @Test func aRequestRefusedBeforeItBeganLeavesTheNextOneKeepingCookies() async throws {
        try await TestServer.withServer { server in
            let transport = CurlTransport(engines: 1)
            var options = TransportOptions()
            options.tls = TlsOptions(pinnedPublicKeys: [TlsPublicKeyPin(sha256: "not a pin")])
            let request = URLRequest(url: server.baseUrl.appendingPathComponent("echo/refused"))
            let refused = await withCheckedContinuation { continuation in
                _ = transport.send(request, options: options) { continuation.resume(returning: $0) }
            }
            #expect(throws: InvalidRequestError.self) { try refused.get() }

            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: transport)
            _ = try await provider.response(on: .setCookie(name: "session", value: "abc")).get()
            let echoed = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(echoed.header("Cookie") == "session=abc")
        }
    }

    @Test func aRequestWithACookieFieldOfItsOwnSendsThatAlone() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: CurlTransport())
            _ = try await provider.response(on: .setCookie(name: "session", value: "abc")).get()
            let own = try await provider.response(
                on: .echo(headers: ["Cookie": "mine=1"]),
                decodeBodyTo: ReceivedRequest.self
            ).get()
            #expect(own.headerValues("Cookie") == ["mine=1"])
            let kept = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(kept.headerValues("Cookie") == ["session=abc"])
        }
    }

    /// A request that asks not to handle cookies (`httpShouldHandleCookies`, set by a plugin) neither sends the jar's
    /// nor adds to it, as over URLSession.
    @Test func aRequestThatDoesNotHandleCookiesNeitherSendsNorKeepsThem() async throws {
        final class NoCookies: Plugin<TestApi>, @unchecked Sendable {
            override func modifyRequest(_ request: inout URLRequest, endpoint: TestApi) {
                request.httpShouldHandleCookies = false
            }
        }
        try await TestServer.withServer { server in
            let transport = CurlTransport()
            let keeping = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: transport)
            let ignoring = ApiProvider<TestApi>(baseUrl: server.baseUrl, plugins: [NoCookies()], transport: transport)
            _ = try await keeping.response(on: .setCookie(name: "session", value: "abc")).get()
            _ = try await ignoring.response(on: .setCookie(name: "other", value: "xyz")).get()
            let ignored = try await ignoring.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(ignored.header("Cookie") == nil)
            let kept = try await keeping.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            #expect(kept.headerValues("Cookie") == ["session=abc"])
        }
    }

    /// Many requests setting and sending cookies at once share one jar from several threads.
    @Test func requestsAtOnceShareTheJar() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: CurlTransport())
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        _ = try await provider.response(on: .setCookie(name: "c\(index)", value: "\(index)")).get()
                        _ = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
                    }
                }
                try await group.waitForAll()
            }
            let last = try await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self).get()
            let names = Set((last.header("Cookie") ?? "").split(separator: ";").map { $0.split(separator: "=")[0] })
            #expect(
                names.map { $0.trimmingCharacters(in: .whitespaces) }.sorted() == (0..<16).map { "c\($0)" }.sorted()
            )
        }
    }
}
