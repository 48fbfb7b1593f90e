#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation

/// The HTTP cache's cost: a fresh hit beside a mocked call, a revalidated hit beside a full fetch over the loopback,
/// and what the directory store adds per entry read and written.
enum CacheBench {
    /// The mocked answers, fresh for an hour.
    static let cachedBehavior = MockingBehavior<BenchApi> { endpoint in
        guard var response = endpoint.mockedResponse else { return nil }
        response.headers["Cache-Control"] = "max-age=3600"
        return response
    }

    /// Mocked, with a cache in memory whose entries are fresh: every call after the first is a hit.
    static let hitProvider = ApiProvider<BenchApi>(
        baseUrl: Mocked.baseUrl,
        mockingBehavior: cachedBehavior,
        cache: HttpCache()
    )

    /// One Courier call through the completion door, answered by the cache.
    static func hitCompletion(_ endpoint: BenchApi, provider: ApiProvider<BenchApi> = hitProvider) {
        switch endpoint {
        case .tiny:
            provider.performRequest(on: endpoint, decodeBodyTo: Bodies.Tiny.self) { result in
                if case .success = result { Mocked.sink.succeeded += 1 }
            }
        case .items:
            provider.performRequest(on: endpoint, decodeBodyTo: [Item].self) { result in
                if case .success = result { Mocked.sink.succeeded += 1 }
            }
        }
    }

    static func report(port: Int, duration: Duration) async throws {
        print("## HTTP cache\n")
        try await mocked()
        try await stores()
        try await revalidation(port: port, duration: duration)
    }

    /// A fresh hit beside the mocked call it saves, through the completion door.
    static func mocked() async throws {
        print("### A fresh hit beside a mocked call (no network), per operation\n")
        print("| body | mocked call | fresh hit | hit / mocked call |")
        print("| --- | --- | --- | --- |")
        for (name, endpoint, iterations) in [
            ("tiny", BenchApi.tiny, 30_000), ("1 KB", .items(size: .oneKilobyte), 6_000),
        ] {
            hitCompletion(endpoint)
            let rates = try await Measure.opsPerSecond(
                iterations: iterations,
                [.sync { Mocked.courierCompletion(endpoint) }, .sync { hitCompletion(endpoint) }]
            )
            print(
                "| \(name) | \(Report.rate(rates[0])) | \(Report.rate(rates[1])) | "
                    + "\(Report.ratio(rates[0] / rates[1])) the time |"
            )
        }
        if let counter = try Report.mallocCounter() {
            let counts = try ["completion", "cache-hit"].map {
                try Report.allocationsPerOperation(counter: counter, variant: $0, size: "1k")
            }
            print(
                "\nHeap allocations per 1 KB call: mocked \(String(format: "%.0f", counts[0])), fresh hit "
                    + "\(String(format: "%.0f", counts[1]))."
            )
        }
        print("")
    }

    /// What a directory adds to a hit (a file read) and to a stored miss (a file written), beside memory.
    static func stores() async throws {
        print("### Directory store beside memory, 1 KB entries, µs per call\n")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let endpoint = BenchApi.items(size: .oneKilobyte)
        let memory = ApiProvider<BenchApi>(baseUrl: Mocked.baseUrl, mockingBehavior: cachedBehavior, cache: HttpCache())
        let onDisk = ApiProvider<BenchApi>(
            baseUrl: Mocked.baseUrl,
            mockingBehavior: cachedBehavior,
            cache: try HttpCache(directory: directory)
        )
        // A miss that stores: each call a URL of its own, by a base URL of its own.
        let counter = Counter()
        func storedMiss(_ provider: ApiProvider<BenchApi>) {
            provider.baseUrl = URL(string: "http://127.0.0.1:8080/\(counter.next())")
            hitCompletion(endpoint, provider: provider)
        }
        hitCompletion(endpoint, provider: memory)
        hitCompletion(endpoint, provider: onDisk)
        let hits = try await Measure.opsPerSecond(
            iterations: 3_000,
            [.sync { hitCompletion(endpoint, provider: memory) }, .sync { hitCompletion(endpoint, provider: onDisk) }]
        )
        let misses = try await Measure.opsPerSecond(
            iterations: 1_000,
            rounds: 3,
            [.sync { storedMiss(memory) }, .sync { storedMiss(onDisk) }]
        )
        let micro = { (rate: Double) in String(format: "%.1f", 1e6 / rate) }
        print("| call | memory | directory | the directory adds |")
        print("| --- | --- | --- | --- |")
        print(
            "| fresh hit (reads the entry) | \(micro(hits[0])) | \(micro(hits[1])) | "
                + "\(String(format: "%.1f", 1e6 / hits[1] - 1e6 / hits[0])) |"
        )
        print(
            "| miss, stored (writes the entry) | \(micro(misses[0])) | \(micro(misses[1])) | "
                + "\(String(format: "%.1f", 1e6 / misses[1] - 1e6 / misses[0])) |"
        )
        print("")
    }

    /// A revalidated hit (`304`, the stored kilobyte decoded) beside a full fetch of it, over AsyncHTTPClient.
    static func revalidation(port: Int, duration: Duration) async throws {
        print("### A revalidated hit beside a full fetch, 1 KB decoded, AsyncHTTPClient over the loopback\n")
        print(
            "| in flight | full fetch, req/s | revalidated, req/s | full fetch, CPU µs/req | revalidated, CPU µs/req |"
        )
        print("| --- | --- | --- | --- | --- |")
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let base = URL(string: "http://127.0.0.1:\(port)")
        let plain = ApiProvider<Validated>(baseUrl: base, transport: AsyncHTTPClientTransport(client: client))
        let cached = ApiProvider<Validated>(
            baseUrl: base,
            transport: AsyncHTTPClientTransport(client: client),
            cache: HttpCache()
        )
        for concurrency in [1, 16] {
            let full = await Measure.throughput(concurrency: concurrency, duration: duration) {
                (try? await plain.response(on: Validated(), decodeBodyTo: [Item].self).get()) != nil
            }
            let revalidated = await Measure.throughput(concurrency: concurrency, duration: duration) {
                (try? await cached.response(on: Validated(), decodeBodyTo: [Item].self).get()) != nil
            }
            print(
                "| \(concurrency) | \(Report.rate(full.rate)) | \(Report.rate(revalidated.rate)) | "
                    + String(
                        format: "%.0f | %.0f |",
                        full.cpuMicrosecondsPerRequest,
                        revalidated.cpuMicrosecondsPerRequest
                    )
            )
        }
        try await client.shutdown()
        print("")
    }

    /// The server's kilobyte with an `ETag` and `no-cache`.
    struct Validated: Endpoint {
        typealias ClientErrorType = EmptyBodyResponse
        var baseUrl: URL { URL(fileURLWithPath: "/") }
        var subpath: String { "validated/1k" }
        var method: HttpMethod { .get }
    }

    final class Counter: @unchecked Sendable {
        private var value = 0
        func next() -> Int {
            value += 1
            return value
        }
    }
}
#endif
