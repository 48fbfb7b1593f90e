import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The raw exchange's request half: a body produced while it is sent, streamed by AsyncHTTPClient and libcurl, read
/// first by URLSession and the mocks, replayed for a retry only as far as it was kept.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ProducedRequestBodyTests {
    static let sink = FreeEndpoint(
        subpath: "sink",
        method: .post(),
        headers: ["Content-Type": "application/octet-stream"]
    )

    /// A body of `parts`, made anew each time it is asked for; `asked` hears of each time.
    static func body(
        _ parts: [Data],
        announced: Bool = false,
        iteration: RequestBodyStream.Iteration = .repeatable,
        replayLimit: Int = 1 << 20,
        asked: EventLog<String>? = nil
    ) -> RequestBodyStream {
        RequestBodyStream(
            length: announced ? Int64(parts.reduce(0) { $0 + $1.count }) : nil,
            iteration: iteration,
            replayLimit: replayLimit
        ) {
            asked?.append("parts")
            return pulling(parts)
        }
    }

    /// One reading of `parts`, a part per call.
    static func pulling(_ parts: [Data]) -> RequestBodyStream.Pull {
        let left = Locked(Array(parts.reversed()))
        return { left.withLock { $0.popLast() } }
    }

    /// How many bytes of each end of a body `/sink` reports.
    static let kept = 256
    /// Retries a 503 at once, a `POST` too (the flaky route takes no other method with a body).
    static func retryingPosts() -> RetryPlugin<FreeEndpoint> {
        RetryPlugin(policy: RetryPolicy(initialDelay: .zero, jitter: 0), retriesNonIdempotent: { _ in true })
    }

    static let parts = (0..<3).map { Data(repeating: UInt8(ascii: "a") + UInt8($0), count: 100_000) }
    static let whole = parts.reduce(Data(), +)

    @Test(arguments: TransportKind.allCases, [false, true])
    func aProducedBodyArrivesWhole(kind: TransportKind, announced: Bool) async throws {
        try await TestServer.withServer { server in
            let report = try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl) { provider in
                let body = Self.body(Self.parts, announced: announced)
                let streamed = try await provider.rawExchange(on: Self.sink, body: body).get()
                return try JSONDecoder().decode(
                    SinkReport.self,
                    from: try await RawExchangeTests.body(of: streamed.chunks)
                )
            }
            #expect(report.bytes == Self.whole.count)
            #expect(report.head == Self.whole.prefix(Self.kept))
            #expect(report.tail == Self.whole.suffix(Self.kept))
            #expect(report.contentType == "application/octet-stream")
            if kind != .urlSession, !announced {
                // Sent as produced, its length unknown.
                #expect(report.transferEncoding == "chunked")
                #expect(report.contentLength == nil)
            } else {
                #expect(report.contentLength == "\(Self.whole.count)")
            }
        }
    }

    /// Over 1 MiB, a transport that cannot stream gets the body from a temporary file, gone when the request ends.
    @Test func aLargeBodyForURLSessionGoesThroughATemporaryFileThatIsRemoved() async throws {
        let parts = (0..<24).map { Data(repeating: UInt8($0), count: 128 * 1024) }
        let whole = parts.reduce(Data(), +)
        let spooled = { try Self.temporaryBodies(holding: whole) }
        let before = try spooled()
        try await TestServer.withServer { server in
            let report = try await TransportKind.urlSession.withProvider(
                FreeEndpoint.self,
                baseUrl: server.baseUrl
            ) { provider in
                let streamed = try await provider.rawExchange(on: Self.sink, body: Self.body(parts)).get()
                return try JSONDecoder().decode(
                    SinkReport.self,
                    from: try await RawExchangeTests.body(of: streamed.chunks)
                )
            }
            #expect(report.bytes == whole.count)
            #expect(report.tail == whole.suffix(Self.kept))
            #expect(report.contentLength == "\(whole.count)")
        }
        #expect(try spooled().subtracting(before).isEmpty)
    }

    /// The temporary files that hold `body`. The tests that run beside this one in the same process (an OpenAPI test's
    /// multi-megabyte upload over URLSession among them) spool bodies of their own into the same folder meanwhile, so a
    /// file is told apart by what it holds.
    static func temporaryBodies(holding body: Data) throws -> Set<String> {
        let directory = FileManager.default.temporaryDirectory
        return Set(
            try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix("courier-body-") }
                .filter { (try? Data(contentsOf: directory.appendingPathComponent($0))) == body }
        )
    }

    /// The server sends each part back as it arrives: the second part is produced only after the first came back,
    /// which a transport that read the whole body first could never do.
    @Test(arguments: TransportKind.notURLSession)
    func aBodyIsSentAsItIsProduced(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl) {
                provider in
                let feed = Feed()
                let body = RequestBodyStream(length: nil, iteration: .once, replayLimit: 0) { { await feed.next() } }
                await feed.give(Data("first part".utf8))
                let relay = FreeEndpoint(subpath: "relay", method: .post())
                let streamed = try await provider.rawExchange(on: relay, body: body).get()
                var chunks = streamed.chunks.makeAsyncIterator()
                var echoed = Data()
                while echoed.count < 10, let chunk = try await chunks.next() { echoed.append(chunk) }
                #expect(String(decoding: echoed, as: UTF8.self) == "first part")
                await feed.give(Data(" and the second".utf8))
                await feed.give(nil)
                while let chunk = try await chunks.next() { echoed.append(chunk) }
                #expect(String(decoding: echoed, as: UTF8.self) == "first part and the second")
            }
        }
    }

    /// A body produced while it was sent is not sent again to follow a 307 or 308 over libcurl: the failure says
    /// why, and the redirect's target gets nothing. (AsyncHTTPClient refuses too, but after sending the target the
    /// request's head.)
    @Test(arguments: [307, 308])
    func aProducedBodyIsNotSentAgainToFollowARedirectOverLibcurl(status: Int) async throws {
        let kind = TransportKind.curl
        try await TestServer.withServer { server in
            let redirect = FreeEndpoint(
                subpath: "redirect",
                method: .post(),
                ordered: [("to", .string("/sink")), ("status", .string(String(status)))]
            )
            let result = try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl) { provider in
                await provider.rawExchange(on: redirect, body: Self.body(Self.parts, iteration: .once, replayLimit: 0))
            }
            let reason: String? =
                if case .failure(.invalidRequest(let reason)) = result { reason } else { nil }
            #expect(reason?.contains("cannot be sent again") == true, "\(result)")
            #expect(await server.receivedRequests().map(\.path) == ["/redirect"])
        }
    }

    /// A body produced once is kept for a retry up to its replay limit: the server gets it twice, the producer is
    /// asked once.
    @Test(arguments: TransportKind.allCases)
    func aRetrySendsAKeptBodyAgain(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let asked = EventLog<String>()
            let retry = Self.retryingPosts()
            let path = "flaky/produced-\(kind.rawValue)"
            let flaky = FreeEndpoint(subpath: path, method: .post(), queryParameters: ["failures": "1"])
            let body = Self.body(Self.parts, iteration: .once, asked: asked)
            let status = try await kind.withProvider(baseUrl: server.baseUrl, plugins: [retry]) { provider in
                try await provider.rawExchange(on: flaky, body: body).get().statusCode
            }
            #expect(status == 200)
            #expect(asked.events == ["parts"])
            let received = await server.receivedRequests().filter { $0.path == "/" + path }
            #expect(received.map(\.body) == [Self.whole, Self.whole])
        }
    }

    /// A sending that never sent the body (its connection failed) leaves a body produced once untouched: the retry
    /// reads it from its producer.
    @Test(arguments: TransportKind.allCases)
    func aSendingWithoutAConnectionLeavesTheBodyForTheRetry(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let asked = EventLog<String>()
            let body = Self.body(Self.parts, iteration: .once, replayLimit: 0, asked: asked)
            let report = try await kind.withTransport { transport in
                let provider = ApiProvider<FreeEndpoint>(
                    baseUrl: server.baseUrl,
                    plugins: [Self.retryingPosts()],
                    transport: transport,
                    answerSteps: [RefusingFirstConnection()]
                )
                let streamed = try await provider.rawExchange(on: Self.sink, body: body).get()
                return try JSONDecoder().decode(
                    SinkReport.self,
                    from: try await RawExchangeTests.body(of: streamed.chunks)
                )
            }
            #expect(report.bytes == Self.whole.count)
            #expect(asked.events == ["parts"])
        }
    }

    /// Past its replay limit a body produced once is not sent again, and the failure says why.
    @Test(arguments: TransportKind.allCases)
    func aBodyLargerThanItsReplayLimitIsNotSentAgain(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let retry = Self.retryingPosts()
            let path = "flaky/unkept-\(kind.rawValue)"
            let flaky = FreeEndpoint(subpath: path, method: .post(), queryParameters: ["failures": "1"])
            let body = Self.body([Data("0123456789".utf8)], iteration: .once, replayLimit: 4)
            let result = try await kind.withProvider(baseUrl: server.baseUrl, plugins: [retry]) { provider in
                await provider.rawExchange(on: flaky, body: body).map(\.statusCode)
            }
            let reason =
                "the request body can be produced only once and was larger than the 4 bytes kept to send it "
                + "again, so the request is not sent again"
            #expect(result == .failure(.invalidRequest(reason: reason)))
            #expect(await server.receivedRequests().filter { $0.path == "/" + path }.count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aBodyShorterThanAnnouncedFailsTheRequest(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let body = RequestBodyStream(length: 10, iteration: .repeatable, replayLimit: 0) {
                let left = Locked([Data("12345".utf8)])
                return {
                    if let part = left.withLock({ $0.popLast() }) { return part }
                    // A transport that streams the body ends it once the server has the request: a client that
                    // closes a connection before the test server has accepted it crashes Hummingbird 2.28
                    // (NIOAsyncWriter deinitialized without finish() in channelActive).
                    if kind != .urlSession { await server.waitForRequests(count: 1) }
                    return nil
                }
            }
            let result = try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl) { provider in
                await provider.rawExchange(on: Self.sink, body: body).map(\.statusCode)
            }
            let reason = "the request body was announced as 10 bytes, but it ended after 5"
            #expect(result == .failure(.invalidRequest(reason: reason)))
        }
    }

    /// Cancelling the awaiting task while the producer holds its next part stops reading it: the wait for that part
    /// is cancelled.
    @Test(arguments: TransportKind.allCases)
    func cancellingStopsReadingTheProducer(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let (ended, endedSignal) = AsyncStream<Void>.makeStream()
            let (asked, askedSignal) = AsyncStream<Void>.makeStream()
            let body = RequestBodyStream(length: nil, iteration: .once, replayLimit: 0) {
                let given = Locked(false)
                return {
                    let first = given.withLock { given -> Bool in
                        defer { given = true }
                        return !given
                    }
                    if first { return Data("a part".utf8) }
                    // The first part was taken: the request is under way.
                    askedSignal.finish()
                    do {
                        try await Task.sleep(for: .seconds(3_600))
                    } catch {
                        endedSignal.finish()
                        throw error
                    }
                    return nil
                }
            }
            let result = try await kind.withProvider(FreeEndpoint.self, baseUrl: server.baseUrl) { provider in
                let exchange = Task { await provider.rawExchange(on: Self.sink, body: body).map(\.statusCode) }
                for await _ in asked {}
                // Streamed, the request reaches the server before it is cancelled (see above).
                if kind != .urlSession { await server.waitForRequests(count: 1) }
                exchange.cancel()
                return await exchange.value
            }
            #expect(result == .failure(.cancelled))
            for await _ in ended {}
        }
    }

    /// A caller still producing its body is no silence of the server's: with a 10 s idle timeout on virtual time, parts
    /// 8 s apart keep the exchange alive, and the wait for the answer counts from the body's end.
    @Test(arguments: TransportKind.allCases)
    func producingTheBodyIsNoSilence(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let scheduler = TestScheduler()
            let feed = Feed()
            var pulls = feed.pulls.makeAsyncIterator()
            let body = RequestBodyStream(length: nil, iteration: .once, replayLimit: 0) { { await feed.next() } }
            var sink = Self.sink
            sink.idleTimeout = .seconds(10)
            let report = try await kind.withProvider(
                FreeEndpoint.self,
                baseUrl: server.baseUrl,
                scheduler: scheduler
            ) { provider in
                let exchange = Task { [sink] in await provider.rawExchange(on: sink, body: body) }
                await feed.give(Data("first".utf8))
                // The second pull begins once the first part was taken.
                _ = await pulls.next()
                _ = await pulls.next()
                await scheduler.advance(by: .seconds(8))
                await feed.give(Data(", second".utf8))
                _ = await pulls.next()
                await scheduler.advance(by: .seconds(8))
                await feed.give(nil)
                let streamed = try await exchange.value.get()
                return try JSONDecoder().decode(
                    SinkReport.self,
                    from: try await RawExchangeTests.body(of: streamed.chunks)
                )
            }
            #expect(report.head == Data("first, second".utf8))
        }
    }

    /// The mocks read the body to its end before they answer, as a server would.
    @Test func aMockedExchangeReadsTheBody() async throws {
        let read = EventLog<String>()
        let body = RequestBodyStream(length: nil, iteration: .repeatable, replayLimit: 0) {
            let parts = Locked(["second", "first"])
            return {
                let part = parts.withLock { $0.popLast() }
                read.append(part ?? "end")
                return part.map { Data($0.utf8) }
            }
        }
        let provider = ApiProvider<FreeEndpoint>(
            mockingBehavior: MockingBehavior { _ in MockedResponse(status: .created, bodyData: Data()) }
        )
        let streamed = try await provider.rawExchange(on: FreeEndpoint(method: .post()), body: body).get()
        #expect(streamed.statusCode == 201)
        #expect(read.events == ["first", "second", "end"])
    }

    @Test func aStreamedBodyIsRefusedBesideABodyOfTheEndpointsOwnOrOnAGet() async throws {
        let provider = ApiProvider<FreeEndpoint>(
            mockingBehavior: MockingBehavior { _ in MockedResponse(status: .ok, bodyData: Data()) }
        )
        let body = Self.body([Data("x".utf8)])
        let own = FreeEndpoint(method: .post(body: .data(Data("own".utf8))))
        let withOwn = await provider.rawExchange(on: own, body: body).map(\.statusCode)
        #expect(
            withOwn
                == .failure(
                    .invalidRequest(
                        reason: "\(own.nameForMessages) has a body of its own and cannot be sent "
                            + "with a streamed one"
                    )
                )
        )
        let onGet = await provider.rawExchange(on: FreeEndpoint(), body: body).map(\.statusCode)
        #expect(onGet == .failure(.invalidRequest(reason: "a GET request cannot carry a body")))
    }
}

