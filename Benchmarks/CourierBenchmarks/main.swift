import AsyncHTTPClient
import Courier
import Foundation

// Courier's benchmarks, side by side with their baselines in the same run. Release builds only:
//     swift run -c release CourierBenchmarks
// Modes other than the default are this program's own child processes.

let arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.first ?? "all"
let flightDuration = Duration.seconds(Int(ProcessInfo.processInfo.environment["COURIER_BENCH_SECONDS"] ?? "") ?? 3)

switch mode {
case "serve":
    try await BenchServer.run()

case "mocked":
    // The mocked pipeline's table alone.
    try await Report.mocked()

case "observability":
    // observability: the metrics and tracing plugins on beside off, mocked and over both transports.
    let (server, port) = try Measure.startServer()
    defer { server.terminate() }
    try await Report.observability(port: port, duration: flightDuration)

case "flight":
    // flight <client number, 0-3> <port> <in flight>: one client of the loopback table alone, for profiling.
    let client = Loopback.Client.allCases[min(max(Int(arguments[1]) ?? 0, 0), 3)]
    let operation = Loopback.request(client, port: Int(arguments[2]) ?? 0, httpClient: .shared)
    let flight = await Measure.throughput(concurrency: Int(arguments[3]) ?? 16, duration: flightDuration, operation)
    print(
        "\(client.rawValue): \(Report.rate(flight.rate)), "
            + "\(String(format: "%.1f", flight.cpuMicrosecondsPerRequest)) µs CPU per request"
    )

case "count":
    // count <baseline|completion|plugin|observed|async> <tiny|1k> <iterations>
    let endpoint: BenchApi = arguments[2] == "tiny" ? .tiny : .items(size: .oneKilobyte)
    try await Mocked.repeatVariant(arguments[1], endpoint: endpoint, count: Int(arguments[3]) ?? 1)

case "big":
    // big <raw|courier> <port>: a 1 MB JSON list fetched over URLSession and decoded 100 times.
    let port = Int(arguments[2]) ?? 0
    let operation =
        arguments[1] == "raw"
        ? Loopback.request(.rawUrlSession, port: port, httpClient: .shared, size: .oneMegabyte)
        : Loopback.request(.courierUrlSession, port: port, httpClient: .shared, size: .oneMegabyte)
    let start = ContinuousClock.now
    var succeeded = 0
    for _ in 0..<100 where await operation() { succeeded += 1 }
    print("seconds \(Measure.seconds(start.duration(to: .now))) peak \(Measure.procStatus("VmHWM")) ok \(succeeded)")

case "soak":
    // soak <port> <count>: Courier over AsyncHTTPClient, 16 in flight; resident memory after a warm-up and at the end.
    print(try await Soak.run(port: Int(arguments[1]) ?? 0, total: Int(arguments[2]) ?? 150_000))

default:
    try await Report.run(flightDuration: flightDuration)
}
