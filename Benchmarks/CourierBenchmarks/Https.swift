#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOSSL

/// HTTPS against the loopback server with a private authority: HTTP/1.1 beside HTTP/2, Courier over AsyncHTTPClient
/// beside the raw client on the same `HTTPClient`, and Courier over libcurl with the same options.
enum Https {
    enum Client: String, CaseIterable {
        case raw = "AsyncHTTPClient execute"
        case courierClientTls = "Courier, client's TLS configuration"
        case courierOptions = "Courier, AsyncHTTPClientTransport(tls:)"
        case courierCurl = "Courier, CurlTransport(tls:)"
    }

    static let passes = 3

    /// Prints the table and returns the ratios in short.
    @discardableResult
    static func report(duration: Duration) async throws -> String {
        print(
            "## HTTPS, 1 KB JSON decoded, requests/s (medians of \(passes) runs of "
                + "\(Measure.seconds(duration)) s; ratios to the raw client within each pass)\n"
        )
        print(
            "| protocol | in flight | AsyncHTTPClient | Courier, client's TLS configuration | ratio | "
                + "Courier, `AsyncHTTPClientTransport(tls:)` | ratio | µs CPU per request, raw / Courier (tls:) | "
                + "Courier, `CurlTransport(tls:)` | ratio | µs CPU per request |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        var summary: [String] = []
        for http2 in [false, true] {
            let authorityFile = FileManager.default.temporaryDirectory
                .appendingPathComponent("courier-bench-authority-\(UUID().uuidString).pem")
            let (server, port) = try Measure.startServer(["serve-https", http2 ? "h2" : "h1", authorityFile.path])
            defer {
                server.terminate()
                try? FileManager.default.removeItem(at: authorityFile)
            }
            let authority = try String(contentsOf: authorityFile, encoding: .utf8)
            var configuration = HTTPClient.Configuration()
            configuration.tlsConfiguration = try clientConfiguration(trusting: authority)
            let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let options = TlsOptions(trustRoots: .only([TlsCertificate(pem: authority)]))
            for concurrency in [1, 16, 64] {
                var passResults: [[Client: Measure.Flight]] = []
                for pass in 0..<passes {
                    let order = pass.isMultiple(of: 2) ? Client.allCases : Client.allCases.reversed()
                    var flights: [Client: Measure.Flight] = [:]
                    for client in order {
                        let operation = request(
                            client,
                            port: port,
                            httpClient: httpClient,
                            options: options
                        )
                        flights[client] = await Measure.throughput(
                            concurrency: concurrency,
                            duration: duration,
                            operation
                        )
                    }
                    passResults.append(flights)
                }
                func rateOf(_ client: Client) -> Double { Report.median(passResults.map { $0[client]?.rate ?? 0 }) }
                func ratioOf(_ client: Client) -> Double {
                    Report.median(passResults.map { ($0[client]?.rate ?? 0) / max($0[.raw]?.rate ?? 0, 1) })
                }
                func cpuOf(_ client: Client) -> String {
                    String(
                        format: "%.0f",
                        Report.median(passResults.map { $0[client]?.cpuMicrosecondsPerRequest ?? 0 })
                    )
                }
                let name = http2 ? "HTTP/2" : "HTTP/1.1"
                print(
                    "| \(name) | \(concurrency) | \(Report.rate(rateOf(.raw))) | \(Report.rate(rateOf(.courierClientTls))) "
                        + "| \(Report.ratio(ratioOf(.courierClientTls))) | \(Report.rate(rateOf(.courierOptions))) "
                        + "| \(Report.ratio(ratioOf(.courierOptions))) | \(cpuOf(.raw)) / \(cpuOf(.courierOptions)) "
                        + "| \(Report.rate(rateOf(.courierCurl))) | \(Report.ratio(ratioOf(.courierCurl))) "
                        + "| \(cpuOf(.courierCurl)) |"
                )
                summary.append(
                    "\(name) \(concurrency): \(Report.ratio(ratioOf(.courierOptions))), "
                        + "libcurl \(Report.ratio(ratioOf(.courierCurl)))"
                )
            }
            try await httpClient.shutdown()
        }
        print("")
        return summary.joined(separator: ", ")
    }

    private static func clientConfiguration(trusting authority: String) throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(authority.utf8)))
        return configuration
    }

    /// One request for `/items/1k` over HTTPS, decoded.
    private static func request(
        _ client: Client,
        port: Int,
        httpClient: HTTPClient,
        options: TlsOptions
    ) -> @Sendable () async -> Bool {
        let baseUrl = URL(string: "https://127.0.0.1:\(port)")!
        switch client {
        case .raw:
            return Loopback.rawAsyncHttpClient(url: baseUrl.appendingPathComponent("items/1k"), httpClient: httpClient)
        case .courierClientTls:
            let provider = ApiProvider<BenchApi>(
                baseUrl: baseUrl,
                transport: AsyncHTTPClientTransport(client: httpClient)
            )
            return {
                (try? await provider.response(on: .items(size: .oneKilobyte), decodeBodyTo: [Item].self).get()) != nil
            }
        case .courierOptions, .courierCurl:
            let transport: any Transport =
                client == .courierCurl ? CurlTransport(tls: options) : AsyncHTTPClientTransport(tls: options)
            let provider = ApiProvider<BenchApi>(baseUrl: baseUrl, transport: transport)
            return {
                (try? await provider.response(on: .items(size: .oneKilobyte), decodeBodyTo: [Item].self).get()) != nil
            }
        }
    }
}
#endif
