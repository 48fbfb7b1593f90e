import Courier

extension TlsOptions {
    /// Trusts ``TestCertificates/authority`` alone.
    public static func testAuthority() throws -> TlsOptions {
        TlsOptions(trustRoots: .only([TlsCertificate(pem: TestCertificates.shared.authority)]))
    }

    /// Trusts ``TestCertificates/authority`` alone and presents ``TestCertificates/client``.
    public static func testAuthorityWithClientIdentity() throws -> TlsOptions {
        let certificates = TestCertificates.shared
        return TlsOptions(
            trustRoots: .only([TlsCertificate(pem: certificates.authority)]),
            clientIdentity: TlsClientIdentity(
                certificateChainPem: certificates.client.certificate,
                privateKeyPem: certificates.client.privateKey
            )
        )
    }
}
