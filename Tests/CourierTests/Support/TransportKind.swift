import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import Testing

/// The transports every conformance test runs through.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient

    var testDescription: String { rawValue }

    /// Runs `body` with a provider over this transport, then releases what the transport opened.
    func withProvider<EndpointType: Endpoint, Result>(
        _ endpointType: EndpointType.Type = EndpointType.self,
        baseUrl: URL?,
        plugins: [Plugin<EndpointType>] = [],
        _ body: (ApiProvider<EndpointType>) async throws -> Result
    ) async throws -> Result {
        switch self {
        case .urlSession:
            return try await body(ApiProvider(baseUrl: baseUrl, plugins: plugins, transport: URLSessionTransport()))
        case .asyncHTTPClient:
            // AsyncHTTPClient fails a request that waits longer than its connect timeout (10 s by default) for a
            // pooled connection; under the thread sanitizer a hundred requests at once can wait that long.
            var configuration = HTTPClient.Configuration()
            configuration.timeout.connect = .seconds(60)
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let provider = ApiProvider(
                baseUrl: baseUrl,
                plugins: plugins,
                transport: AsyncHTTPClientTransport(client: client)
            )
            do {
                let result = try await body(provider)
                try await client.shutdown()
                return result
            } catch {
                try await client.shutdown()
                throw error
            }
        }
    }
}
