import Courier
import CourierTestServer
import Foundation
import Testing

#if AsyncHTTPClient
import AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

/// The transports every conformance test runs through: AsyncHTTPClient's where its trait is enabled
/// (`swift test --enable-all-traits`, as `.ci/run` does).
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    #if AsyncHTTPClient
    case asyncHTTPClient
    #endif
    case curl

    var testDescription: String { rawValue }

    /// The transports other than FoundationNetworking's URLSession, for what it cannot do: apply `TlsOptions`, send a
    /// body as it is produced, keep the method and body on a redirect as RFC 9110 says.
    static let notURLSession = allCases.filter { $0 != .urlSession }

    /// Runs `body` with this transport itself, then releases what it opened.
    func withTransport<Result>(_ body: (any Transport) async throws -> Result) async throws -> Result {
        switch self {
        case .urlSession:
            return try await body(URLSessionTransport())
        #if AsyncHTTPClient
        case .asyncHTTPClient:
            return try await withHTTPClient(HTTPClient.Configuration()) {
                try await body(AsyncHTTPClientTransport(client: $0))
            }
        #endif
        case .curl:
            return try await body(CurlTransport())
        }
    }

    /// Runs `body` with a provider over this transport, then releases what the transport opened.
    func withProvider<EndpointType: Endpoint, Result>(
        _ endpointType: EndpointType.Type = EndpointType.self,
        baseUrl: URL?,
        plugins: [Plugin<EndpointType>] = [],
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
        #if AsyncHTTPClient
        case .asyncHTTPClient:
            var configuration = HTTPClient.Configuration()
            // The connect timeout covers a TLS handshake and a wait for a pooled connection too: under
            // ThreadSanitizer a loopback request in the parallel suite has taken 12 s, and a hundred at once waited
            // past AsyncHTTPClient's default 10 s. The hang guard, then.
            configuration.timeout.connect = .seconds(Int64(HangGuard.seconds))
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
        #endif
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

#if AsyncHTTPClient
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
#endif
