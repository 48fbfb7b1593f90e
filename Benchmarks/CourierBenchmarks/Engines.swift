#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation

/// Courier over libcurl with one engine and with two, beside Courier over AsyncHTTPClient, at 1 to 256 in flight:
/// the rate, and the CPU each kind of thread spent per request, from which a projection for machines with more cores
/// follows. On two cores shared with the loopback server the rate cannot show an engine's ceiling; the threads' CPU
/// per request can.
enum EnginesBench {
    enum Client: String, CaseIterable {
        case oneEngine = "Courier over libcurl, 1 engine"
        case twoEngines = "Courier over libcurl, 2 engines"
        case asyncHttpClient = "Courier over AsyncHTTPClient"
    }

    /// One pass of one client, from its child process.
    struct Figure {
        var rate = 0.0
        var cpu = 0.0
        var threads: [String: Double] = [:]

        /// The libcurl engines' CPU per request, all of them together.
        var engines: Double { threads.filter { $0.key.hasPrefix("Courier curl") }.values.reduce(0, +) }
        /// The CPU per request of the thread that caps the rate: the busiest engine's.
        var busiestEngine: Double { threads.filter { $0.key.hasPrefix("Courier curl") }.values.max() ?? 0 }
        var eventLoops: Double { threads[ThreadCpu.eventLoops] ?? 0 }
        var rest: Double { threads[ThreadCpu.rest] ?? 0 }
    }

    static let concurrencies = [1, 16, 64, 256]

    /// The operation one client repeats: `/items/1k`, decoded.
    static func request(_ client: Client, port: Int) -> @Sendable () async -> Bool {
        let baseUrl = URL(string: "http://127.0.0.1:\(port)")!
        switch client {
        case .oneEngine, .twoEngines:
            let transport = CurlTransport(engines: client == .oneEngine ? 1 : 2)
            let provider = ApiProvider<BenchApi>(baseUrl: baseUrl, transport: transport)
            return {
                (try? await provider.response(on: .items(size: .oneKilobyte), decodeBodyTo: [Item].self).get()) != nil
            }
        case .asyncHttpClient:
            return Loopback.request(.courierAsyncHttpClient, port: port, httpClient: .shared)
        }
    }

    /// The child's side: runs one client and prints its figures, a line each ("rate …", "cpu …", "thread <name>: …").
    static func flight(client number: Int, port: Int, concurrency: Int, duration: Duration) async {
        let client = Client.allCases[min(max(number, 0), Client.allCases.count - 1)]
        let flight = await Measure.throughput(concurrency: concurrency, duration: duration, request(client, port: port))
        var lines = ["rate \(flight.rate)", "cpu \(flight.cpuMicrosecondsPerRequest)"]
        for (name, spent) in flight.threads { lines.append("thread \(name): \(spent)") }
        print(lines.joined(separator: "\n"))
    }

