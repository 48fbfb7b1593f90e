#if AsyncHTTPClient && OpenAPI
import Foundation

/// Timing, memory and child processes for the benchmark.
enum Measure {
    /// One way of doing the operation measured: plain or `async`.
    enum Variant {
        case sync(() throws -> Void)
        case async(() async throws -> Void)

        func run(_ iterations: Int) async throws {
            switch self {
            case .sync(let operation): for _ in 0..<iterations { try operation() }
            case .async(let operation): for _ in 0..<iterations { try await operation() }
            }
        }
    }

    /// Operations per second of each variant, the best of `rounds` rounds of `iterations` each after a warm-up.
    ///
    /// The variants take turns within each round, so that a slower stretch of a shared machine falls on all of
    /// them instead of on whichever ran then.
    static func opsPerSecond(iterations: Int, rounds: Int = 7, _ variants: [Variant]) async throws -> [Double] {
        for variant in variants { try await variant.run(max(iterations / 10, 1)) }
        var best = Array(repeating: 0.0, count: variants.count)
        for _ in 0..<rounds {
            for (index, variant) in variants.enumerated() {
                let start = ContinuousClock.now
                try await variant.run(iterations)
                best[index] = max(best[index], Double(iterations) / seconds(start.duration(to: .now)))
            }
        }
        return best
    }

    /// What one client did with `concurrency` requests in flight: requests per second, and the CPU time this
    /// process spent per request (all threads), which a busy shared machine disturbs far less than the rate.
    struct Flight {
        var rate: Double
        var cpuMicrosecondsPerRequest: Double
        /// The CPU µs per request of each group of threads (``ThreadCpu``), when asked for.
        var threads: [String: Double] = [:]
    }

    /// Requests per second with `concurrency` requests in flight for `duration`, after a half-second warm-up.
    static func throughput(
        concurrency: Int,
        duration: Duration,
        _ request: @escaping @Sendable () async -> Bool
    ) async -> Flight {
        _ = await run(concurrency: concurrency, for: .milliseconds(500), request)
        let threadsBefore = ThreadCpu.snapshot()
        let cpuBefore = cpuSeconds()
        let (count, elapsed) = await run(concurrency: concurrency, for: duration, request)
        let cpu = cpuSeconds() - cpuBefore
        return Flight(
            rate: Double(count) / seconds(elapsed),
            cpuMicrosecondsPerRequest: cpu * 1e6 / Double(max(count, 1)),
            threads: ThreadCpu.perRequest(from: threadsBefore, to: ThreadCpu.snapshot(), requests: count)
        )
    }

    /// User and system CPU time of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    private static func run(
        concurrency: Int,
        for duration: Duration,
        _ request: @escaping @Sendable () async -> Bool
    ) async -> (Int, Duration) {
        let start = ContinuousClock.now
        let deadline = start + duration
        let count = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var done = 0
                    while ContinuousClock.now < deadline {
                        if await request() { done += 1 }
                    }
                    return done
                }
            }
            return await group.reduce(0, +)
        }
        return (count, start.duration(to: .now))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A field of `/proc/self/status` in bytes, e.g. `VmHWM` (peak resident memory) or `VmRSS`.
    static func procStatus(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kilobytes * 1024
        }
        return 0
    }

    /// Runs this executable with `arguments` and returns what it printed.
    static func child(
        _ arguments: [String],
        environment: [String: String] = [:]
    ) throws
        -> (stdout: String, stderr: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// Starts the loopback server in a child process and returns it with its port.
    /// - Parameter arguments: The server's mode and its arguments.
    static func startServer(_ arguments: [String] = ["serve"]) throws -> (Process, Int) {
        let (process, line) = try startChild(arguments)
        let port = line.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard let port, port > 0 else {
            process.terminate()
            throw BenchmarkError.serverDidNotStart(line)
        }
        return (process, port)
    }

    /// Starts this executable in a child process with `arguments`, and returns it with the first line it printed.
    static func startChild(_ arguments: [String]) throws -> (Process, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var buffer = Data()
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        return (process, String(decoding: buffer, as: UTF8.self))
    }
}

enum BenchmarkError: Error {
    case serverDidNotStart(String)
    case badResponse
}
#endif
