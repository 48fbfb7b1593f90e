#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import NIOConcurrencyHelpers
import NIOSSL

/// Courier's process-wide clients, never shut down: one with the system's TLS defaults, and one per distinct
/// `TlsOptions` given to `AsyncHTTPClientTransport(tls:)`, whose configuration is then the client's own rather than
/// each request's (AsyncHTTPClient hashes a request's TLS configuration into its pool key on every request).
enum SharedClients {
    /// The system's trust store and TLS 1.2 or later (swift-nio-ssl alone would accept TLS 1.0).
    static let plain: HTTPClient = {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        return make(tlsConfiguration: tls)
    }()

    /// Beyond this many distinct options (made anew per transport, e.g. rotating identities), further ones are
    /// applied per request over ``plain``, so that clients are not made without bound.
    private static let capacity = 16
    private static let byOptions = NIOLockedValueBox<[TlsOptions: HTTPClient]>([:])

    /// The client for `options`, or `nil` when there are too many already.
    static func client(for options: TlsOptions, configuration: TLSConfiguration) -> HTTPClient? {
        byOptions.withLockedValue { clients in
            if let client = clients[options] { return client }
            guard clients.count < capacity else { return nil }
            let client = make(tlsConfiguration: configuration)
            clients[options] = client
            return client
        }
    }

    private static func make(tlsConfiguration: TLSConfiguration) -> HTTPClient {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.tracing.tracer = nil
        // A connection that cannot be made is reported at once, so that a TLS failure (which no retry would cure)
        // comes back in milliseconds rather than at the connect timeout. Every request then waiting for a connection
        // to that host fails with it; `RetryPlugin` retries what is worth it.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.tlsConfiguration = tlsConfiguration
        // Courier's one redirect limit, as libcurl and URLSession follow; a loop ends at the limit, as there.
        configuration.redirectConfiguration = .follow(max: RedirectPolicy.limit, allowCycles: true)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }
}
#endif
