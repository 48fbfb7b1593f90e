#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestServerTLS
import Foundation

// Courier's benchmarks, side by side with their baselines in the same run. Release builds only:
//     swift run -c release --enable-all-traits CourierBenchmarks
// Modes other than the default are this program's own child processes.

let arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.first ?? "all"
let flightDuration = Duration.seconds(Int(ProcessInfo.processInfo.environment["COURIER_BENCH_SECONDS"] ?? "") ?? 3)

switch mode {
case "serve":
    try await BenchServer.run()

case "serve-hostile":
    // serve-hostile: the hostile server alone, for the fault soak; prints "hostile <port> <refused port>".
    let hostile = try await HostileServer.start()
    FileHandle.standardOutput.write(Data("hostile \(hostile.port) \(hostile.refusedBaseUrl.port ?? 0)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3_600)) }

case "serve-https":
    // serve-https <h1|h2> <file>: the loopback server over HTTPS; its authority's certificate is written to <file>.
    try TestCertificates.shared.authority.write(toFile: arguments[2], atomically: true, encoding: .utf8)
    try await BenchServer.run(server: TestServer.TLS(http2: arguments[1] == "h2").serverBuilder())

case "https":
    // https: HTTPS at 1, 16 and 64 in flight, HTTP/1.1 beside HTTP/2: raw AsyncHTTPClient beside Courier over it and
    // over libcurl.
    try await Https.report(duration: flightDuration)

case "fault-soak":
    // fault-soak [requests per transport] [in flight] [seed]: faults, cancellations, timeouts and uploads through a
    // provider with plugins, on each transport; exits 1 when a call did not complete exactly once as its fault implies
    // (a few timeouts over URLSession aside), or when descriptors, temporary files, memory or requests in flight were
    // left.
    let requests = arguments.count > 1 ? Int(arguments[1]) ?? 20_000 : 20_000
    let inFlight = arguments.count > 2 ? Int(arguments[2]) ?? 256 : 256
    let seed = arguments.count > 3 ? UInt64(arguments[3]) ?? 0 : UInt64.random(in: 0..<1_000_000)
    if try await !FaultSoak.run(requests: requests, inFlight: inFlight, seed: seed) { exit(1) }

case "mocked":
    // The mocked pipeline's table alone.
    try await Report.mocked()

case "caching":
    // caching: the HTTP cache's fresh hit beside a mocked call, its directory store beside memory, and a
    // revalidated hit beside a full fetch over the loopback.
    let (server, port) = try Measure.startServer()
    defer { server.terminate() }
    try await CacheBench.report(port: port, duration: flightDuration)

case "observability":
    // observability: the metrics and tracing plugins on beside off, mocked and over each transport.
    let (server, port) = try Measure.startServer()
    defer { server.terminate() }
    try await Report.observability(port: port, duration: flightDuration)

case "flight":
    // flight <client number, 0-3, or "delegate"> <port> <in flight>: one client of the loopback table alone, for
    // profiling; "delegate" is raw URLSession with a data delegate that collects the body.
    let client = Int(arguments[1]).map { Loopback.Client.allCases[min(max($0, 0), 3)] }
    let port = Int(arguments[2]) ?? 0
    let operation =
        client.map { Loopback.request($0, port: port, httpClient: .shared) }
        ?? SessionCollector().request(URL(string: "http://127.0.0.1:\(port)/items/1k")!)
    let flight = await Measure.throughput(concurrency: Int(arguments[3]) ?? 16, duration: flightDuration, operation)
    print(
        "\(client?.rawValue ?? "URLSession with a data delegate"): \(Report.rate(flight.rate)), "
            + "\(String(format: "%.1f", flight.cpuMicrosecondsPerRequest)) µs CPU per request"
    )

case "observed-flight":
    // observed-flight <off|quietPlugin|everyHook|observed> <port> <in flight>: Courier over AsyncHTTPClient with one
    // column's plugins alone, for profiling what a plugin costs.
    let setup = Observability.Setup.allCases.first { "\($0)" == arguments[1] } ?? .off
    let transport = AsyncHTTPClientTransport(client: .shared)
    let operation = Observability.request(over: transport, port: Int(arguments[2]) ?? 0, setup: setup)
    let flight = await Measure.throughput(concurrency: Int(arguments[3]) ?? 16, duration: flightDuration, operation)
    print(
        "\(setup): \(Report.rate(flight.rate)), "
            + "\(String(format: "%.1f", flight.cpuMicrosecondsPerRequest)) µs CPU per request"
    )

case "count":
    // count <baseline|completion|plugin|observed|cache-hit|async> <tiny|1k> <iterations>
    let endpoint: BenchApi = arguments[2] == "tiny" ? .tiny : .items(size: .oneKilobyte)
    try await Mocked.repeatVariant(arguments[1], endpoint: endpoint, count: Int(arguments[3]) ?? 1)

case "count-loopback":
    // count-loopback <client number, 0-3, or "delegate"> <port> <requests>: one client's requests one after the
    // other, counted.
    let client = Int(arguments[1]).map { Loopback.Client.allCases[min(max($0, 0), 3)] }
    try await AllocationGate.repeatLoopback(client, port: Int(arguments[2]) ?? 0, count: Int(arguments[3]) ?? 1)

case "count-curl":
    // count-curl <client number of the libcurl table, 0-4> <port> <requests>: as count-loopback, for libcurl.
    let clients = CurlBench.Client.allCases
    let client = clients[min(max(Int(arguments[1]) ?? 0, 0), clients.count - 1)]
    try await AllocationGate.repeatCurl(client, port: Int(arguments[2]) ?? 0, count: Int(arguments[3]) ?? 1)

case "count-openapi":
    // count-openapi <transport number, 0-4> <port> <requests>: as count-loopback, for the generated client's table.
    let transports = GeneratedClients.Transport.allCases
    let transport = transports[min(max(Int(arguments[1]) ?? 0, 0), transports.count - 1)]
    try await AllocationGate.repeatGenerated(transport, port: Int(arguments[2]) ?? 0, count: Int(arguments[3]) ?? 1)

case "allocation-gate":
    // allocation-gate: heap allocations per request against Benchmarks/allocation-budget.json; run by .ci/run,
    // fails when Courier adds more to a baseline than its budget allows.
    let (server, port) = try Measure.startServer()
    let holds = try AllocationGate.check(port: port)
    server.terminate()
    if !holds { exit(1) }

case "versus":
    // versus <other executable>: the loopback clients of this build beside another build's (e.g. the commit before a
    // change), taking turns in the same run.
    try Versus.report(other: arguments[1], duration: flightDuration)

case "curl":
    // curl: Courier over libcurl beside Courier over URLSession and over AsyncHTTPClient, raw libcurl, and the
    // decoding alone.
    try CurlBench.report(duration: flightDuration)

case "curl-flight":
    // curl-flight <client number, 0-4> <port> <in flight>: one client of the libcurl table alone.
    let clients = CurlBench.Client.allCases
    let client = clients[min(max(Int(arguments[1]) ?? 0, 0), clients.count - 1)]
    let operation = CurlBench.request(client, port: Int(arguments[2]) ?? 0)
    let flight = await Measure.throughput(concurrency: Int(arguments[3]) ?? 16, duration: flightDuration, operation)
    print(
        "\(client.rawValue): \(Report.rate(flight.rate)), "
            + "\(String(format: "%.1f", flight.cpuMicrosecondsPerRequest)) µs CPU per request"
    )

case "engines":
    // engines: libcurl with one engine and with two beside AsyncHTTPClient, CPU per request by thread, and the
    // projection for more cores.
    try EnginesBench.report(duration: flightDuration)

case "engines-flight":
    // engines-flight <client number, 0-2> <port> <in flight>: one client of the engines table alone.
    await EnginesBench.flight(
        client: Int(arguments[1]) ?? 0,
        port: Int(arguments[2]) ?? 0,
        concurrency: Int(arguments[3]) ?? 16,
        duration: flightDuration
    )

case "openapi":
    // openapi: a generated client's call over Courier beside OpenAPI's own transports, and a streamed download.
    try GeneratedClientsReport.run(duration: flightDuration)

case "openapi-flight":
    // openapi-flight <transport number, 0-4> <port> <in flight>: one transport of the generated client's table alone.
    let transports = GeneratedClients.Transport.allCases
    let transport = transports[min(max(Int(arguments[1]) ?? 0, 0), transports.count - 1)]
    let operation = GeneratedClients.request(over: transport, port: Int(arguments[2]) ?? 0, httpClient: .shared)
    let flight = await Measure.throughput(concurrency: Int(arguments[3]) ?? 16, duration: flightDuration, operation)
    print(
        "\(transport.rawValue): \(Report.rate(flight.rate)), "
            + "\(String(format: "%.1f", flight.cpuMicrosecondsPerRequest)) µs CPU per request"
    )

case "openapi-download":
    // openapi-download <transport number, 0-4> <port> <bytes>: one streamed download through the generated client.
    let transports = GeneratedClients.Transport.allCases
    let transport = transports[min(max(Int(arguments[1]) ?? 0, 0), transports.count - 1)]
    print(
        try await GeneratedClients.downloadMemory(
            over: transport,
            port: Int(arguments[2]) ?? 0,
            bytes: Int(arguments[3]) ?? (256 << 20)
        )
    )

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

case "transfers":
    // transfers [urlSession|asyncHTTPClient|curl]: streaming throughput beside the raw clients, and a 1 GB
    // download's memory on each transport; with a transport, its clients' throughput alone.
    let (server, port) = try Measure.startServer()
    defer { server.terminate() }
    try await Report.transfers(port: port, transport: arguments.count > 1 ? arguments[1] : nil)

case "transfer":
    // transfer <client number, from 0> <port> <bytes> <times>: one client of the streaming table alone, for profiling.
    let client = Transfers.Client.allCases[min(max(Int(arguments[1]) ?? 0, 0), Transfers.Client.allCases.count - 1)]
    let start = ContinuousClock.now
    let times = Int(arguments[4]) ?? 1
    for _ in 0..<times {
        _ = try await Transfers.read(client, bytes: Int(arguments[3]) ?? 0, port: Int(arguments[2]) ?? 0)
    }
    let megabytes = Double(times * (Int(arguments[3]) ?? 0)) / 1e6
    print("\(client.rawValue): \(String(format: "%.0f", megabytes / Measure.seconds(start.duration(to: .now)))) MB/s")

case "download-memory":
    // download-memory <urlSession|asyncHTTPClient|curl> <port> [bytes]: one download to a file in this process.
    let bytes = arguments.count > 3 ? Int(arguments[3]) ?? (1 << 30) : 1 << 30
    print(
        try await Transfers.downloadMemory(
            over: arguments[1],
            port: Int(arguments[2]) ?? 0,
            bytes: bytes
        )
    )

case "download-check":
    // download-check [bytes]: fails unless a download of `bytes` (1 GB by default) to a file arrives whole with
    // progress rising to the size, growing peak memory by less than 32 MB over AsyncHTTPClient and libcurl and by
    // less than half the size over URLSession; run by .ci/run.
    let (server, port) = try Measure.startServer()
    let bytes = arguments.count > 1 ? Int(arguments[1]) ?? (1 << 30) : 1 << 30
    let holds = try Report.downloadMemory(port: port, bytes: bytes)
    server.terminate()
    if !holds { exit(1) }

case "soak":
    // soak <port> <count>: Courier over AsyncHTTPClient, 16 in flight; resident memory after a warm-up and at the end.
    print(try await Soak.run(port: Int(arguments[1]) ?? 0, total: Int(arguments[2]) ?? 150_000))

#if WebSocket
case "websocket":
    // websocket: echo round trips through Courier beside raw WSClient at 1 and 64 connections, then the two below.
    try await WebSocketBench.report(duration: flightDuration)

case "serve-websocket":
    try await WebSocketBench.serve()

case "websocket-idle":
    // websocket-idle <port> <count>: resident memory per open idle connection.
    try await WebSocketBench.idle(port: Int(arguments[1]) ?? 0, count: Int(arguments[2]) ?? 1000)

case "websocket-flood":
    // websocket-flood <port> <count>: memory across `count` messages through one connection.
    try await WebSocketBench.flood(port: Int(arguments[1]) ?? 0, count: Int(arguments[2]) ?? 1_000_000)
#endif

default:
    try await Report.run(flightDuration: flightDuration)
}
#else
import Foundation

// The tables set Courier beside AsyncHTTPClient and the OpenAPI project's transports: they are built with the
// package's traits, as `.ci/run` builds them.
FileHandle.standardError.write(
    Data(
        "CourierBenchmarks needs the package's traits: swift run -c release --enable-all-traits CourierBenchmarks\n"
            .utf8
    )
)
exit(2)
#endif
