import Foundation

/// The certificate chain and private key a client presents to a server that asks for one (mutual TLS).
///
/// Both are read once by the transport that uses them (when it is made, or for an endpoint's options when its first
/// request goes out): one that cannot be read, or a key that does not match the certificate, fails each request with
/// ``ApiError/invalidRequest(reason:)`` saying so, and nothing is sent.
public struct TlsClientIdentity: Sendable, Hashable {
    /// The client's certificate first, then any intermediate authorities, as PEM.
    public let certificateChainPem: String
    /// The certificate's private key as PEM (PKCS #8, or the older RSA or EC forms), unencrypted.
    public let privateKeyPem: String

    /// Creates an identity.
    /// - Parameters:
    ///   - certificateChainPem: The client's certificate first, then any intermediates, as PEM.
    ///   - privateKeyPem: The certificate's private key, as unencrypted PEM.
    public init(certificateChainPem: String, privateKeyPem: String) {
        self.certificateChainPem = certificateChainPem
        self.privateKeyPem = privateKeyPem
    }
}
