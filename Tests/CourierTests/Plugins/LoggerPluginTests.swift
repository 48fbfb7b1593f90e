import CourierTestServer
import Foundation
import Logging
import Testing

@testable import Courier

/// The swift-log forms of `RequestLoggerPlugin` and `ResponseLoggerPlugin`: one line per sending and per answer, at
/// levels by outcome, with no secret in any line or metadata.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct LoggerPluginTests {
    static let secret = "s3cr3t-VALUE"

    struct Credentials: Encodable {
        struct Nested: Encodable { let password: String }
        let user: String
        let password: String
        let nested: Nested
    }

    /// What both loggers are given.
    struct Configuration {
        var redaction = LogRedaction()
        var logsBodies = false
        var maximumBodyLength = 1024
    }

    static func loggers<EndpointType: Endpoint>(
        _ capture: LogCapture,
        _ configuration: Configuration = Configuration()
    ) -> [Plugin<EndpointType>] {
        let logger = capture.logger()
        return [
            RequestLoggerPlugin(
                logger: logger,
                redaction: configuration.redaction,
                logsBodies: configuration.logsBodies,
                maximumBodyLength: configuration.maximumBodyLength
            ),
            ResponseLoggerPlugin(
                logger: logger,
                redaction: configuration.redaction,
                logsBodies: configuration.logsBodies,
                maximumBodyLength: configuration.maximumBodyLength
            ),
        ]
    }

    static func provider<EndpointType: Endpoint>(
        _ server: TestServer,
        capture: LogCapture,
        configuration: Configuration
    ) -> ApiProvider<EndpointType> {
        ApiProvider<EndpointType>(
            baseUrl: server.baseUrl,
            plugins: [HttpAuthPlugin { secret }] + loggers(capture, configuration)
        )
    }

    static let redactingEverything = Configuration(
        redaction: LogRedaction(headers: ["X-Session"], queryParameters: ["api_key"], jsonFields: ["password"]),
        logsBodies: true
    )

    @Test func noSecretReachesTheLogs() async throws {
        try await TestServer.withServer { server in
            let capture = LogCapture()
            let provider: ApiProvider<FreeEndpoint> = Self.provider(
                server,
                capture: capture,
                configuration: Self.redactingEverything
            )
            let endpoint = FreeEndpoint(
                subpath: "status/200",
                method: .post(
                    body: .json(Credentials(user: "ann", password: Self.secret, nested: .init(password: Self.secret)))
                ),
                headers: ["Cookie": "session=\(Self.secret)", "X-Session": Self.secret],
                ordered: [("api_key", .string(Self.secret)), ("page", 1)]
            )
            _ = await provider.rawDataResponse(on: endpoint)
            let cookie = FreeEndpoint(subpath: "set-cookie", ordered: [("api_key", .string(Self.secret))])
            let cookieProvider: ApiProvider<FreeEndpoint> = Self.provider(
                server,
                capture: capture,
                configuration: Configuration(redaction: LogRedaction(queryParameters: ["API_KEY"]))
            )
            _ = await cookieProvider.rawDataResponse(on: cookie)
            // The secrets were sent: the log hides what the requests really carried.
            let sent = await server.receivedRequests()
            #expect(sent.map { $0.header("Authorization") } == ["Bearer \(Self.secret)", "Bearer \(Self.secret)"])
            #expect(sent.first?.header("X-Session") == Self.secret)
            let lines = capture.lines
            #expect(lines.count == 4)
            for line in lines {
                #expect(!line.everything.contains(Self.secret), "\(line.everything)")
            }
            let request = try #require(lines.first)
            #expect(
                request.message == "→ POST http://127.0.0.1:\(server.port)/status/200?api_key=REDACTED&page=1, 77 B"
            )
            #expect(request.metadata["body"]?.contains(#""user":"ann""#) == true)
            #expect(request.metadata["body"]?.contains(#""password":"REDACTED""#) == true)
            #expect(request.metadata["headers"]?.contains(#""Cookie": "REDACTED""#) == true)
            #expect(lines[3].metadata["headers"]?.contains(#""Set-Cookie": "REDACTED""#) == true)
        }
    }

    @Test func aPasswordInTheUrlIsHidden() {
        let redaction = LogRedaction()
        let url = URL(string: "https://ann:\(Self.secret)@api.example.com/v1?q=1")
        #expect(redaction.redacted(url: url) == "https://ann:REDACTED@api.example.com/v1?q=1")
    }

    @Test func linesHaveLevelsByOutcomeAndCarryStatusDurationAndSizes() async throws {
        try await TestServer.withServer { server in
            let capture = LogCapture()
            let provider: ApiProvider<TestApi> = Self.provider(server, capture: capture, configuration: .init())
            _ = await provider.rawDataResponse(on: .status(200))
            _ = await provider.rawDataResponse(on: .status(404))
            _ = await provider.rawDataResponse(on: .status(500))
            _ = await provider.rawDataResponse(on: .drop)
            let lines = capture.lines
            #expect(lines.map(\.level) == [.debug, .info, .debug, .warning, .debug, .error, .debug, .error])
            let ok = lines[1]
            #expect(ok.message.hasPrefix("← 200 OK GET http://127.0.0.1:\(server.port)/status/200 in "))
            #expect(ok.metadata["status"] == "200")
            #expect(ok.metadata["bodyBytes"] == "\(#"{"code":200,"message":"status 200"}"#.utf8.count)")
            #expect(ok.metadata["durationMs"].flatMap(Int.init) != nil)
            #expect(ok.metadata["body"] == nil)
            #expect(lines[7].message.contains("failed after"))
        }
    }

    @Test func bodiesAreCutAtTheConfiguredLength() async throws {
        try await TestServer.withServer { server in
            let capture = LogCapture()
            let configuration = Configuration(logsBodies: true, maximumBodyLength: 10)
            let provider: ApiProvider<TestApi> = Self.provider(server, capture: capture, configuration: configuration)
            _ = await provider.rawDataResponse(on: .plain(200))
            let body = try #require(capture.lines.last?.metadata["body"])
            #expect(body == "plain text… (20 bytes in all)")
        }
    }

    @Test func theLinesOfConcurrentRequestsArePairedByTheirRequestId() async throws {
        try await TestServer.withServer { server in
            let capture = LogCapture()
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: Self.loggers(capture)
            )
            await withTaskGroup(of: Void.self) { group in
                for id in 0..<20 {
                    group.addTask { _ = await provider.rawDataResponse(on: .echo(path: "item/\(id)")) }
                }
            }
            let byRequest = Dictionary(grouping: capture.lines) { $0.metadata["requestId"] ?? "none" }
            #expect(byRequest.count == 20)
            #expect(byRequest["none"] == nil)
            for lines in byRequest.values {
                #expect(lines.map { String($0.message.prefix(1)) } == ["→", "←"])
                // Both lines of a pair name the same request.
                #expect(Set(lines.map { $0.metadata["url"] ?? "" }).count == 1)
            }
        }
    }

    @Test func aTracedRequestsLinesCarryItsTraceId() async throws {
        try await TestServer.withServer { server in
            let capture = LogCapture()
            let tracer = W3CTracer()
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [TracingPlugin(tracer: tracer)] + Self.loggers(capture)
            )
            _ = await provider.rawDataResponse(on: .echo())
            let span = try #require(tracer.finishedSpans.first { $0.kind == .client })
            #expect(capture.lines.count == 2)
            #expect(capture.lines.allSatisfy { $0.metadata["traceId"] == span.traceID })
            // The request line shows the header as sent: the tracing plugin comes first.
            #expect(capture.lines.first?.metadata["headers"]?.contains(span.spanID) == true)
        }
    }

    @Test func eachLoggerWritesItsOwnSideAndTheClosureFormsObserveNothing() async throws {
        try await TestServer.withServer { server in
            let capture = LogCapture()
            let requests = Locked<[String]>([])
            let results = Locked(0)
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [
                    ResponseLoggerPlugin(logger: capture.logger()),
                    RequestLoggerPlugin { request in requests.withLock { $0.append(request.url?.path ?? "") } },
                    ResponseLoggerPlugin { _ in results.withLock { $0 += 1 } },
                ]
            )
            _ = await provider.rawDataResponse(on: .status(404))
            #expect(capture.lines.map(\.level) == [.warning])
            #expect(capture.lines.first?.message.hasPrefix("← 404 Not Found GET") == true)
            #expect(requests.withLock { $0 } == ["/status/404"])
            #expect(results.withLock { $0 } == 1)
            // Only the swift-log form observes the request (for its id); the closures add no observer.
            #expect(provider.observers.count == 1)
        }
    }
}
