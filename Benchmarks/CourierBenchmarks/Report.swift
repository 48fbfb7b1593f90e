import AsyncHTTPClient
import Foundation

/// Runs every measurement and prints the tables the README shows, each figure next to its baseline and target.
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
        try bigBody(port: port)
        try soak(port: port)
        print("\nRatios at a glance: \(flights)")
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

    /// The allocation counter, compiled from its source beside this benchmark, or `nil` without a C compiler.
    static func mallocCounter() throws -> String? {
        guard let gcc = which("gcc") else { return nil }
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

    static func loopback(port: Int, duration: Duration) async throws -> String {
        print(
            "## Loopback throughput, 1 KB JSON decoded, requests/s (best of two \(Measure.seconds(duration)) s runs)\n"
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
            // Two passes in opposite orders, the best of each kept, so that neither a client measured first nor
            // one measured last is favoured by what the machine was doing.
            var rates: [Loopback.Client: Double] = [:]
            var cpu: [Loopback.Client: Double] = [:]
            for pass in [Loopback.Client.allCases, Loopback.Client.allCases.reversed()] {
                for client in pass {
                    let operation = Loopback.request(client, port: port, httpClient: httpClient)
                    let measured = await Measure.throughput(concurrency: concurrency, duration: duration, operation)
                    rates[client] = max(rates[client] ?? 0, measured.rate)
                    cpu[client] = min(cpu[client] ?? .infinity, measured.cpuMicrosecondsPerRequest)
                }
            }
            cpuRows.append((concurrency, cpu))
            let rawSession = rates[.rawUrlSession] ?? 0
            let courierSession = rates[.courierUrlSession] ?? 0
            let rawClient = rates[.rawAsyncHttpClient] ?? 0
            let courierClient = rates[.courierAsyncHttpClient] ?? 0
            print(
                "| \(concurrency) | \(rate(rawSession)) | \(rate(courierSession)) | \(ratio(courierSession / rawSession)) "
                    + "| \(rate(rawClient)) | \(rate(courierClient)) | \(ratio(courierClient / rawClient)) "
                    + "| \(ratio(courierClient / courierSession)) |"
            )
            summary.append(
                "\(concurrency): URLSession \(ratio(courierSession / rawSession)), AHC \(ratio(courierClient / rawClient))"
            )
        }
        try await httpClient.shutdown()
        print("\nCPU time of the client process per request, µs (the lower of the two runs; the server runs apart):\n")
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

    // MARK: Memory

    static func bigBody(port: Int) throws {
        print("## A 1 MB JSON list fetched over URLSession and decoded 100 times, each in a process of its own\n")
        print("| client | seconds | peak resident memory |")
        print("| --- | --- | --- |")
        for variant in ["raw", "courier"] {
            let (stdout, _) = try Measure.child(["big", variant, String(port)])
            let fields = stdout.split(separator: " ").map(String.init)
            let seconds = Double(fields[safe: 1] ?? "") ?? 0
            let peak = Int(fields[safe: 3] ?? "") ?? 0
            print(
                "| \(variant == "raw" ? "URLSession data(for:) + JSONDecoder" : "Courier") "
                    + "| \(String(format: "%.2f", seconds)) | \(peak >> 20) MiB |"
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