    private static func figure(of output: String) throws -> Figure {
        var figure = Figure()
        for line in output.split(separator: "\n") {
            if line.hasPrefix("thread "), let colon = line.lastIndex(of: ":"),
                let value = Double(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            {
                figure.threads[String(line.dropFirst("thread ".count)[..<colon])] = value
            } else if line.hasPrefix("rate "), let value = Double(line.dropFirst(5)) {
                figure.rate = value
            } else if line.hasPrefix("cpu "), let value = Double(line.dropFirst(4)) {
                figure.cpu = value
            }
        }
        guard figure.rate > 0 else { throw BenchmarkError.badResponse }
        return figure
    }

    static func report(duration: Duration) throws {
        let (server, port) = try Measure.startServer()
        defer { server.terminate() }
        let clients = Client.allCases
        var medians: [Int: [Client: Figure]] = [:]
        print("## Engines: CPU per request by thread, 1 KB JSON decoded (medians of \(Versus.passes) passes)\n")
        print(
            "| in flight | client | requests/s | CPU µs per request | engines | busiest engine | event loops "
                + "| rest (pool, decoding) | 2 engines / 1, rate | 2 engines − 1, CPU µs |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for concurrency in concurrencies {
            var byPass: [[Client: Figure]] = []
            for pass in 0..<Versus.passes {
                var order = clients
                if !pass.isMultiple(of: 2) { order.reverse() }
                var figures: [Client: Figure] = [:]
                for client in order {
                    let index = clients.firstIndex(of: client) ?? 0
                    let output = try Measure.child(
                        ["engines-flight", String(index), String(port), String(concurrency)],
                        environment: ["COURIER_BENCH_SECONDS": String(Int(Measure.seconds(duration)))]
                    )
                    figures[client] = try figure(of: output.stdout)
                }
                byPass.append(figures)
            }
            func median(_ value: ([Client: Figure]) -> Double) -> Double { Report.median(byPass.map(value)) }
            var row: [Client: Figure] = [:]
            for client in clients {
                var figure = Figure()
                figure.rate = median { $0[client]?.rate ?? 0 }
                figure.cpu = median { $0[client]?.cpu ?? 0 }
                let names = Set(byPass.flatMap { $0[client]?.threads.keys.map { $0 } ?? [] })
                for name in names { figure.threads[name] = median { $0[client]?.threads[name] ?? 0 } }
                row[client] = figure
                let versus =
                    client == .twoEngines
                    ? Report.ratio(median { ($0[.twoEngines]?.rate ?? 0) / max($0[.oneEngine]?.rate ?? 0, 1) })
                        + " | "
                        + String(format: "%+.1f", median { ($0[.twoEngines]?.cpu ?? 0) - ($0[.oneEngine]?.cpu ?? 0) })
                    : " | "
                let isCurl = client != .asyncHttpClient
                print(
                    "| \(concurrency) | \(client.rawValue) | \(Report.rate(figure.rate)) | "
                        + String(format: "%.1f", figure.cpu) + " | "
                        + (isCurl ? String(format: "%.1f", figure.engines) : "") + " | "
                        + (isCurl ? String(format: "%.1f", figure.busiestEngine) : "") + " | "
                        + (isCurl ? "" : String(format: "%.1f", figure.eventLoops)) + " | "
                        + String(format: "%.1f", figure.rest) + " | \(versus) |"
                )
            }
            medians[concurrency] = row
        }
        print("")
        projection(from: medians)
    }

    /// The most requests per second one provider could carry on a machine of `cores` cores, from the CPU per
    /// request its threads spent here, assuming the work spreads evenly and nothing else (the server, locks, memory)
    /// limits it: the fewer of what all cores can do and what the threads that cannot spread further can do.
    static func projected(_ figure: Figure, client: Client, cores: Int) -> Double {
        let total = max(figure.engines + figure.eventLoops + figure.rest, 0.1)
        let allCores = Double(cores) * 1e6 / total
        switch client {
        case .oneEngine:
            return min(allCores, 1e6 / max(figure.engines, 0.1))
        case .twoEngines:
            // As many engines as cores, at most 16, sharing the engines' work measured here.
            let engines = Double(min(cores, 16))
            return min(allCores, engines * 1e6 / max(figure.engines, 0.1))
        case .asyncHttpClient:
            // One event loop per core (the shared client's group), each taking its share of the connections.
            return allCores
        }
    }

    private static func projection(from medians: [Int: [Client: Figure]]) {
        print("## Projection: one provider's requests/s on more cores, from the CPU per request above\n")
        print(
            "A projection, not a measurement: each thread's CPU per request as measured on this 2-core machine, the "
                + "work spread evenly over the cores (libcurl: one engine per core, at most 16; AsyncHTTPClient: one "
                + "event loop per core), nothing else limiting (the server, lock contention, memory bandwidth). The "
                + "engine row with one engine is capped by that thread.\n"
        )
        print("| from, in flight | client | 4 cores | 16 cores | 64 cores |")
        print("| --- | --- | --- | --- | --- |")
        for concurrency in [64, 256] {
            for client in Client.allCases {
                guard let figure = medians[concurrency]?[client] else { continue }
                let cells = [4, 16, 64].map { Report.rate(projected(figure, client: client, cores: $0)) }
                let name = client == .twoEngines ? "Courier over libcurl, an engine per core" : client.rawValue
                print("| \(concurrency) | \(name) | " + cells.joined(separator: " | ") + " |")
            }
        }
        print("")
    }
}
#endif
