#if AsyncHTTPClient && OpenAPI
import Foundation

/// This build's loopback clients beside another build's (e.g. the commit before a change), in the same run: the
/// two executables take turns client by client, every other pass in reverse order, so that a slow stretch of a shared
/// machine falls on both.
enum Versus {
    static let passes = Int(ProcessInfo.processInfo.environment["COURIER_BENCH_PASSES"] ?? "") ?? 4

    /// One figure of a pass: requests per second and CPU µs per request of a client in one build.
    struct Figure {
        var rate: Double
        var cpu: Double
    }

    static func report(other: String, duration: Duration) throws {
        let (server, port) = try Measure.startServer()
        defer { server.terminate() }
        let builds = [("other", other), ("this", CommandLine.arguments[0])]
        print("## Loopback, 1 KB JSON decoded: this build beside `\(other)` (medians of \(passes) passes)\n")
        print(
            "| in flight | client | requests/s, other | requests/s, this | / raw, other | / raw, this "
                + "| CPU µs, other | CPU µs, this | CPU over raw, other | CPU over raw, this |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for concurrency in [1, 16, 64] {
            var byPass: [[String: Figure]] = []
            for pass in 0..<passes {
                var runs: [(build: String, path: String, client: Int)] = []
                for (build, path) in builds {
                    for client in 0..<Loopback.Client.allCases.count { runs.append((build, path, client)) }
                }
                // The floor over URLSession for a client that sees the body as it arrives: raw, with a data delegate.
                runs.append(("this", CommandLine.arguments[0], Self.delegateClient))
                if !pass.isMultiple(of: 2) { runs.reverse() }
                var figures: [String: Figure] = [:]
                for run in runs {
                    figures["\(run.build) \(run.client)"] = try flight(
                        run.path,
                        client: run.client,
                        port: port,
                        concurrency: concurrency,
                        duration: duration
                    )
                }
                byPass.append(figures)
            }
            func median(_ value: ([String: Figure]) -> Double) -> Double { Report.median(byPass.map(value)) }
            // Courier over each transport, against the raw client of the same transport in the same build.
            for (courier, raw) in [(1, 0), (3, 2)] {
                let name = Loopback.Client.allCases[courier].rawValue
                var cells: [String] = []
                for build in ["other", "this"] {
                    cells.append(Report.rate(median { $0["\(build) \(courier)"]?.rate ?? 0 }))
                }
                for build in ["other", "this"] {
                    cells.append(
                        Report.ratio(
                            median { ($0["\(build) \(courier)"]?.rate ?? 0) / max($0["\(build) \(raw)"]?.rate ?? 0, 1) }
                        )
                    )
                }
                for build in ["other", "this"] {
                    cells.append(String(format: "%.1f", median { $0["\(build) \(courier)"]?.cpu ?? 0 }))
                }
                for build in ["other", "this"] {
                    cells.append(
                        String(
                            format: "%+.1f",
                            median { ($0["\(build) \(courier)"]?.cpu ?? 0) - ($0["\(build) \(raw)"]?.cpu ?? 0) }
                        )
                    )
                }
                print("| \(concurrency) | \(name) | " + cells.joined(separator: " | ") + " |")
            }
            let floor = "this \(Self.delegateClient)"
            print(
                "| \(concurrency) | URLSession with a data delegate (raw) | | "
                    + "\(Report.rate(median { $0[floor]?.rate ?? 0 })) | | "
                    + Report.ratio(median { ($0[floor]?.rate ?? 0) / max($0["this 0"]?.rate ?? 0, 1) })
                    + " | | \(String(format: "%.1f", median { $0[floor]?.cpu ?? 0 })) | | "
                    + String(format: "%+.1f", median { ($0[floor]?.cpu ?? 0) - ($0["this 0"]?.cpu ?? 0) }) + " |"
            )
        }
        print("")
        try bigBody(builds: builds, port: port)
    }

