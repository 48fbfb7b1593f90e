import CourierTestServer
import CourierTestServerTLS
import Foundation
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The phases of each sending as libcurl measured them, on the sending's span and in `dns.lookup.duration`: told by
/// which events a span has and in which order, never by how long they took.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct SendingTimingsTests {
    /// The `send` spans of what `body` sent over `kind` to `baseUrl`, in the order they started, and the metrics.
    static func observe(
        _ kind: TransportKind,
        baseUrl: URL,
        tls: TlsOptions? = nil,
        _ body: (ApiProvider<TestApi>) async -> Void
    ) async throws -> (sendings: [FinishedInMemorySpan], metrics: TestMetrics) {
        let metrics = TestMetrics()
        let tracer = W3CTracer()
        let plugins: [Plugin<TestApi>] = [MetricsPlugin(factory: metrics), TracingPlugin(tracer: tracer)]
        if let tls {
            await body(ApiProvider(baseUrl: baseUrl, plugins: plugins, transport: CurlTransport(tls: tls)))
        } else {
            try await kind.withProvider(baseUrl: baseUrl, plugins: plugins, body)
        }
        let sendings = tracer.finishedSpans.filter { $0.operationName == "send" }
            .sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
        return (sendings, metrics)
    }

    /// The events' names, after checking that their instants do not go backwards and lie within the span.
    static func timeline(of span: FinishedInMemorySpan) -> [String] {
        let instants = span.events.map(\.nanosecondsSinceEpoch)
        #expect(instants == instants.sorted(), "\(span.events)")
        if let first = instants.first, let last = instants.last {
            #expect(first + 1_000_000 >= span.startInstant.nanosecondsSinceEpoch, "\(span.events)")
            #expect(last <= span.endInstant.nanosecondsSinceEpoch + 1_000_000, "\(span.events)")
        }
        return span.events.map(\.name)
    }

    @Test func aNewConnectionToANamedServerShowsEachPhaseAndAKeptOneOnlyTheAnswersStart() async throws {
        try await TestServer.withServer { server in
            let named = try #require(URL(string: "http://localhost:\(server.port)"))
            let (sendings, metrics) = try await Self.observe(.curl, baseUrl: named) { provider in
                for _ in 0..<2 { _ = await provider.rawDataResponse(on: .echo(path: "a")) }
            }
            try #require(sendings.count == 2)
            #expect(
                Self.timeline(of: sendings[0]) == [
                    "domainLookupStart", "domainLookupEnd", "connectStart", "connectEnd", "responseStart",
                ]
            )
            #expect(sendings[0].attributeTexts["courier.connection.reused"] == "false")
            #expect(Self.timeline(of: sendings[1]) == ["responseStart"])
            #expect(sendings[1].attributeTexts["courier.connection.reused"] == "true")
            let lookups = metrics.timers(label: HttpClientMetrics.nameLookupDuration)
            #expect(lookups.count == 1)
            #expect(lookups.first?.values.count == 1)
            #expect(lookups.first?.dimensions.map { "\($0.0)=\($0.1)" } == ["dns.question.name=localhost"])
        }
    }

    /// libcurl sums the phases of the hops it followed: only the last answer's start is told, and not whether its
    /// connection was kept.
    @Test func aRedirectedSendingShowsOnlyTheAnswersStart() async throws {
        try await TestServer.withServer { server in
            let named = try #require(URL(string: "http://localhost:\(server.port)"))
            let (sendings, metrics) = try await Self.observe(.curl, baseUrl: named) { provider in
                _ = await provider.rawDataResponse(on: .redirect(to: "/echo/landed"))
            }
            try #require(sendings.count == 1)
            #expect(Self.timeline(of: sendings[0]) == ["responseStart"])
            #expect(sendings[0].attributes["courier.connection.reused"] == nil)
            #expect(metrics.timers(label: HttpClientMetrics.nameLookupDuration).isEmpty)
        }
    }

    /// The same after redirects that Courier followed itself (a `PUT`'s), hop by hop.
    @Test func aSendingRedirectedByCourierShowsOnlyTheAnswersStart() async throws {
        try await TestServer.withServer { server in
            let tracer = W3CTracer()
            let provider = ApiProvider<FreeEndpoint>(
                baseUrl: server.baseUrl,
                plugins: [TracingPlugin(tracer: tracer)],
                transport: CurlTransport()
            )
            let endpoint = FreeEndpoint(
                subpath: "redirect",
                method: .put(body: .data(Data("body".utf8))),
                queryParameters: ["to": "/echo/landed", "status": "307"]
            )
            _ = try await provider.rawDataResponse(on: endpoint).get()
            let sendings = tracer.finishedSpans.filter { $0.operationName == "send" }
            try #require(sendings.count == 1)
            #expect(Self.timeline(of: sendings[0]) == ["responseStart"])
            #expect(sendings[0].attributes["courier.connection.reused"] == nil)
        }
    }

    @Test func anHttpsConnectionShowsItsHandshakeAndAnAddressNoLookup() async throws {
        try await TestServer.withServer(tls: .init()) { server in
            let (sendings, metrics) = try await Self.observe(
                .curl,
                baseUrl: server.baseUrl,
                tls: try .testAuthority()
            ) { provider in
                _ = await provider.rawDataResponse(on: .echo(path: "a"))
            }
            try #require(sendings.count == 1)
            #expect(
                Self.timeline(of: sendings[0]) == [
                    "connectStart", "secureConnectionStart", "connectEnd", "responseStart",
                ]
            )
            #expect(metrics.timers(label: HttpClientMetrics.nameLookupDuration).isEmpty)
        }
    }

    /// The other transports do not expose the phases: their spans have no events, and no lookup is recorded.
    @Test(arguments: TransportKind.allCases.filter { $0 != .curl })
    func transportsThatDoNotMeasureThePhasesReportNone(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let named = try #require(URL(string: "http://localhost:\(server.port)"))
            let (sendings, metrics) = try await Self.observe(kind, baseUrl: named) { provider in
                _ = await provider.rawDataResponse(on: .echo(path: "a"))
            }
            #expect(sendings.count == 1)
            #expect(sendings.allSatisfy { $0.events.isEmpty && $0.attributes["courier.connection.reused"] == nil })
            #expect(metrics.timers(label: HttpClientMetrics.nameLookupDuration).isEmpty)
        }
    }

    /// Nothing asks a transport for the phases unless an observing plugin will read them.
    @Test func onlyAProviderWithAnObserverAsksForThePhases() async throws {
        try await TestServer.withServer { server in
            let asked = Locked<[Bool]>([])
            let transport = OptionsRecorder(CurlTransport()) { options in
                asked.withLock { $0.append(options.measuresTimings) }
            }
            let plain = ApiProvider<TestApi>(baseUrl: server.baseUrl, transport: transport)
            #expect(await plain.rawDataResponse(on: .echo(path: "a")).failure == nil)
            let logged = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [TracingPlugin(tracer: W3CTracer())],
                transport: transport
            )
            #expect(await logged.rawDataResponse(on: .echo(path: "a")).failure == nil)
            #expect(asked.withLock { $0 } == [false, true])
        }
    }
}

/// A transport that tells what options each request came with, then sends it over another.
private struct OptionsRecorder: Transport {
    let inner: any Transport
    let record: @Sendable (TransportOptions) -> Void

    init(_ inner: any Transport, record: @escaping @Sendable (TransportOptions) -> Void) {
        self.inner = inner
        self.record = record
    }

    func send(
        _ request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        record(options)
        return inner.send(request, options: options, completion: completion)
    }
}
