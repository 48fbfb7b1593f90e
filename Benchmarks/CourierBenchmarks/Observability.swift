#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import CoreMetrics
import Courier
import CourierAsyncHTTPClient
import Foundation
import Tracing

/// What `MetricsPlugin` and `TracingPlugin` cost, with backends that drop everything, beside the same provider
/// without them and with one plugin that does nothing, mocked and over each transport: the cost is Courier's own, not a backend's, and the second
/// column tells what any plugin costs (its hooks run as tasks) from what observing adds.
enum Observability {
    /// The plugins of each column.
    enum Setup: CaseIterable {
        case off
        case emptyPlugin
        case observed

        func plugins<EndpointType: Endpoint>() -> [Plugin<EndpointType>] {
            switch self {
            case .off: []
            case .emptyPlugin: [Plugin()]
            case .observed: [MetricsPlugin(factory: NOOPMetricsHandler.instance), TracingPlugin(tracer: NoOpTracer())]
            }
        }
    }

    static let mockedEmptyPlugin = ApiProvider<BenchApi>(
        baseUrl: Mocked.baseUrl,
        plugins: Setup.emptyPlugin.plugins(),
        mockingBehavior: MockingBehavior()
    )

    static let mockedObserved = ApiProvider<BenchApi>(
        baseUrl: Mocked.baseUrl,
        plugins: Setup.observed.plugins(),
        mockingBehavior: MockingBehavior()
    )

    /// One call through the completion door of a mocked provider with the observing plugins (or the empty one).
    static func mockedCompletion(_ endpoint: BenchApi, observed: Bool = true) {
        (observed ? mockedObserved : mockedEmptyPlugin).performRequest(on: endpoint, decodeBodyTo: [Item].self) {
            if case .success = $0 { Mocked.sink.succeeded += 1 }
        }
    }

    /// One request for `/items/1k` over `transport`, decoded, with the plugins of `setup`.
    static func request(
        over transport: any Transport,
        port: Int,
        setup: Setup
    ) -> @Sendable () async -> Bool {
        let provider = ApiProvider<BenchApi>(
            baseUrl: URL(string: "http://127.0.0.1:\(port)")!,
            plugins: setup.plugins(),
            transport: transport
        )
        return {
            (try? await provider.response(on: .items(size: .oneKilobyte), decodeBodyTo: [Item].self).get()) != nil
        }
    }
}

extension Report {
    static func observability(port: Int, duration: Duration) async throws {
        print("## Metrics and tracing plugins on (no-op backends) beside off\n")
        print("| pipeline | off | one empty plugin | metrics + tracing | on / off | on / empty plugin |")
        print("| --- | --- | --- | --- | --- | --- |")
        let endpoint = BenchApi.items(size: .oneKilobyte)
        let rates = try await Measure.opsPerSecond(
            iterations: 6_000,
            [
                .sync { Mocked.courierCompletion(endpoint) },
                .sync { Observability.mockedCompletion(endpoint, observed: false) },
                .sync { Observability.mockedCompletion(endpoint) },
            ]
        )
        print(
            "| mocked, 1 KB, completion door | \(rate(rates[0])) | \(rate(rates[1])) | \(rate(rates[2])) | "
                + "\(ratio(rates[2] / rates[0])) | \(ratio(rates[2] / rates[1])) |"
        )

        if let counter = try mallocCounter() {
            let counts = try ["completion", "plugin", "observed"].map {
                try allocationsPerOperation(counter: counter, variant: $0, size: "1k")
            }
            print(
                "| heap allocations per mocked call, 1 KB | "
                    + counts.map { String(format: "%.0f", $0) }.joined(separator: " | ")
                    + String(format: " | %+.0f | %+.0f |", counts[2] - counts[0], counts[2] - counts[1])
            )
        }

        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = httpClient.shutdown() }
        let transports: [(String, any Transport)] = [
            ("URLSession", URLSessionTransport()), ("AsyncHTTPClient", AsyncHTTPClientTransport(client: httpClient)),
            ("libcurl", CurlTransport()),
        ]
        var cpuRows: [String] = []
        for (name, transport) in transports {
            var passes: [[Observability.Setup: Measure.Flight]] = []
            for pass in 0..<loopbackPasses {
                // Every other pass in reverse order: a slower stretch of the machine falls on every column.
                let order =
                    pass.isMultiple(of: 2) ? Observability.Setup.allCases : Observability.Setup.allCases.reversed()
                var flights: [Observability.Setup: Measure.Flight] = [:]
                for setup in order {
                    let operation = Observability.request(over: transport, port: port, setup: setup)
                    flights[setup] = await Measure.throughput(concurrency: 16, duration: duration, operation)
                }
                passes.append(flights)
            }
            func rateOf(_ setup: Observability.Setup) -> Double { median(passes.map { $0[setup]?.rate ?? 0 }) }
            func ratioOf(_ setup: Observability.Setup, to baseline: Observability.Setup) -> Double {
                median(passes.map { ($0[setup]?.rate ?? 0) / max($0[baseline]?.rate ?? 0, 1) })
            }
            func cpuOf(_ setup: Observability.Setup) -> Double {
                median(passes.map { $0[setup]?.cpuMicrosecondsPerRequest ?? 0 })
            }
            print(
                "| over \(name), 16 in flight | \(rate(rateOf(.off))) | \(rate(rateOf(.emptyPlugin))) | "
                    + "\(rate(rateOf(.observed))) | \(ratio(ratioOf(.observed, to: .off))) | "
                    + "\(ratio(ratioOf(.observed, to: .emptyPlugin))) |"
            )
            cpuRows.append(
                "| over \(name) | "
                    + String(format: "%.1f | %.1f | %.1f |", cpuOf(.off), cpuOf(.emptyPlugin), cpuOf(.observed))
            )
        }
        print("\nCPU time of the client process per request at 16 in flight, µs (medians):\n")
        print("| transport | off | one empty plugin | metrics + tracing |")
        print("| --- | --- | --- | --- |")
        for row in cpuRows { print(row) }
        print("")
    }
}
#endif
