import Foundation

/// This build's loopback clients beside another build's (e.g. the commit before a change), in the same run: the
/// two executables take turns client by client, every other pass in reverse order, so that a slow stretch of a shared
/// machine falls on both.
enum Versus {
    static let passes = 4

    /// One figure of a pass: requests per second and CPU µs per request of a client in one build.
    private struct Figure {
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
    }

    /// The number standing for raw URLSession with a data delegate, which `flight` calls "delegate".
    private static let delegateClient = -1

    /// One client of one build for `duration`, in a process of its own.
    private static func flight(
        _ executable: String,
        client: Int,
        port: Int,
        concurrency: Int,
        duration: Duration
    ) throws -> Figure {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        let name = client == delegateClient ? "delegate" : String(client)
        process.arguments = ["flight", name, String(port), String(concurrency)]
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
