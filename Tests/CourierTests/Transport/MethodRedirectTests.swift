import Courier
import CourierTestServer
import Foundation
import Testing

#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

/// Redirects of requests with a method and a body, as HTTP says (RFC 9110, section 15.4): a 303 asks for a `GET`
/// without the body, a 307 or 308 for the same method with the same body. libcurl 7.88 would send `PUT`, `PATCH` and
/// `DELETE` on after any redirect, so `CurlTransport` follows theirs itself.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct MethodRedirectTests {
    struct Redirected: Endpoint {
        typealias ClientErrorType = TestError

        let method: HttpMethod
        let status: Int
        let target: String
        var headers: [String: String] = ["Content-Type": "text/plain"]
        var timeout: Duration?

        var subpath: String { "redirect" }
        var queryParameters: [String: QueryParameterValue] {
            ["to": .string(target), "status": .string(String(status))]
        }
    }

    static let body = Data("the body".utf8)
    static let methods: [HttpMethod] = [
        .post(body: .data(body)), .put(body: .data(body)), .patch(body: .data(body)), .delete,
    ]

    @Test(arguments: TransportKind.allCases, methods)
    func a303IsFollowedAsAGetWithoutTheBody(kind: TransportKind, method: HttpMethod) async throws {
        try await TestServer.withServer { server in
            let endpoint = Redirected(method: method, status: 303, target: "/echo/landed")
            let landed = try await kind.withProvider(baseUrl: server.baseUrl) { provider in
                try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
            }
            #expect(landed.path == "/echo/landed")
            #expect(landed.method == "GET")
            #expect(landed.body.isEmpty)
            // FoundationNetworking keeps the fields of the body it dropped.
            if kind != .urlSession { #expect(landed.header("Content-Type") == nil) }
            #expect(await server.receivedRequests().map(\.method) == [method.name, "GET"])
        }
    }

    /// Not over FoundationNetworking's URLSession, which sends a `PUT` or a `PATCH` on without its body.
    @Test(arguments: TransportKind.notURLSession, [307, 308])
    func a307Or308KeepsTheMethodAndTheBody(kind: TransportKind, status: Int) async throws {
        try await TestServer.withServer { server in
            for method in Self.methods {
                let endpoint = Redirected(method: method, status: status, target: "/echo/landed")
                let landed = try await kind.withProvider(baseUrl: server.baseUrl) { provider in
                    try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
                }
                #expect(landed.path == "/echo/landed")
                #expect(landed.method == method.name)
                #expect(landed.body == (method.name == "DELETE" ? Data() : Self.body))
            }
        }
    }

    /// A 301 or 302 of a `POST` is followed as a `GET`, as browsers, URLSession and AsyncHTTPClient do.
    @Test(arguments: TransportKind.allCases, [301, 302])
    func a301Or302OfAPostIsFollowedAsAGet(kind: TransportKind, status: Int) async throws {
        try await TestServer.withServer { server in
            let endpoint = Redirected(method: .post(body: .data(Self.body)), status: status, target: "/echo/landed")
            let landed = try await kind.withProvider(baseUrl: server.baseUrl) { provider in
                try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
            }
            #expect(landed.method == "GET")
            #expect(landed.body.isEmpty)
            if kind != .urlSession { #expect(landed.header("Content-Type") == nil) }
        }
    }

    /// A 301 or 302 keeps a method other than `POST`, as RFC 9110 and AsyncHTTPClient do.
    @Test(arguments: TransportKind.notURLSession, [301, 302])
    func a301Or302KeepsAPut(kind: TransportKind, status: Int) async throws {
        try await TestServer.withServer { server in
            let endpoint = Redirected(method: .put(body: .data(Self.body)), status: status, target: "/echo/landed")
            let landed = try await kind.withProvider(baseUrl: server.baseUrl) { provider in
                try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
            }
            #expect(landed.method == "PUT")
            #expect(landed.body == Self.body)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRedirectToAnotherOriginDropsCredentials(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            var endpoint = Redirected(
                method: .delete,
                status: 307,
                target: "http://localhost:\(server.port)/echo/landed"
            )
            endpoint.headers = ["Authorization": "Bearer secret", "Cookie": "session=secret", "Accept": "text/plain"]
            let landed = try await kind.withProvider(baseUrl: server.baseUrl) { provider in
                try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
            }
            let sent = try #require(await server.receivedRequests().first)
            #expect(sent.header("Authorization") == "Bearer secret")
            #expect(landed.method == "DELETE")
            #expect(landed.header("Authorization") == nil)
            #expect(landed.header("Cookie") == nil)
            #expect(landed.header("Accept") == "text/plain")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRedirectLoopEndsWithTooManyRedirects(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let endpoint = Redirected(method: .put(body: .data(Self.body)), status: 307, target: "loop")
            let result = try await kind.withProvider(baseUrl: server.baseUrl) { provider in
                await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self)
            }
            guard case .failure(.noResponseReceived(let error as URLError)) = result else {
                Issue.record("\(result)")
                return
            }
            #expect(error.code == .httpTooManyRedirects)
        }
    }

    /// Every transport follows Courier's one limit, 16 redirects, over its default configuration (AsyncHTTPClient's
    /// own default is 5): 16 arrive, a 17th fails.
    @Test(arguments: TransportKind.allCases)
    func everyTransportFollowsSixteenRedirectsAndNoMore(kind: TransportKind) async throws {
        struct Chain: Endpoint {
            typealias ClientErrorType = TestError
            let redirects: Int
            var subpath: String { "redirect-chain/\(redirects)" }
            var method: HttpMethod { .get }
        }
        let transport: any Transport =
            switch kind {
            case .urlSession: URLSessionTransport()
            #if AsyncHTTPClient
            case .asyncHTTPClient: AsyncHTTPClientTransport()
            #endif
            case .curl: CurlTransport()
            }
        try await TestServer.withServer { server in
            let provider = ApiProvider<Chain>(baseUrl: server.baseUrl, transport: transport)
            let landed = try await provider.response(on: Chain(redirects: 16), decodeBodyTo: ReceivedRequest.self).get()
            #expect(landed.path == "/redirect-chain/0")
            let result = await provider.response(on: Chain(redirects: 17), decodeBodyTo: ReceivedRequest.self)
            guard case .failure(.noResponseReceived(let error as URLError)) = result else {
                Issue.record("\(result)")
                return
            }
            #expect(error.code == .httpTooManyRedirects)
            // The 17th redirect was not followed: the end of the chain was asked for once, by the first call.
            #expect(await server.receivedRequests().filter { $0.path == "/redirect-chain/0" }.count == 1)
        }
    }

    /// The request's timeout spans its redirects: the first hop is held 40 minutes of the hour, and the second is
    /// cut off when the hour is up, not an hour after it began.
    @Test func aTimeoutSpansTheRedirectsThatCourierFollows() async throws {
        try await TestServer.withServer { server in
            let scheduler = TestScheduler()
            // Held until a request for `/gather/cached-spans` comes too, then a 303 to a server that stays silent.
            let endpoint = FreeEndpoint(
                subpath: "cached/spans",
                method: .put(body: .data(Self.body)),
                queryParameters: ["gather": "2", "status": "303", "location": "/silent/spans"],
                timeout: .seconds(3_600)
            )
            try await TransportKind.curl.withProvider(baseUrl: server.baseUrl, scheduler: scheduler) { provider in
                async let result = provider.rawDataResponse(on: endpoint)
                await server.waitForRequests(count: 1)
                await scheduler.advance(by: .seconds(2_400))
                await server.send(.get, "gather/cached-spans", query: ["count": "2"])
                await server.waitForRequests(count: 3)
                await scheduler.advance(by: .seconds(1_200))
                #expect(await result == .failure(.noResponseReceived(error: URLError(.timedOut))))
                await server.waitForDisconnect(of: "spans")
                #expect(scheduler.pendingWorkCount == 0)
            }
        }
    }

    /// Cancelling while a later hop waits for its answer closes that hop's connection.
    @Test func aCancelReachesTheHopInFlight() async throws {
        try await TestServer.withServer { server in
            let endpoint = Redirected(method: .put(body: .data(Self.body)), status: 303, target: "/silent/cancelled")
            try await TransportKind.curl.withProvider(baseUrl: server.baseUrl) { provider in
                let call = Task { await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self) }
                await server.waitForRequests(count: 2)
                call.cancel()
                #expect(await call.value == .failure(.cancelled))
                await server.waitForDisconnect(of: "cancelled")
            }
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
}
