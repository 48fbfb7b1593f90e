#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Foundation

/// Runs every measurement and prints the tables Benchmarks/README.md shows, each figure next to its baseline and target.
enum Report {
    static func run(flightDuration: Duration) async throws {
        print("# Courier benchmarks\n")
        print(
            "Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, "
                + "\(ProcessInfo.processInfo.physicalMemory >> 30) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)\n"
        )
        try await mocked()
        let (server, port) = try Measure.startServer()
        defer { server.terminate() }
        let flights = try await loopback(port: port, duration: flightDuration)
        try await observability(port: port, duration: flightDuration)
        try bigBody(port: port)
        try soak(port: port)
        try await transfers(port: port)
        let https = try await Https.report(duration: flightDuration)
        print("\nRatios at a glance: \(flights); HTTPS over AsyncHTTPClient: \(https)")
    }

    // MARK: Mocked pipeline

    static func mocked() async throws {
        print("## Mocked pipeline (no network), per operation\n")
        print("| body | hand-written baseline | Courier, completion | Courier, async | completion / baseline |")
        print("| --- | --- | --- | --- | --- |")
        for (name, endpoint, iterations) in [
            ("tiny", BenchApi.tiny, 30_000), ("1 KB", .items(size: .oneKilobyte), 6_000),
        ] {
            let rates = try await Measure.opsPerSecond(
                iterations: iterations,
                [
                    .sync { try Mocked.baseline(endpoint) },
                    .sync { Mocked.courierCompletion(endpoint) },
                    .async { await Mocked.courierAsync(endpoint) },
                ]
            )
            let (baseline, completion, async) = (rates[0], rates[1], rates[2])
            print(
                "| \(name) | \(rate(baseline)) | \(rate(completion)) | \(rate(async)) | "
                    + "\(ratio(baseline / completion)) the time |"
            )
        }
        guard let counter = try mallocCounter() else {
            print("\n(gcc not found: no allocation counts)\n")
            return
        }
        print("\nHeap allocations per operation (the difference between 1,200 and 200 operations, counted by ")
        print("`Benchmarks/malloc-counter.c` loaded with `LD_PRELOAD`):\n")
        print("| body | hand-written baseline | Courier, completion | Courier, async |")
        print("| --- | --- | --- | --- |")
        for size in ["tiny", "1k"] {
            let counts = try ["baseline", "completion", "async"].map {
                try allocationsPerOperation(counter: counter, variant: $0, size: size)
            }
            print("| \(size) | " + counts.map { String(format: "%.0f", $0) }.joined(separator: " | ") + " |")
        }
        print("")
    }