    /// The 1 MB body over URLSession, raw and Courier, in both builds: each a process of its own, taking turns.
    private static func bigBody(builds: [(String, String)], port: Int) throws {
        let runs = 5
        print("## A 1 MB JSON list over URLSession, decoded 100 times per process (medians of \(runs) processes)\n")
        print("| build | raw, s | Courier, s | raw, peak MiB | Courier, peak MiB | Courier / raw, peak |")
        print("| --- | --- | --- | --- | --- | --- |")
        var measured: [String: [(seconds: Double, peak: Double)]] = [:]
        for _ in 0..<runs {
            for (build, path) in builds {
                for variant in ["raw", "courier"] {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: path)
                    process.arguments = ["big", variant, String(port)]
                    let out = Pipe()
                    process.standardOutput = out
                    try process.run()
                    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    // "seconds <s> peak <bytes> ok <count>"
                    let fields = output.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
                    measured["\(build) \(variant)", default: []].append(
                        (Double(fields[safe: 1] ?? "") ?? 0, Double(fields[safe: 3] ?? "") ?? 0)
                    )
                }
            }
        }
        for (build, _) in builds {
            let raw = measured["\(build) raw"] ?? []
            let courier = measured["\(build) courier"] ?? []
            let rawPeak = Report.median(raw.map(\.peak))
            let courierPeak = Report.median(courier.map(\.peak))
            print(
                "| \(build) | \(String(format: "%.2f", Report.median(raw.map(\.seconds)))) "
                    + "| \(String(format: "%.2f", Report.median(courier.map(\.seconds)))) "
                    + "| \(String(format: "%.1f", rawPeak / 1_048_576)) | \(String(format: "%.1f", courierPeak / 1_048_576)) "
                    + "| \(Report.ratio(courierPeak / max(rawPeak, 1))) |"
            )
        }
        print("")
    }

    /// The number standing for raw URLSession with a data delegate, which `flight` calls "delegate".
    private static let delegateClient = -1

    /// One client of one build for `duration`, in a process of its own: the mode `mode` (`flight`, or another that
    /// prints the same line) of `executable`.
    /// Every client of a table (0 up to `count`) alone in a child process of this executable's `mode`, taking
    /// turns, for ``passes`` passes, the order reversed every other pass: each pass's figures by client number.
    static func takingTurns(
        mode: String,
        clients count: Int,
        port: Int,
        concurrency: Int,
        duration: Duration
    ) throws -> [[Int: Figure]] {
        var byPass: [[Int: Figure]] = []
        for pass in 0..<passes {
            var order = Array(0..<count)
            if !pass.isMultiple(of: 2) { order.reverse() }
            var figures: [Int: Figure] = [:]
            for index in order {
                figures[index] = try flight(
                    CommandLine.arguments[0],
                    mode: mode,
                    client: index,
                    port: port,
                    concurrency: concurrency,
                    duration: duration
                )
            }
            byPass.append(figures)
        }
        return byPass
    }

    static func flight(
        _ executable: String,
        mode: String = "flight",
        client: Int,
        port: Int,
        concurrency: Int,
        duration: Duration
    ) throws -> Figure {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        let name = client == delegateClient ? "delegate" : String(client)
        process.arguments = [mode, name, String(port), String(concurrency)]
        var environment = ProcessInfo.processInfo.environment
        environment["COURIER_BENCH_SECONDS"] = String(Int(Measure.seconds(duration)))
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "<client>: <rate>/s, <cpu> µs CPU per request"; a rate of 10,000 or more is printed as "<n> k/s".
        let words = output.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let cpuIndex = words.firstIndex(of: "µs"), cpuIndex >= 1, let cpu = Double(words[cpuIndex - 1]) else {
            throw BenchmarkError.badResponse
        }
        let rateWord = words.first { $0.hasSuffix("/s,") }.map { $0.dropLast(3) } ?? ""
        let thousands = rateWord == "k"
        let rateText = thousands ? words[(words.firstIndex { $0.hasSuffix("/s,") } ?? 1) - 1] : Substring(rateWord)
        guard let rate = Double(rateText) else { throw BenchmarkError.badResponse }
        return Figure(rate: thousands ? rate * 1000 : rate, cpu: cpu)
    }
}
#endif
