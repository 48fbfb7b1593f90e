#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import CoreMetrics
import Courier
import CourierAsyncHTTPClient
import Foundation
import Tracing

/// What plugins cost, with backends that drop everything, beside the same provider without them, mocked and over
/// each transport: a plugin of the app's own that overrides nothing and says so (`implementedHooks: []`), one that
/// does not say (every hook runs, as for a Microya-style subclass), and `MetricsPlugin` with `TracingPlugin`. The
/// cost is Courier's own, not a backend's.
enum Observability {
    /// The plugins of each column.
    enum Setup: CaseIterable {
        case off
        case quietPlugin
        case everyHook
        case observed

        func plugins<EndpointType: Endpoint>() -> [Plugin<EndpointType>] {
            switch self {
            case .off: []
            case .quietPlugin: [QuietPlugin()]
            case .everyHook: [UndeclaredPlugin()]
            case .observed: [MetricsPlugin(factory: NOOPMetricsHandler.instance), TracingPlugin(tracer: NoOpTracer())]
            }
        }
    }

    /// A plugin that overrides nothing and says it has no hooks beyond the two that always run.
    final class QuietPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
        override var implementedHooks: PluginHooks { [] }
    }

    /// A plugin that overrides nothing and does not say so: the pipeline runs every hook.
    final class UndeclaredPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {}

    static let mocked: [Setup: ApiProvider<BenchApi>] = Dictionary(
        uniqueKeysWithValues: [Setup.quietPlugin, .everyHook, .observed].map { setup in
            (
                setup,
                ApiProvider<BenchApi>(
                    baseUrl: Mocked.baseUrl,
                    plugins: setup.plugins(),
                    mockingBehavior: MockingBehavior()
                )
            )
        }
    )

    /// One call through the completion door of a mocked provider with the plugins of `setup` (not `.off`).
    static func mockedCompletion(_ endpoint: BenchApi, setup: Setup = .observed) {
        mocked[setup]?.performRequest(on: endpoint, decodeBodyTo: [Item].self) {
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
        let columns = "| off | plugin, `implementedHooks: []` | plugin, every hook | metrics + tracing |"
        print("## Plugins (no-op backends) beside none\n")
        print("| pipeline \(columns) metrics + tracing / off |")
        print("| --- | --- | --- | --- | --- | --- |")
        let endpoint = BenchApi.items(size: .oneKilobyte)
        let rates = try await Measure.opsPerSecond(
            iterations: 6_000,
            [
                .sync { Mocked.courierCompletion(endpoint) },
                .sync { Observability.mockedCompletion(endpoint, setup: .quietPlugin) },
                .sync { Observability.mockedCompletion(endpoint, setup: .everyHook) },
                .sync { Observability.mockedCompletion(endpoint) },
            ]
        )
        print(
            "| mocked, 1 KB, completion door | " + rates.map(rate).joined(separator: " | ")
                + " | \(ratio(rates[3] / rates[0])) |"
        )

        if let counter = try mallocCounter() {
            let counts = try ["completion", "plugin", "every-hook", "observed"].map {
                try allocationsPerOperation(counter: counter, variant: $0, size: "1k")
            }
            print(
                "| heap allocations per mocked call, 1 KB | "
                    + counts.map { String(format: "%.0f", $0) }.joined(separator: " | ")
                    + String(format: " | %+.0f |", counts[3] - counts[0])
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
            // The added CPU per request is taken pass by pass, beside the same pass's provider without plugins.
            func cpuOverOff(_ setup: Observability.Setup) -> Double {
                median(
                    passes.map {
                        ($0[setup]?.cpuMicrosecondsPerRequest ?? 0) - ($0[.off]?.cpuMicrosecondsPerRequest ?? 0)
                    }
                )
            }
            print(
                "| over \(name), 16 in flight | "
                    + Observability.Setup.allCases.map { rate(rateOf($0)) }.joined(separator: " | ")
                    + " | \(ratio(ratioOf(.observed, to: .off))) |"
            )
            let off = median(passes.map { $0[.off]?.cpuMicrosecondsPerRequest ?? 0 })
            cpuRows.append(
                "| over \(name) | "
                    + String(
                        format: "%.1f | %+.1f | %+.1f | %+.1f |",
                        off,
                        cpuOverOff(.quietPlugin),
                        cpuOverOff(.everyHook),
                        cpuOverOff(.observed)
                    )
            )
        }
        print(
            "\nCPU time of the client process per request at 16 in flight, µs, and what each setup adds to it (medians"
        )
        print("of the passes' differences):\n")
        print("| transport \(columns)")
        print("| --- | --- | --- | --- | --- |")
        for row in cpuRows { print(row) }
        print("")
    }
}
#endif
