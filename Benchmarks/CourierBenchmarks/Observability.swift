import AsyncHTTPClient
import CoreMetrics
import Courier
import CourierAsyncHTTPClient
import Foundation
import Tracing

/// What `MetricsPlugin` and `TracingPlugin` cost, with backends that drop everything, beside the same provider
/// without them: the cost is Courier's own, not a backend's.
enum Observability {
    static func plugins<EndpointType: Endpoint>() -> [Plugin<EndpointType>] {
        [MetricsPlugin(factory: NOOPMetricsHandler.instance), TracingPlugin(tracer: NoOpTracer())]
    }

    static let mockedOn = ApiProvider<BenchApi>(
        baseUrl: Mocked.baseUrl,
        plugins: plugins(),
        mockingBehavior: MockingBehavior()
    )

    /// One call through the completion door of a mocked provider with the observing plugins.
    static func mockedCompletion(_ endpoint: BenchApi) {
        mockedOn.performRequest(on: endpoint, decodeBodyTo: [Item].self) { result in
            if case .success = result { Mocked.sink.succeeded += 1 }
        }
    }

    /// One request for `/items/1k` over `transport`, decoded, with or without the observing plugins.
    static func request(
        over transport: any Transport,
        port: Int,
        observed: Bool
    ) -> @Sendable () async -> Bool {
        let provider = ApiProvider<BenchApi>(
            baseUrl: URL(string: "http://127.0.0.1:\(port)")!,
            plugins: observed ? plugins() : [],
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
        print("| pipeline | off | on | on / off |")
        print("| --- | --- | --- | --- |")
        let endpoint = BenchApi.items(size: .oneKilobyte)
        let rates = try await Measure.opsPerSecond(
            iterations: 6_000,
            [.sync { Mocked.courierCompletion(endpoint) }, .sync { Observability.mockedCompletion(endpoint) }]
        )
        print("| mocked, 1 KB, completion door | \(rate(rates[0])) | \(rate(rates[1])) | \(ratio(rates[1] / rates[0])) |")

        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = httpClient.shutdown() }
        let transports: [(String, any Transport)] = [
            ("URLSession", URLSessionTransport()), ("AsyncHTTPClient", AsyncHTTPClientTransport(client: httpClient)),
        ]
        var cpuRows: [String] = []
        for (name, transport) in transports {
            var offRates: [Double] = []
            var onRates: [Double] = []
            var ratios: [Double] = []
            var cpu: (off: [Double], on: [Double]) = ([], [])
            for pass in 0..<loopbackPasses {
                // Every other pass in reverse order: a slower stretch of the machine falls on both.
                let order = pass.isMultiple(of: 2) ? [false, true] : [true, false]
                var flights: [Bool: Measure.Flight] = [:]
                for observed in order {
                    let operation = Observability.request(over: transport, port: port, observed: observed)
                    flights[observed] = await Measure.throughput(concurrency: 16, duration: duration, operation)
                }
                let (off, on) = (flights[false]?.rate ?? 0, flights[true]?.rate ?? 0)
                offRates.append(off)
                onRates.append(on)
                ratios.append(on / max(off, 1))
                cpu.off.append(flights[false]?.cpuMicrosecondsPerRequest ?? 0)
                cpu.on.append(flights[true]?.cpuMicrosecondsPerRequest ?? 0)
            }
            print(
                "| over \(name), 16 in flight | \(rate(median(offRates))) | \(rate(median(onRates))) | "
                    + "\(ratio(median(ratios))) |"
            )
            cpuRows.append(
                "| over \(name) | " + String(format: "%.1f | %.1f |", median(cpu.off), median(cpu.on))
            )
        }
        print("\nCPU time of the client process per request at 16 in flight, µs (medians):\n")
        print("| transport | off | on |")
        print("| --- | --- | --- |")
        for row in cpuRows { print(row) }
        print("")
    }
}
