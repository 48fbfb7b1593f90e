import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the requests of one ``Endpoint`` type and returns typed results.
///
/// Three entry points lead into the same pipeline (build the request, run the plugins, send it, decode the
/// answer, run the plugins again): a completion handler, a blocking wait and `async`. A provider is `Sendable`:
/// share one between any number of tasks and threads.
///
/// ```swift
/// let provider = ApiProvider<TodoApi>()
/// let todos = await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
/// ```
public final class ApiProvider<EndpointType: Endpoint>: Sendable {
    /// The result of a request: the decoded value or an ``ApiError``.
    public typealias TypedResult<T: Decodable> = Result<T, ApiError<EndpointType.ClientErrorType>>

    /// What the transport delivered, before decoding: the body, the response and the transport error.
    public typealias URLSessionResult = (data: Data?, response: URLResponse?, error: Error?)

    /// The base URL used instead of each endpoint's own ``Endpoint/baseUrl``, or `nil` to use the endpoints'.
    public let baseUrl: URL?

    /// The plugins called for every request, in this order.
    public let plugins: [Plugin<EndpointType>]

    let transport: URLSessionTransport

    /// Creates a provider.
    /// - Parameters:
    ///   - baseUrl: Overrides every endpoint's base URL (e.g. a staging server or a test server); `nil` keeps
    ///     the endpoints' own.
    ///   - plugins: Called for every request, in this order.
    ///   - sessionConfiguration: The configuration of the provider's own `URLSession`. The default, a fresh
    ///     `.ephemeral` configuration, keeps cookies, credentials and cache in memory and to this provider
    ///     alone; pass a configuration that uses shared storage to share it.
    public init(
        baseUrl: URL? = nil,
        plugins: [Plugin<EndpointType>] = [],
        sessionConfiguration: URLSessionConfiguration = .ephemeral
    ) {
        self.baseUrl = baseUrl
        self.plugins = plugins
        self.transport = URLSessionTransport(configuration: sessionConfiguration)
    }
}
