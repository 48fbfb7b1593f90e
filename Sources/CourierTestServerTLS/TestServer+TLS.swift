import CourierTestServer
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import NIOSSL

extension TestServer {
    /// Starts a server with ``TestServer``'s routes over HTTPS (its `baseUrl` is `https://127.0.0.1:<port>`), and
    /// returns once it accepts connections.
    /// - Parameter tls: The certificate, protocols and versions it serves with.
    public static func start(tls: TLS) async throws -> TestServer {
        try await start(serving: tls.serverBuilder(), scheme: "https")
    }

    /// Starts a server over HTTPS, runs `body` with it and stops it again, also when `body` throws.
    /// - Parameters:
    ///   - tls: The certificate, protocols and versions it serves with.
    ///   - body: What to do with the server.
    public static func withServer<Result>(
        tls: TLS,
        _ body: (TestServer) async throws -> Result
    ) async throws -> Result {
        try await with(try await start(tls: tls), body)
    }

    /// How a test server serves HTTPS, with a certificate from ``TestCertificates``.
    public struct TLS: Sendable {
        /// Which server certificate the server presents.
        public enum Certificate: Sendable {
            /// ``TestCertificates/trusted``: valid for `127.0.0.1` and `localhost`.
            case trusted
            /// ``TestCertificates/expired``.
            case expired
            /// ``TestCertificates/wrongHost``: for `wrong.example.com` alone.
            case wrongHost
        }

        /// The certificate presented.
        public var certificate: Certificate
        /// Whether HTTP/2 is offered (by ALPN, beside HTTP/1.1).
        public var http2: Bool
        /// Whether a client must present a certificate signed by ``TestCertificates/clientAuthority``.
        public var requiresClientCertificate: Bool
        /// The oldest TLS version accepted.
        public var minimumVersion: TLSVersion
        /// The newest TLS version offered, or `nil` for the newest there is.
        public var maximumVersion: TLSVersion?

        /// Creates the settings.
        /// - Parameters:
        ///   - certificate: The certificate presented.
        ///   - http2: Whether HTTP/2 is offered beside HTTP/1.1.
        ///   - requiresClientCertificate: Whether mutual TLS is required.
        ///   - minimumVersion: The oldest TLS version accepted.
        ///   - maximumVersion: The newest TLS version offered, or `nil` for the newest there is.
        public init(
            certificate: Certificate = .trusted,
            http2: Bool = false,
            requiresClientCertificate: Bool = false,
            minimumVersion: TLSVersion = .tlsv12,
            maximumVersion: TLSVersion? = nil
        ) {
            self.certificate = certificate
            self.http2 = http2
            self.requiresClientCertificate = requiresClientCertificate
            self.minimumVersion = minimumVersion
            self.maximumVersion = maximumVersion
        }

        /// The Hummingbird server that serves HTTPS this way, for a server of one's own (the benchmarks' routes).
        public func serverBuilder() throws -> HTTPServerBuilder {
            var configuration = try serverConfiguration()
            if http2 { return try .http2Upgrade(tlsConfiguration: configuration) }
            configuration.applicationProtocols = ["http/1.1"]
            return try .tls(.http1(), tlsConfiguration: configuration)
        }

        /// The server's TLS configuration: the certificate, the versions and, when asked, the client authority.
        public func serverConfiguration() throws -> TLSConfiguration {
            let certificates = TestCertificates.shared
            let identity: TestIdentity
            switch certificate {
            case .trusted: identity = certificates.trusted
            case .expired: identity = certificates.expired
            case .wrongHost: identity = certificates.wrongHost
            }
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(identity.certificate.utf8))
                    .map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKey.utf8), format: .pem))
            )
            configuration.minimumTLSVersion = minimumVersion
            configuration.maximumTLSVersion = maximumVersion
            if requiresClientCertificate {
                configuration.certificateVerification = .noHostnameVerification
                configuration.trustRoots = .certificates(
                    try NIOSSLCertificate.fromPEMBytes(Array(certificates.clientAuthority.utf8))
                )
            }
            return configuration
        }
    }
}
