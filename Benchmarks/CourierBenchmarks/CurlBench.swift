#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation

/// Courier over libcurl (`CurlTransport`) beside Courier over URLSession and over AsyncHTTPClient and beside raw
/// libcurl driven the same way, each in a process of its own, taking turns; and the JSON decoding alone, the part of
/// each request's CPU that no transport saves.
enum CurlBench {
    enum Client: String, CaseIterable {
        case courierUrlSession = "Courier over URLSession"
        case courierAsyncHttpClient = "Courier over AsyncHTTPClient"
        case rawCurl = "raw libcurl"
        case courierCurl = "Courier over libcurl"
        case decodingAlone = "JSON decoding alone"
    }

    /// The operation one client repeats: `/items/1k`, decoded.
    static func request(_ client: Client, port: Int) -> @Sendable () async -> Bool {
        let baseUrl = URL(string: "http://127.0.0.1:\(port)")!
        switch client {
        case .courierUrlSession:
            return Loopback.request(.courierUrlSession, port: port, httpClient: .shared)
        case .courierAsyncHttpClient:
            return Loopback.request(.courierAsyncHttpClient, port: port, httpClient: .shared)
        case .rawCurl:
            guard let curl = RawCurl() else { return { false } }
            let url = baseUrl.appendingPathComponent("items/1k").absoluteString
            let decoder = JSONDecoder()
            return {
                guard let body = await curl.get(url) else { return false }
                return (try? decoder.decode([Item].self, from: body)) != nil
            }
        case .courierCurl:
            let provider = ApiProvider<BenchApi>(baseUrl: baseUrl, transport: CurlTransport())
            return {
                (try? await provider.response(on: .items(size: .oneKilobyte), decodeBodyTo: [Item].self).get()) != nil
            }
        case .decodingAlone:
            let body = Bodies.oneKilobyte
            let decoder = JSONDecoder()
            return { (try? decoder.decode([Item].self, from: body)) != nil }
        }
    }

    static func report(duration: Duration) throws {
        let (server, port) = try Measure.startServer()
        defer { server.terminate() }
        let passes = Versus.passes
        let clients = Client.allCases
        print("## Courier over libcurl, 1 KB JSON decoded (medians of \(passes) passes)\n")
        print(
            "| in flight | client | requests/s | CPU µs per request | libcurl / URLSession, rate "
                + "| libcurl / AsyncHTTPClient, rate | Courier − raw libcurl, CPU µs |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for concurrency in [1, 16, 64] {
            let byPass = try Versus.takingTurns(
                mode: "curl-flight",
                clients: clients.count,
                port: port,
                concurrency: concurrency,
                duration: duration
            )
            func median(_ value: ([Int: Versus.Figure]) -> Double) -> Double { Report.median(byPass.map(value)) }
            let curl = clients.firstIndex(of: .courierCurl) ?? 0
            let raw = clients.firstIndex(of: .rawCurl) ?? 0
            for (index, client) in clients.enumerated() {
                let versus =
                    client == .courierCurl
                    ? Report.ratio(median { ($0[curl]?.rate ?? 0) / max($0[0]?.rate ?? 0, 1) }) + " | "
                        + Report.ratio(median { ($0[curl]?.rate ?? 0) / max($0[1]?.rate ?? 0, 1) }) + " | "
                        + String(format: "%+.1f", median { ($0[curl]?.cpu ?? 0) - ($0[raw]?.cpu ?? 0) })
                    : " |  | "
                print(
                    "| \(concurrency) | \(client.rawValue) | \(Report.rate(median { $0[index]?.rate ?? 0 })) | "
                        + "\(String(format: "%.1f", median { $0[index]?.cpu ?? 0 })) | \(versus) |"
                )
            }
        }
        print("")
    }
}
#endif
