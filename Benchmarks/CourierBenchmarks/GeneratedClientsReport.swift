#if AsyncHTTPClient && OpenAPI
import Foundation

/// A generated client's call over each transport it can have, each in a process of its own, taking turns: Courier
/// over each of its transports beside the OpenAPI project's transport for the same HTTP client.
enum GeneratedClientsReport {
    static func run(duration: Duration) throws {
        let (server, port) = try Measure.startServer()
        defer { server.terminate() }
        let passes = Versus.passes
        let transports = GeneratedClients.Transport.allCases
        print("## A generated client's call, 1 KB JSON decoded, by transport (medians of \(passes) passes)\n")
        print(
            "| in flight | transport | requests/s | CPU µs per request | Courier / OpenAPI's, rate | Courier − OpenAPI's, CPU µs |"
        )
        print("| --- | --- | --- | --- | --- | --- |")
        for concurrency in [1, 16, 64] {
            let byPass = try Versus.takingTurns(
                mode: "openapi-flight",
                clients: transports.count,
                port: port,
                concurrency: concurrency,
                duration: duration
            )
            func median(_ value: ([Int: Versus.Figure]) -> Double) -> Double { Report.median(byPass.map(value)) }
            for (index, transport) in transports.enumerated() {
                let rate = median { $0[index]?.rate ?? 0 }
                let cpu = median { $0[index]?.cpu ?? 0 }
                var versus = " | "
                if let baseline = transport.baseline, let other = transports.firstIndex(of: baseline) {
                    versus =
                        Report.ratio(median { ($0[index]?.rate ?? 0) / max($0[other]?.rate ?? 0, 1) }) + " | "
                        + String(format: "%+.1f", median { ($0[index]?.cpu ?? 0) - ($0[other]?.cpu ?? 0) })
                }
                print(
                    "| \(concurrency) | \(transport.rawValue) | \(Report.rate(rate)) | \(String(format: "%.1f", cpu)) | "
                        + versus + " |"
                )
            }
        }
        print("")
        try downloadMemory(port: port)
    }

    /// A streamed download through the generated client, read part by part: how much it grows peak memory.
    private static func downloadMemory(port: Int) throws {
        let bytes = 256 << 20
        print("## A 256 MiB download through a generated client, read as it arrives: peak memory growth\n")
        print("| transport | peak growth, MiB | seconds |")
        print("| --- | --- | --- |")
        for (index, transport) in GeneratedClients.Transport.allCases.enumerated() {
            let (stdout, _) = try Measure.child(["openapi-download", String(index), String(port), String(bytes)])
            // "before <bytes> after <bytes> seconds <s>"
            let fields = stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            let growth = Double((Int(fields[safe: 3] ?? "") ?? 0) - (Int(fields[safe: 1] ?? "") ?? 0)) / 1_048_576
            print(
                "| \(transport.rawValue) | \(String(format: "%.1f", growth)) | "
                    + "\(String(format: "%.2f", Double(fields[safe: 5] ?? "") ?? 0)) |"
            )
        }
        print("")
    }
}
#endif
