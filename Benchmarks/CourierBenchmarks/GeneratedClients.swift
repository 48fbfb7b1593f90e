#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierOpenAPI
import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client generated from `openapi.yaml` calling the benchmark server through each transport a generated client can
/// have: the OpenAPI project's own two, and Courier over each of its transports.
enum GeneratedClients {
    enum Transport: String, CaseIterable {
        case openAPIURLSession = "swift-openapi-urlsession"
        case courierURLSession = "Courier over URLSession"
        case openAPIAsyncHTTPClient = "swift-openapi-async-http-client"
        case courierAsyncHTTPClient = "Courier over AsyncHTTPClient"
        /// What `ApiProvider<OpenAPIOperation>()` sends over on Linux.
        case courierCurl = "Courier over libcurl"

        /// The OpenAPI project's transport a Courier row is set against: the one for the same HTTP client, and for
        /// libcurl, the server-side one.
        var baseline: Transport? {
            switch self {
            case .openAPIURLSession, .openAPIAsyncHTTPClient: nil
            case .courierURLSession: .openAPIURLSession
            case .courierAsyncHTTPClient, .courierCurl: .openAPIAsyncHTTPClient
            }
        }

        func make(httpClient: HTTPClient) -> any ClientTransport {
            switch self {
            case .openAPIURLSession: OpenAPIURLSession.URLSessionTransport()
            case .courierURLSession: ApiProvider<OpenAPIOperation>(transport: Courier.URLSessionTransport())
            case .openAPIAsyncHTTPClient:
                OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(configuration: .init(client: httpClient))
            case .courierAsyncHTTPClient:
                ApiProvider<OpenAPIOperation>(
                    transport: CourierAsyncHTTPClient.AsyncHTTPClientTransport(client: httpClient)
                )
            case .courierCurl: ApiProvider<OpenAPIOperation>(transport: CurlTransport())
            }
        }
    }

    /// One call of `listItems` (`/items/1k`), its ten items decoded by the generated code.
    static func request(over transport: Transport, port: Int, httpClient: HTTPClient) -> @Sendable () async -> Bool {
        let client = Client(
            serverURL: URL(string: "http://127.0.0.1:\(port)")!,
            transport: transport.make(httpClient: httpClient)
        )
        return { (try? await client.listItems().ok.body.json.count) == 10 }
    }

    /// Peak memory of one streamed download of `bytes` through the generated client over Courier, read part by part
    /// into nothing: "before <bytes> after <bytes> seconds <s>".
    static func downloadMemory(over transport: Transport, port: Int, bytes: Int) async throws -> String {
        let client = Client(
            serverURL: URL(string: "http://127.0.0.1:\(port)")!,
            transport: transport.make(httpClient: .shared)
        )
        _ = try await read(client, bytes: 4 << 20)
        // Writing 5 resets the peak to the current size (Linux 4.0 and later).
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = Measure.procStatus("VmHWM")
        let start = ContinuousClock.now
        guard try await read(client, bytes: bytes) == bytes else { throw BenchmarkError.badResponse }
        let seconds = Measure.seconds(start.duration(to: .now))
        return "before \(before) after \(Measure.procStatus("VmHWM")) seconds \(seconds)"
    }

    private static func read(_ client: Client, bytes: Int) async throws -> Int {
        var count = 0
        for try await part in try await client.download(path: .init(bytes: bytes)).ok.body.binary {
            count += part.count
        }
        return count
    }
}
#endif
