import CourierTestServer
import Foundation
import Testing

@testable import TodoExample

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if AsyncHTTPClient
import AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

/// The same contract through every transport: what the server receives, and the same `ApiError` for the same
/// failure.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct TransportConformanceTests {
    struct Note: Codable, Equatable { let title: String }

    @Test(arguments: TransportKind.allCases)
    func theServerReceivesTheRequestAsWrittenAndTheAnswerDecodes(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl) { provider in
                let endpoint = TestApi.echo(
                    .post(body: .json(Note(title: "Grüße & more"))),
                    path: "notes",
                    query: ["page": .int(2)],
                    headers: ["X-Trace": "abc"]
                )
                let received = try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
                #expect(received.method == "POST")
                #expect(received.path == "/echo/notes")
                #expect(received.query == "page=2")
                #expect(received.header("X-Trace") == "abc")
                #expect(received.header("Content-Type") == "application/json")
                #expect(try JSONDecoder().decode(Note.self, from: received.body) == Note(title: "Grüße & more"))
            }
        }
    }

    /// The AsyncHTTPClient transport makes its `HTTPURLResponse` only when asked; whoever asks gets the server's
    /// status and headers, as over URLSession.
    @Test(arguments: TransportKind.allCases)
    func theResponseAndItsHeadersReachPluginsAndTheCaller(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let seen = Locked<[HTTPURLResponse]>([])
            let recorder = AttemptRecorder<TestApi> { attempt in
                if let response = attempt.response { seen.withLock { $0.append(response) } }
            }
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl, plugins: [recorder]) { provider in
                let full = await provider.fullResponse(
                    on: .typed(contentType: "application/vnd.courier+json; charset=utf-8"),
                    decodeBodyTo: EmptyBodyResponse.self
                )
                let response = try #require(full.httpUrlResponse)
                #expect(response.statusCode == 200)
                #expect(
                    response.value(forHTTPHeaderField: "content-type") == "application/vnd.courier+json; charset=utf-8"
                )
                #expect(response.mimeType == "application/vnd.courier+json")
                #expect(response.textEncodingName == "utf-8")
                #expect(response.url?.path == "/typed")
                // Made once: the plugin and the caller hold the same response.
                #expect(seen.withLock { $0.map { $0 === response } } == [true])
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aClientErrorCarriesItsDecodedBody(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl) { provider in
                let result = await provider.rawDataResponse(on: .status(404))
                #expect(
                    result
                        == .failure(
                            .clientError(statusCode: 404, clientError: TestError(code: 404, message: "status 404"))
                        )
                )
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRefusedConnectionIsCannotConnectToHost(kind: TransportKind) async throws {
        // Port 1 (tcpmux) has no listener here.
        try await kind.withProvider(TestApi.self, baseUrl: URL(string: "http://127.0.0.1:1")) { provider in
            let result = await provider.rawDataResponse(on: .echo())
            #expect(result == .failure(.noResponseReceived(error: URLError(.cannotConnectToHost))))
        }
    }

    /// `/silent` never answers while the test runs: the timeout, and nothing else, ends the request, and the server
    /// sees the connection close (when the request reached it before the timeout, as it does but on a starved
    /// machine).
    @Test(arguments: TransportKind.allCases)
    func aSubSecondTimeoutEndsAHangingRequest(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let durations = EventLog<Duration>()
            let recorder = AttemptRecorder<FreeEndpoint> { durations.append($0.duration) }
            let id = "timeout-\(kind.rawValue)"
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl, plugins: [recorder]) { provider in
                let endpoint = FreeEndpoint(subpath: "silent/\(id)", timeout: .milliseconds(300))
                let result = await provider.rawDataResponse(on: endpoint)
                #expect(result == .failure(.noResponseReceived(error: URLError(.timedOut))))
                // Measured by the sending itself, from the transport's start to its answer: a timer never fires
                // early.
                let duration = try #require(durations.events.first)
                #expect(duration >= .milliseconds(300), "\(duration)")
            }
            if await server.receivedRequests().contains(where: { $0.path == "/silent/\(id)" }) {
                await server.waitForDisconnect(of: id)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingAnswersAtOnceAndTheServerSeesTheConnectionClose(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl) { provider in
                let task = Task { await provider.rawDataResponse(on: .hold(id: kind.rawValue)) }
                await server.waitForRequests()
                task.cancel()
                #expect(await task.value == .failure(.cancelled))
                await server.waitForDisconnect(of: kind.rawValue)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aConnectionClosedMidAnswerIsNoResponse(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl) { provider in
                let result = await provider.rawDataResponse(on: .drop)
                guard case .failure(.noResponseReceived(let error as URLError)) = result else {
                    Issue.record("expected noResponseReceived with a URLError, got \(result)")
                    return
                }
                #expect([URLError.Code.networkConnectionLost, .unknown].contains(error.code), "\(error.code)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases, ["true", "false"])
    func aBodyOverTheLimitIsRefused(kind: TransportKind, announce: String) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl) { provider in
                let endpoint = FreeEndpoint(
                    subpath: "bytes",
                    ordered: [("count", 5_000), ("announce", .string(announce))],
                    maximumResponseBodySize: 1_000
                )
                #expect(await provider.rawDataResponse(on: endpoint) == .failure(.responseBodyTooLarge(limit: 1_000)))
            }
        }
    }

    /// A HEAD answer announces the length of the body a GET would get, and has none: it is never refused for that,
    /// nor is room made for it, whatever length it announces.
    @Test(arguments: TransportKind.allCases, [5_000, 10_000_000_000])
    func aHeadAnswerAnnouncingMoreThanTheLimitIsNotRefused(kind: TransportKind, announced: Int) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl) { provider in
                let endpoint = FreeEndpoint(
                    subpath: "bytes",
                    method: .head,
                    ordered: [("count", .int(announced))],
                    maximumResponseBodySize: 1_000
                )
                let full = await provider.fullResponse(on: endpoint, decodeBodyTo: Data.self)
                #expect(full.result == .success(Data()))
                #expect(full.httpUrlResponse?.value(forHTTPHeaderField: "Content-Length") == String(announced))
            }
        }
    }

    /// A field the server sends twice reaches the caller once, with its values joined by a comma, as URLSession
    /// joins them; the AsyncHTTPClient transport makes the fields into a dictionary only when something asks.
    @Test(arguments: TransportKind.allCases)
    func aRepeatedResponseFieldArrivesJoined(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl) { provider in
                let endpoint = FreeEndpoint(subpath: "set-cookie", ordered: [("a", .string("1")), ("b", .string("2"))])
                let full = await provider.fullResponse(on: endpoint, decodeBodyTo: Data.self)
                let response = try #require(full.httpUrlResponse)
                #expect(response.statusCode == 200)
                #expect(response.value(forHTTPHeaderField: "Set-Cookie") == "a=1; Path=/, b=2; Path=/")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRedirectToAnotherOriginDropsCredentials(kind: TransportKind) async throws {
        try await TestServer.withServer { origin in
            try await TestServer.withServer { elsewhere in
                try await kind.withProvider(TestApi.self, baseUrl: origin.baseUrl) { provider in
                    let endpoint = TestApi.redirect(
                        to: "http://localhost:\(elsewhere.port)/echo/landed",
                        headers: [
                            "Authorization": "Bearer secret", "Cookie": "session=secret", "Accept": "application/json",
                        ]
                    )
                    let landed = try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
                    #expect(landed.path == "/echo/landed")
                    #expect(landed.header("Authorization") == nil)
                    #expect(landed.header("Cookie") == nil)
                    #expect(await origin.receivedRequests().first?.header("Authorization") == "Bearer secret")
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFileBodyArrivesWholeWithItsLength(kind: TransportKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-conformance-\(UUID()).bin")
        let contents = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        try contents.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestServer.withServer { server in
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl) { provider in
                let endpoint = TestApi.echo(.put(body: .file(file, contentType: "application/octet-stream")))
                let received = try await provider.response(on: endpoint, decodeBodyTo: ReceivedRequest.self).get()
                #expect(received.body == contents)
                #expect(received.header("Content-Length") == "\(contents.count)")
                #expect(received.header("Transfer-Encoding") == nil)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aHundredRejectedRequestsShareOneRefresh(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let refreshes = Locked(0)
            // The refresh asks the server, as a real one asks an authorization server, and takes a round trip: the
            // requests rejected meanwhile wait for it. A provider of its own, without the plugin.
            let authorizationServer = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let plugin = TokenRefreshPlugin<TestApi>(token: "stale") { _ in
                refreshes.withLock { $0 += 1 }
                _ = try await authorizationServer.response(on: .echo(path: "token"), decodeBodyTo: ReceivedRequest.self)
                    .get()
                return "fresh"
            }
            try await kind.withProvider(TestApi.self, baseUrl: server.baseUrl, plugins: [plugin]) { provider in
                let failures = await withTaskGroup(of: String?.self) { group in
                    for _ in 0..<100 {
                        group.addTask {
                            switch await provider.rawDataResponse(on: .protected(accept: "fresh")) {
                            case .success: nil
                            case .failure(let error): String(describing: error)
                            }
                        }
                    }
                    return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
                }
                #expect(failures.isEmpty, "\(failures.count) of 100 failed, first: \(failures.first ?? "")")
                #expect(refreshes.withLock { $0 } == 1)
                #expect(await server.receivedRequests().filter { $0.path == "/echo/token" }.count == 1)
            }
        }
    }

    #if AsyncHTTPClient
    @Test func theReadmesTransportSetUpsCarryRequests() async throws {
        // snippet: transports
        let shared = ApiProvider<TodoApi>(transport: AsyncHTTPClientTransport(client: .shared))

        // Your own client, with its pool size and timeouts; whoever creates it shuts it down.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let busy = ApiProvider<TodoApi>(transport: AsyncHTTPClientTransport(client: client))

        // More connections per host for URLSession.
        let wide = ApiProvider<TodoApi>(transport: URLSessionTransport(maximumConnectionsPerHost: 16))
        // end snippet
        try await TestServer.withServer { server in
            for provider in [shared, busy, wide] {
                let transport = try #require(provider.transport)
                let onServer = ApiProvider<TodoApi>(baseUrl: server.baseUrl, transport: transport)
                let todos = try await onServer.response(on: .list(page: 1), decodeBodyTo: [Todo].self).get()
                #expect(!todos.isEmpty)
            }
        }
        try await client.shutdown()
    }
    #endif

    /// A receiver takes the body in parts, after the head and before the end, and the upload is counted as sent.
    @Test(arguments: TransportKind.allCases)
    func aBodyReceiverGetsTheHeadThenThePartsAndTheUploadIsCounted(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let receiver = PartsReceiver()
            let sent = Locked<[Int64]>([])
            var request = URLRequest(url: server.baseUrl.appendingPathComponent("echo"))
            request.httpMethod = "POST"
            request.httpBody = Data(repeating: 1, count: 300_000)
            let options = TransportOptions(
                responseBodyReceiver: receiver,
                uploadProgress: { count, _ in sent.withLock { $0.append(count) } }
            )
            let response = try await kind.withTransport { transport in
                try await withCheckedThrowingContinuation { continuation in
                    _ = transport.send(request, options: options) { continuation.resume(with: $0) }
                }
            }
            #expect(response.body.isEmpty)
            #expect(response.response?.statusCode == 200)
            let events = receiver.events.withLock { $0 }
            #expect(events.first == "head 200")
            #expect(events.dropFirst().allSatisfy { $0.hasPrefix("part ") })
            let echoed = try JSONDecoder().decode(ReceivedRequest.self, from: receiver.body.withLock { $0 })
            #expect(echoed.body.count == 300_000)
            #expect(sent.withLock { $0.last } == 300_000)
        }
    }
}

/// Records what a transport hands a ``ResponseBodyReceiver``, in order.
final class PartsReceiver: ResponseBodyReceiver {
    let events = Locked<[String]>([])
    let body = Locked(Data())

    func receiveHead(statusCode: Int, headerFields: [String: String]) throws {
        events.withLock { $0.append("head \(statusCode)") }
    }

    func receive(_ part: Data, readMore: @escaping @Sendable () -> Void) throws {
        events.withLock { $0.append("part \(part.count)") }
        body.withLock { $0.append(part) }
        readMore()
    }
}
