import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierCurl
import Foundation
import Testing

/// The transports every conformance test runs through.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient
    case curl

    var testDescription: String { rawValue }

    /// Runs `body` with this transport itself, then releases what it opened.
    func withTransport<Result>(_ body: (any Transport) async throws -> Result) async throws -> Result {
        switch self {
        case .urlSession:
            return try await body(URLSessionTransport())
        case .asyncHTTPClient:
            return try await withHTTPClient(HTTPClient.Configuration()) {
                try await body(AsyncHTTPClientTransport(client: $0))
            }
        case .curl:
            return try await body(CurlTransport())
        }
    }

    /// Runs `body` with a provider over this transport, then releases what the transport opened.
    /// - Parameter connectTimeoutSeconds: AsyncHTTPClient's connect timeout, which covers a TLS handshake too: a
    ///   minute by default, since under ThreadSanitizer a loopback request in the parallel suite has taken 12 s.
    func withProvider<EndpointType: Endpoint, Result>(
        _ endpointType: EndpointType.Type = EndpointType.self,
        baseUrl: URL?,
        plugins: [Plugin<EndpointType>] = [],
        connectTimeoutSeconds: Int64 = 60,
        scheduler: (any Scheduler)? = nil,
        cache: HttpCache? = nil,
        _ body: (ApiProvider<EndpointType>) async throws -> Result
    ) async throws -> Result {
        switch self {
        case .urlSession:
            return try await body(
                ApiProvider(
                    baseUrl: baseUrl,
                    plugins: plugins,
                    transport: URLSessionTransport(),
                    scheduler: scheduler,
                    cache: cache
                )
            )
        case .asyncHTTPClient:
            var configuration = HTTPClient.Configuration()
            configuration.timeout.connect = .seconds(connectTimeoutSeconds)
            configuration.connectionPool.retryConnectionEstablishment = false
            return try await withHTTPClient(configuration) { client in
                let transport = AsyncHTTPClientTransport(client: client)
                return try await body(
                    ApiProvider(
                        baseUrl: baseUrl,
                        plugins: plugins,
                        transport: transport,
                        scheduler: scheduler,
                        cache: cache
                    )
                )
            }
        case .curl:
            return try await body(
                ApiProvider(
                    baseUrl: baseUrl,
                    plugins: plugins,
                    transport: CurlTransport(),
                    scheduler: scheduler,
                    cache: cache
                )
            )
        }
    }
}

/// Runs `body` with an AsyncHTTPClient client of its own, then shuts the client down, also when `body` throws.
func withHTTPClient<Result>(
    _ configuration: HTTPClient.Configuration,
    _ body: (HTTPClient) async throws -> Result
) async throws -> Result {
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try await client.shutdown()
        throw error
    }
}
