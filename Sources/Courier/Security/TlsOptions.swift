import Foundation

/// How a request's TLS connection is secured beyond the platform's defaults: which certificate authorities are
/// trusted, which identity the client proves itself with (mutual TLS), the oldest TLS version allowed, and which
/// server keys alone are accepted (pinning).
///
/// A transport that cannot apply what is asked refuses the request with ``ApiError/invalidRequest(reason:)``
/// before anything is sent, rather than connect with weaker checks than asked: `URLSessionTransport` applies only
/// ``platformDefault``; `AsyncHTTPClientTransport` applies all of it but pins; `CurlTransport` (Linux's default)
/// applies all of it. Give it per provider (to the transport) or per endpoint (``Endpoint/tls``); an endpoint's
/// options replace the transport's whole.
public struct TlsOptions: Sendable, Hashable {
    /// Which certificate authorities a server's certificate may chain to.
    public enum TrustRoots: Sendable, Hashable {
        /// The system's trust store.
        case system
        /// These authorities and no others: a certificate from any other authority, a public one included, is
        /// refused (pinning to a private authority).
        case only([TlsCertificate])
        /// The system's trust store and these authorities.
        case systemAnd([TlsCertificate])
    }

    /// A TLS protocol version.
    public enum Version: Int, Sendable, Hashable, Comparable {
        /// TLS 1.2.
        case tls12 = 12
        /// TLS 1.3.
        case tls13 = 13

        public static func < (left: Version, right: Version) -> Bool { left.rawValue < right.rawValue }
    }

    /// The authorities trusted; by default the system's.
    public var trustRoots: TrustRoots
    /// The certificate and key the client presents when the server asks for one; by default none.
    public var clientIdentity: TlsClientIdentity?
    /// The oldest version negotiated; by default TLS 1.2.
    public var minimumVersion: Version
    /// The keys the server's own certificate may have, checked after its chain and host; empty (the default) pins
    /// nothing. A server presenting any other key fails with ``TlsFailure/publicKeyMismatch`` before a byte of the
    /// request is sent. Give the next key beside the current one before the server changes it.
    public var pinnedPublicKeys: Set<TlsPublicKeyPin>

    /// Creates options.
    /// - Parameters:
    ///   - trustRoots: The authorities trusted.
    ///   - clientIdentity: The identity presented for mutual TLS, or `nil` for none.
    ///   - minimumVersion: The oldest TLS version negotiated.
    ///   - pinnedPublicKeys: The keys the server's certificate may have, or none to pin nothing.
    public init(
        trustRoots: TrustRoots = .system,
        clientIdentity: TlsClientIdentity? = nil,
        minimumVersion: Version = .tls12,
        pinnedPublicKeys: Set<TlsPublicKeyPin> = []
    ) {
        self.trustRoots = trustRoots
        self.clientIdentity = clientIdentity
        self.minimumVersion = minimumVersion
        self.pinnedPublicKeys = pinnedPublicKeys
    }

    /// The system's trust store, no client identity, TLS 1.2 or later: what Courier's own AsyncHTTPClient client
    /// does without options. `URLSessionTransport` accepts these options as its own defaults, with its platform's
    /// minimum version (TLS 1.2 on Apple platforms and on current Linux distributions' OpenSSL).
    public static let platformDefault = TlsOptions()
}
