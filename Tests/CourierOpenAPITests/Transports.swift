#if OpenAPI
import Courier
import CourierOpenAPI
import CourierTestServer
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

#if AsyncHTTPClient
import AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

/// The transports a generated client's calls are tested over.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    #if AsyncHTTPClient
    case asyncHTTPClient
    #endif

    var testDescription: String { rawValue }

    /// Whether a body of unknown length goes out in chunks as it is produced (URLSession reads it whole first).
    var streamsUnknownLengths: Bool {
        switch self {
        case .urlSession: false
        #if AsyncHTTPClient
        case .asyncHTTPClient: true
        #endif
        }
    }

    /// Runs `body` with a provider of operations over this transport, then releases what the transport opened.
    func withProvider<Result>(
        plugins: [Plugin<OpenAPIOperation>] = [],
        scheduler: (any Scheduler)? = nil,
        _ body: (ApiProvider<OpenAPIOperation>) async throws -> Result
    ) async throws -> Result {
        switch self {
        case .urlSession:
            return try await body(ApiProvider(plugins: plugins, transport: URLSessionTransport(), scheduler: scheduler))
        #if AsyncHTTPClient
        case .asyncHTTPClient:
            // A refused connection fails at once, instead of being tried again until the connect timeout.
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool.retryConnectionEstablishment = false
            // The connect timeout also bounds the wait for a free connection of the pool: 20 calls at once waited
            // past the default 10 s under ThreadSanitizer in the parallel suite (`getConnectionFromPoolTimeout`).
            configuration.timeout.connect = .seconds(Int64(HangGuard.seconds))
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            do {
                let provider = ApiProvider(
                    plugins: plugins,
                    transport: AsyncHTTPClientTransport(client: client),
                    scheduler: scheduler
                )
                let result = try await body(provider)
                try await client.shutdown()
                return result
            } catch {
                try await client.shutdown()
                throw error
            }
        #endif
        }
    }
}

extension HTTPBody {
    /// The whole body, as generated code collects it.
    func collected() async throws -> Data {
        Data(try await ArraySlice(collecting: self, upTo: 64 << 20))
    }
}

/// A call as generated code makes it: method, path and query, header fields.
func call(
    _ method: HTTPRequest.Method,
    _ pathAndQuery: String,
    headers: HTTPFields = [:]
) -> HTTPRequest {
    HTTPRequest(method: method, scheme: nil, authority: nil, path: pathAndQuery, headerFields: headers)
}
#endif
