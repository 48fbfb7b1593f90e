#if OpenAPI
import Courier
import CourierOpenAPI
import CourierTestServer
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// A provider of operations as a generated client's transport, against the loopback server: every status returned,
/// bodies streamed both ways, retries as HTTP allows them, cancellation.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ClientTransportTests {
    @Test(arguments: TransportKind.allCases)
    func everyStatusIsReturnedWithItsBody(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider { provider in
                let (response, body) = try await provider.send(
                    call(.get, "/status/404"),
                    body: nil,
                    baseURL: server.baseUrl,
                    operationID: "getStatus"
                )
                #expect(response.status == .notFound)
                #expect(response.headerFields[.contentType] == "application/json")
                let error = try JSONDecoder().decode(ServerError.self, from: try await #require(body).collected())
                #expect(error == ServerError(code: 404, message: "status 404"))
            }
        }
    }

    /// The path and query reach the server as the generated code encoded them, header fields too.
    @Test(arguments: TransportKind.allCases)
    func thePathQueryAndHeadersArriveAsEncoded(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider { provider in
                let path = "/echo/a%20b/c%2Fd?filter=x%2By&tags=a,b"
                var headers = HTTPFields()
                headers[.accept] = "application/json"
                headers.append(HTTPField(name: .init("X-Trace")!, value: "1"))
                headers.append(HTTPField(name: .init("X-Trace")!, value: "2"))
                let base = server.baseUrl.appendingPathComponent("api")
                _ = try await provider.send(
                    call(.get, path, headers: headers),
                    body: nil,
                    baseURL: base,
                    operationID: "echo"
                )
            }
            let received = try #require(await server.receivedRequests().last)
            #expect(received.path == "/api/echo/a%20b/c%2Fd")
            #expect(received.query == "filter=x%2By&tags=a,b")
            #expect(received.header("Accept") == "application/json")
            #expect(received.header("X-Trace") == "1, 2")
        }
    }

    /// A 4 MiB download reaches the generated code in parts as it arrives, not held by the provider.
    @Test(arguments: TransportKind.allCases)
    func aDownloadArrivesInParts(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider { provider in
                let count = 4 << 20
                let (response, body) = try await provider.send(
                    call(.get, "/bytes?count=\(count)"),
                    body: nil,
                    baseURL: server.baseUrl,
                    operationID: "download"
                )
                #expect(response.status == .ok)
                var parts = 0
                var bytes = 0
                for try await part in try #require(body) {
                    parts += 1
                    bytes += part.count
                }
                #expect(bytes == count)
                #expect(parts > 1)
            }
        }
    }

    /// A body the generated code produces as it goes, iterable once, with no length: streamed by AsyncHTTPClient,
    /// read first by URLSession.
    @Test(arguments: TransportKind.allCases)
    func anUploadIsSentFromTheGeneratedBody(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let parts = (0..<8).map { [UInt8](repeating: UInt8($0), count: 256 * 1024)[...] }
            let body = HTTPBody(
                AsyncStream { continuation in
                    for part in parts { continuation.yield(part) }
                    continuation.finish()
                },
                length: .unknown,
                iterationBehavior: .single
            )
            let report = try await kind.withProvider { provider in
                var headers = HTTPFields()
                headers[.contentType] = "application/octet-stream"
                let (_, answer) = try await provider.send(
                    call(.post, "/sink", headers: headers),
                    body: body,
                    baseURL: server.baseUrl,
                    operationID: "upload"
                )
                return try JSONDecoder().decode(SinkReport.self, from: try await #require(answer).collected())
            }
            #expect(report.bytes == 8 * 256 * 1024)
            #expect(report.tail == Data(repeating: 7, count: 256))
            #expect(report.contentType == "application/octet-stream")
            #expect(report.transferEncoding == (kind.streamsUnknownLengths ? "chunked" : nil))
        }
    }

    /// A GET answered 503 with `Retry-After: 7` is sent again after 7 s of the provider's virtual time; a POST is
    /// not, and its 503 goes back to the generated code.
    @Test(arguments: TransportKind.allCases)
    func aGetIsRetriedAsRetryAfterSaysAndAPostIsNot(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let scheduler = TestScheduler()
            try await kind.withProvider(plugins: [RetryPlugin()], scheduler: scheduler) { provider in
                let get = Task {
                    try await provider.send(
                        call(.get, "/flaky/get-\(kind.rawValue)?failures=1&retryAfter=7"),
                        body: nil,
                        baseURL: server.baseUrl,
                        operationID: "getFlaky"
                    )
                }
                await scheduler.waitForPendingWork()
                #expect(await server.receivedRequests().count == 1)
                await scheduler.advance(by: .seconds(7))
                let (retried, retriedBody) = try await get.value
                #expect(retried.status == .ok)
                #expect(try await #require(retriedBody).collected() == Data(#"{"attempt":2}"#.utf8))

                let (posted, _) = try await provider.send(
                    call(.post, "/flaky/post-\(kind.rawValue)?failures=1"),
                    body: HTTPBody("{}"),
                    baseURL: server.baseUrl,
                    operationID: "createFlaky"
                )
                #expect(posted.status == .serviceUnavailable)
            }
            #expect(await server.receivedRequests().count == 3)
        }
    }

    /// A POST marked safe to retry sends its body again: one that can be iterated only once is replayed from what
    /// was kept, and the generated code's body is iterated once.
    @Test(arguments: TransportKind.allCases)
    func aBodyIterableOnceIsReplayedForARetry(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let retry = RetryPlugin<OpenAPIOperation>(
                policy: RetryPolicy(initialDelay: .zero, jitter: 0),
                retriesNonIdempotent: { $0.operationID == "createTodo" }
            )
            let path = "/flaky/replay-\(kind.rawValue)"
            let status = try await kind.withProvider(plugins: [retry]) { provider in
                let body = HTTPBody(
                    AsyncStream { continuation in
                        continuation.yield(ArraySlice(#"{"title":"#.utf8))
                        continuation.yield(ArraySlice(#""milk"}"#.utf8))
                        continuation.finish()
                    },
                    length: .unknown,
                    iterationBehavior: .single
                )
                let (response, _) = try await provider.send(
                    call(.post, path + "?failures=1"),
                    body: body,
                    baseURL: server.baseUrl,
                    operationID: "createTodo"
                )
                return response.status
            }
            #expect(status == .ok)
            let bodies = await server.receivedRequests().filter { $0.path == path }.map(\.bodyText)
            #expect(bodies == [#"{"title":"milk"}"#, #"{"title":"milk"}"#])
        }
    }

    /// Cancelling the task that awaits the call cancels the request: the server sees the connection close, and the
    /// call throws Courier's error.
    @Test(arguments: TransportKind.allCases)
    func cancellingTheCallCancelsTheRequest(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let thrown = try await kind.withProvider { provider in
                let id = "openapi-\(kind.rawValue)"
                let pending = Task {
                    try await provider.send(
                        call(.get, "/silent/\(id)"),
                        body: nil,
                        baseURL: server.baseUrl,
                        operationID: "wait"
                    )
                }
                await server.waitForRequests()
                pending.cancel()
                await server.waitForDisconnect(of: id)
                return await pending.result
            }
            #expect(throws: ApiError<Never>.cancelled) { try thrown.get() }
        }
    }

    /// A call that got no answer throws Courier's error, as every door reports it.
    @Test(arguments: TransportKind.allCases)
    func aCallWithoutAnAnswerThrowsApiError(kind: TransportKind) async throws {
        // Port 1 (tcpmux) has no listener here; a port freed by a stopped server could be taken by a parallel test's
        // server, which would then answer this call (and count it among its own).
        let closed = try #require(URL(string: "http://127.0.0.1:1"))
        let thrown = try await kind.withProvider { provider in
            do {
                _ = try await provider.send(call(.get, "/status/200"), body: nil, baseURL: closed, operationID: "get")
                return nil as (any Error)?
            } catch {
                return error
            }
        }
        #expect(thrown as? ApiError<Never> == .noResponseReceived(error: URLError(.cannotConnectToHost)))
    }
}

/// The loopback server's error body.
struct ServerError: Decodable, Equatable {
    let code: Int
    let message: String
}
#endif
