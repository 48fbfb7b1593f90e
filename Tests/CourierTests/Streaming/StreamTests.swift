import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streamed responses over both transports: the head first, then the body as it arrives.
@Suite(.serialized, .timeLimit(.minutes(HangGuard.minutes)))
struct StreamTests {
    @Test(arguments: TransportKind.allCases)
    func theBodyArrivesInPartsThatMakeItWhole(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let size = 1024 * 1024
            let (parts, total, bytes) = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) {
                provider in
                let streamed = try await provider.stream(on: .file(size: size)).get()
                #expect(streamed.response.statusCode == 200)
                #expect(streamed.response.value(forHTTPHeaderField: "Content-Length") == "\(size)")
                var parts = 0
                var bytes = Data()
                for try await chunk in streamed.chunks {
                    parts += 1
                    bytes.append(chunk)
                }
                return (parts, bytes.count, bytes)
            }
            #expect(total == size)
            #expect(parts > 1)
            #expect(bytes == generatedFile(size: size))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theHeadArrivesBeforeTheBodyHasEnded(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                // `/hold` sends a byte every 50 ms for longer than the test may run: the stream is handed over long
                // before its end.
                let streamed = try await provider.stream(on: .hold(id: "head-\(kind)")).get()
                #expect(streamed.response.statusCode == 200)
                var received = Data()
                for try await chunk in streamed.chunks {
                    received.append(chunk)
                    if received.count >= 3 { break }
                }
                #expect(received.prefix(3) == Data("...".utf8))
            }
            // Leaving the loop stopped the transfer: the server saw the connection close.
            await server.waitForDisconnect(of: "head-\(kind)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingTheReadingTaskStopsTheTransfer(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let outcome = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                let streamed = try await provider.stream(on: .hold(id: "cancel-\(kind)")).get()
                let (reading, startedReading) = AsyncStream<Void>.makeStream()
                let reader = Task {
                    defer { startedReading.finish() }
                    do {
                        for try await _ in streamed.chunks { startedReading.finish() }
                        return "ended"
                    } catch let error as ApiError<TestError> {
                        return error.kind
                    }
                }
                // Cancelled mid-transfer: once the reader has its first part, with the rest still to come.
                for await _ in reading {}
                reader.cancel()
                return try await reader.value
            }
            #expect(outcome == "cancelled")
            await server.waitForDisconnect(of: "cancel-\(kind)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anAnswerThatIsNotTwoHundredFailsAsForAnyRequest(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let result = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                await provider.stream(on: .status(409))
            }
            guard case .failure(.clientError(409, let error?)) = result else {
                Issue.record("Expected a decoded 409, got \(result)")
                return
            }
            #expect(error.code == 409)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func linesSplitAtLineFeedsAndCarriageReturnLineFeeds(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let body = Data("{\"a\":1}\n{\"b\":2}\r\n\nGrüße\nlast".utf8)
            let lines = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                var lines: [String] = []
                for try await line in try await provider.stream(on: .eventStream(body)).get().lines {
                    lines.append(line)
                }
                return lines
            }
            #expect(lines == ["{\"a\":1}", "{\"b\":2}", "", "Grüße", "last"])
        }
    }

    /// The endpoint's idle timeout counts between parts: a server that goes quiet fails the stream.
    @Test(arguments: TransportKind.allCases)
    func aStreamThatGoesQuietTimesOut(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let error = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                // The first byte comes at once, the next after ten minutes: only the timeout can end the wait.
                await Self.readToTheEnd(provider, .drip(bytes: 3, intervalMs: 600_000, idleTimeout: .seconds(1)))
            }
            Self.expectTimeout(error)
        }
    }

    /// The overall timeout bounds the whole exchange, however steadily the server sends.
    @Test(arguments: TransportKind.allCases)
    func theOverallTimeoutEndsAStreamThatKeepsSending(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let error = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                await Self.readToTheEnd(provider, .hold(id: "overall-\(kind)", timeout: .seconds(2)))
            }
            Self.expectTimeout(error)
            // Unless the timeout came before the request reached the server, as it can on a starved machine.
            if await server.receivedRequests().contains(where: { $0.path == "/hold/overall-\(kind)" }) {
                await server.waitForDisconnect(of: "overall-\(kind)")
            }
        }
    }

    /// Plugins judge the answer at its head: a retry and a token refresh happen before a byte of the body is
    /// handed over.
    @Test(arguments: TransportKind.allCases)
    func aRetryAndATokenRefreshHappenBeforeTheStreamIsHandedOver(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let retry = RetryPlugin<TransferApi>(policy: RetryPolicy(jitter: 0), scheduler: ImmediateScheduler())
            let refresh = TokenRefreshPlugin<TransferApi>(token: "stale") { _ in "fresh" }
            let (flaky, protected) = try await kind.withProvider(
                TransferApi.self,
                baseUrl: server.baseUrl,
                plugins: [refresh, retry]
            ) { provider in
                let flaky = try await Self.text(
                    of: provider.stream(on: .flaky(key: "stream-\(kind)", failures: 2)).get()
                )
                let protected = try await Self.text(of: provider.stream(on: .protected(accept: "fresh")).get())
                return (flaky, protected)
            }
            #expect(flaky.contains("\"attempt\":3"))
            #expect(protected.contains("fresh"))
        }
    }

    @Test func aMockedStreamHandsOverTheMockedBody() async throws {
        let provider = ApiProvider<TransferApi>(
            baseUrl: URL(string: "https://example.invalid"),
            mockingBehavior: MockingBehavior { _ in MockedResponse(status: .ok, bodyData: Data("one\ntwo\n".utf8)) }
        )
        var lines: [String] = []
        for try await line in try await provider.stream(on: .status(200)).get().lines {
            lines.append(line)
        }
        #expect(lines == ["one", "two"])
    }

    /// Streams `endpoint` and reads its body to the end: the error it failed with, or `nil`.
    private static func readToTheEnd(
        _ provider: ApiProvider<TransferApi>,
        _ endpoint: TransferApi
    ) async -> ApiError<TestError>? {
        do {
            for try await _ in try await provider.stream(on: endpoint).get().chunks {}
            return nil
        } catch let error as ApiError<TestError> {
            return error
        } catch {
            Issue.record("Not an ApiError: \(error)")
            return nil
        }
    }

    private static func expectTimeout(_ error: ApiError<TestError>?, sourceLocation: SourceLocation = #_sourceLocation)
    {
        guard case .noResponseReceived(let underlying as URLError)? = error else {
            Issue.record("Expected a timeout, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(underlying.code == .timedOut, sourceLocation: sourceLocation)
    }

    private static func text(of streamed: StreamedResponse<TestError>) async throws -> String {
        var body = Data()
        for try await chunk in streamed.chunks { body.append(chunk) }
        return String(decoding: body, as: UTF8.self)
    }
}
