#if !AsyncHTTPClient
// This product's code is compiled only where the package trait "AsyncHTTPClient" is enabled: the trait is what brings
// in async-http-client and SwiftNIO, for the users who ask for them. Named without it, the transport says what to add.
import Courier

/// Unavailable: the transport needs the `AsyncHTTPClient` trait of the Courier package.
@available(
    *,
    unavailable,
    message: "CourierAsyncHTTPClient needs its trait: .package(url: ..., from: ..., traits: [\"AsyncHTTPClient\"])"
)
public struct AsyncHTTPClientTransport {
    /// Unavailable: the transport needs the `AsyncHTTPClient` trait of the Courier package.
    public init(tls: TlsOptions? = nil) {}

    /// Unavailable: the transport needs the `AsyncHTTPClient` trait of the Courier package.
    public init<Client>(client: Client, tls: TlsOptions? = nil) {}
}
#endif