/// Fails the first sending as a refused connection would, before anything is sent; hands every later one on.
private final class RefusingFirstConnection: AnswerStep, Sendable {
    private let refused = Locked(false)

    func send(
        _ request: URLRequest,
        for endpoint: FreeEndpoint,
        options: TransportOptions,
        next: any Transport,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        let first = refused.withLock { refused -> Bool in
            defer { refused = true }
            return !refused
        }
        guard !first else {
            completion(.failure(URLError(.cannotConnectToHost)))
            return {}
        }
        return next.send(request, options: options, completion: completion)
    }
}

/// A producer the test feeds part by part, telling the test each time it is asked for the next.
private actor Feed {
    nonisolated let pulls: AsyncStream<Void>
    private let pulled: AsyncStream<Void>.Continuation
    private var given: [Data?] = []
    private var waiting: CheckedContinuation<Data?, Never>?

    init() {
        (pulls, pulled) = AsyncStream<Void>.makeStream()
    }

    func next() async -> Data? {
        pulled.yield()
        if !given.isEmpty { return given.removeFirst() }
        return await withCheckedContinuation { waiting = $0 }
    }

    func give(_ part: Data?) {
        guard let waiting else { return given.append(part) }
        self.waiting = nil
        waiting.resume(returning: part)
    }
}