    /// The allocation counter, compiled from its source beside this benchmark, or `nil` without a C compiler (gcc,
    /// or the clang that comes with the Swift toolchain).
    static func mallocCounter() throws -> String? {
        guard let gcc = which("gcc") ?? which("cc") ?? toolchainClang() else { return nil }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("malloc-counter.c")
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("courier-malloc-counter.so")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gcc)
        process.arguments = ["-shared", "-fPIC", "-O2", "-o", library.path, source.path]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? library.path : nil
    }

    static func allocationsPerOperation(counter: String, variant: String, size: String) throws -> Double {
        func count(_ iterations: Int) throws -> Double {
            let (_, stderr) = try Measure.child(
                ["count", variant, size, String(iterations)],
                environment: ["LD_PRELOAD": counter]
            )
            let line = stderr.split(separator: "\n").last { $0.hasPrefix("allocations ") } ?? ""
            return Double(line.dropFirst("allocations ".count)) ?? 0
        }
        return (try count(1_200) - count(200)) / 1_000
    }

    // MARK: Loopback

    /// Passes over the four clients per number in flight; an even number, half of them in reverse order.
    static let loopbackPasses = 4

    static func loopback(port: Int, duration: Duration) async throws -> String {
        print(
            "## Loopback throughput, 1 KB JSON decoded, requests/s (medians of \(loopbackPasses) runs of "
                + "\(Measure.seconds(duration)) s; each ratio is the median of the ratios within a pass)\n"
        )
        print(
            "| in flight | URLSession data(for:) | Courier over URLSession | ratio | AsyncHTTPClient | "
                + "Courier over AsyncHTTPClient | ratio | Courier AHC / Courier URLSession |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        var summary: [String] = []
        var cpuRows: [(Int, [Loopback.Client: Double])] = []
        for concurrency in [1, 16, 64] {
            // The clients take turns within each pass, every other pass in reverse order, and each ratio compares
            // runs of the same pass: a slow stretch of a shared machine then falls on both sides of a ratio
            // instead of on whichever client ran during it.
            var passes: [[Loopback.Client: Measure.Flight]] = []
            for pass in 0..<loopbackPasses {
                let order = pass.isMultiple(of: 2) ? Loopback.Client.allCases : Loopback.Client.allCases.reversed()
                var flights: [Loopback.Client: Measure.Flight] = [:]
                for client in order {
                    let operation = Loopback.request(client, port: port, httpClient: httpClient)
                    flights[client] = await Measure.throughput(concurrency: concurrency, duration: duration, operation)
                }
                passes.append(flights)
            }
            func rateOf(_ client: Loopback.Client) -> Double { median(passes.map { $0[client]?.rate ?? 0 }) }
            func ratioOf(_ client: Loopback.Client, to baseline: Loopback.Client) -> Double {
                median(passes.map { ($0[client]?.rate ?? 0) / max($0[baseline]?.rate ?? 0, 1) })
            }
            var cpu: [Loopback.Client: Double] = [:]
            for client in Loopback.Client.allCases {
                cpu[client] = median(passes.map { $0[client]?.cpuMicrosecondsPerRequest ?? 0 })
            }
            cpuRows.append((concurrency, cpu))
            let sessionRatio = ratioOf(.courierUrlSession, to: .rawUrlSession)
            let clientRatio = ratioOf(.courierAsyncHttpClient, to: .rawAsyncHttpClient)
            print(
                "| \(concurrency) | \(rate(rateOf(.rawUrlSession))) | \(rate(rateOf(.courierUrlSession))) "
                    + "| \(ratio(sessionRatio)) | \(rate(rateOf(.rawAsyncHttpClient))) "
                    + "| \(rate(rateOf(.courierAsyncHttpClient))) | \(ratio(clientRatio)) "
                    + "| \(ratio(ratioOf(.courierAsyncHttpClient, to: .courierUrlSession))) |"
            )
            summary.append("\(concurrency): URLSession \(ratio(sessionRatio)), AHC \(ratio(clientRatio))")
        }
        try await httpClient.shutdown()
        print("\nCPU time of the client process per request, µs (medians; the server runs apart):\n")
        print(
            "| in flight | URLSession data(for:) | Courier over URLSession | AsyncHTTPClient | Courier over AsyncHTTPClient |"
        )
        print("| --- | --- | --- | --- | --- |")
        for (concurrency, cpu) in cpuRows {
            let cells = Loopback.Client.allCases.map { String(format: "%.1f", cpu[$0] ?? 0) }
            print("| \(concurrency) | " + cells.joined(separator: " | ") + " |")
        }
        print("")
        return summary.joined(separator: "; ")
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    // MARK: Memory

    /// Runs of each client for the 1 MB body, taking turns; the medians are shown.
    static let bigBodyRuns = 5

    static func bigBody(port: Int) throws {
        print(
            "## A 1 MB JSON list fetched over URLSession and decoded 100 times, each in a process of its own "
                + "(medians of \(bigBodyRuns) runs)\n"
        )
        print("| client | seconds | peak resident memory |")
        print("| --- | --- | --- |")
        var measured: [String: [(seconds: Double, peak: Double)]] = [:]
        for _ in 0..<bigBodyRuns {
            for variant in ["raw", "courier"] {
                let (stdout, _) = try Measure.child(["big", variant, String(port)])
                let fields = stdout.split(separator: " ").map(String.init)
                let seconds = Double(fields[safe: 1] ?? "") ?? 0
                let peak = Double(fields[safe: 3] ?? "") ?? 0
                measured[variant, default: []].append((seconds, peak))
            }
        }
        for variant in ["raw", "courier"] {
            let runs = measured[variant] ?? []
            let peak = median(runs.map(\.peak))
            print(
                "| \(variant == "raw" ? "URLSession data(for:) + JSONDecoder" : "Courier") "
                    + "| \(String(format: "%.2f", median(runs.map(\.seconds)))) "
                    + "| \(String(format: "%.1f", peak / 1_048_576)) MiB |"
            )
        }
        print("")
    }

    static func soak(port: Int) throws {
        let (stdout, _) = try Measure.child(["soak", String(port), "150000"])
        let fields = stdout.split(separator: " ").map(String.init)
        let before = Int(fields[safe: 1] ?? "") ?? 0
        let after = Int(fields[safe: 3] ?? "") ?? 0
        print("## 150,000 requests over the AsyncHTTPClient transport, 16 in flight\n")
        print(
            "Resident memory after a 10,000-request warm-up: \(before >> 20) MiB; after 150,000 more: "
                + "\(after >> 20) MiB; growth \(String(format: "%.1f", Double(after - before) / 1_048_576)) MiB.\n"
        )
    }

    // MARK: Formatting

    static func rate(_ value: Double) -> String {
        value >= 10_000 ? "\(Int(value / 1000)) k/s" : "\(Int(value))/s"
    }

    static func ratio(_ value: Double) -> String {
        String(format: "%.2f×", value)
    }

    /// The clang beside the `swift` that runs this, e.g. `/opt/swift/usr/bin/clang`.
    static func toolchainClang() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(directory)/swift") {
            let clang = "\(directory)/clang"
            if FileManager.default.isExecutableFile(atPath: clang) { return clang }
        }
        return nil
    }

    static func which(_ tool: String) -> String? {
        for directory in ["/usr/bin", "/usr/local/bin", "/bin"] {
            let path = directory + "/" + tool
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}

extension Report {
    static let transferBytes = 256 << 20
    static let transferRuns = 3

    /// - Parameter transport: Only the clients of one library ("urlSession", "asyncHTTPClient" or "curl"), without
    ///   the downloads' memory, or `nil` for all of it.
    static func transfers(port: Int, transport: String? = nil) async throws {
        print(
            "## Streaming a large body, MB/s (\(transferBytes >> 20) MiB, medians of \(transferRuns) runs taking turns)\n"
        )
        let clients = Transfers.Client.allCases.filter { transport == nil || $0.transport == transport }
        let rates = try await Transfers.throughput(of: clients, bytes: transferBytes, port: port, runs: transferRuns)
        print("| client | MB/s | / raw client | / raw client writing to a file |")
        print("| --- | --- | --- | --- |")
        for client in clients {
            let rate = rates[client] ?? 0
            let toFile = client.rawWritingToFile.map { ratio(rate / max(rates[$0] ?? 1, 1)) } ?? ""
            print(
                "| \(client.rawValue) | \(String(format: "%.0f", rate)) | "
                    + "\(ratio(rate / max(rates[client.raw] ?? 1, 1))) | \(toFile) |"
            )
        }
        print("")
        if transport == nil { _ = try downloadMemory(port: port, bytes: 1 << 30) }
    }

    /// A 1 GB download to a file on each transport, each in a process of its own, beside raw URLSession reading the
    /// same body into nothing: the growth of peak memory, and whether it is under 32 MB with progress rising to the
    /// size.
    ///
    /// - Returns: Whether the guard holds: under 32 MB over AsyncHTTPClient, which reads only as fast as the file is
    ///   written; under half the size over URLSession, which cannot be paused (the body never sits in memory
    ///   whole, but what the disk has not taken yet does).
    static func downloadMemory(port: Int, bytes: Int) throws -> Bool {
        print("## Downloading \(bytes >> 20) MiB to a file: peak resident memory (a process per transport)\n")
        print("| transport | peak before | peak after | growth | seconds | progress reports | met (< 32 MB) |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        var guardHolds = true
        for transport in ["raw URLSession, no file", "urlSession", "asyncHTTPClient", "curl"] {
            let raw = transport.hasPrefix("raw")
            let (output, _) = try Measure.child(
                ["download-memory", raw ? "urlSession" : transport, String(port), String(bytes)],
                environment: raw ? ["COURIER_BENCH_RAW": "1"] : [:]
            )
            let fields = output.split(whereSeparator: \.isWhitespace).map(String.init)
            func value(_ name: String) -> String { fields.firstIndex(of: name).flatMap { fields[safe: $0 + 1] } ?? "" }
            let before = Int(value("before")) ?? 0
            let after = Int(value("after")) ?? 0
            let progress = fields.firstIndex(of: "progress").map { Array(fields[($0 + 1)...]) } ?? []
            let reports = progress.first ?? "?"
            let last = progress.count > 1 ? Int(progress[1]) ?? 0 : 0
            let whole = last == bytes && (raw || value("monotone") == "true")
            let met = after > 0 && after - before < 32 << 20 && whole
            if !raw {
                let bound = transport == "urlSession" ? bytes / 2 : 32 << 20
                guardHolds = guardHolds && after > 0 && after - before < bound && whole
            }
            print(
                "| \(transport) | \(mebibytes(before)) | \(mebibytes(after)) | \(mebibytes(after - before)) | "
                    + "\(String(format: "%.1f", Double(value("seconds")) ?? 0)) | "
                    + "\(raw ? "none" : "\(reports), last \(last)") | \(met ? "yes" : "no") |"
            )
        }
        print("")
        return guardHolds
    }

    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}
#endif
