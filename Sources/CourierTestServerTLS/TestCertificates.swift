/// A private public-key infrastructure for HTTPS tests, made by `Tests/make-certificates` and kept in
/// `TestCertificates+Made.swift`: nothing is written to disk or installed system-wide, and nothing but the tests
/// trusts it.
///
/// - ``authority`` signs the server certificates: ``trusted`` (for `127.0.0.1` and `localhost`), ``expired`` and
///   ``wrongHost`` (for `wrong.example.com` only).
/// - ``clientAuthority`` signs ``client``, the identity for mutual TLS; a server asking for client certificates
///   trusts only it.
public struct TestCertificates: Sendable {
    /// The certificate authority of the server certificates, as PEM.
    public let authority: String
    /// A server certificate for `127.0.0.1` and `localhost`, valid from 1 June 2019 to 1 June 2119.
    public let trusted: TestIdentity
    /// A server certificate for `127.0.0.1` and `localhost` that expired on 2 June 2019.
    public let expired: TestIdentity
    /// A server certificate for `wrong.example.com` alone.
    public let wrongHost: TestIdentity
    /// The certificate authority of client certificates, as PEM.
    public let clientAuthority: String
    /// A client certificate signed by ``clientAuthority``, for mutual TLS.
    public let client: TestIdentity
}

/// A certificate and its private key, both as PEM.
public struct TestIdentity: Sendable {
    /// The certificate.
    public let certificate: String
    /// The private key (PKCS #8).
    public let privateKey: String
    /// The SHA-256 digest of the certificate's `SubjectPublicKeyInfo`, in base64: its public-key pin.
    public let publicKeyPin: String
}
