import Crypto
import Foundation
import SwiftASN1
import X509

/// A private public-key infrastructure made in memory when first used, for HTTPS tests: nothing is written to disk
/// or installed system-wide, and every run has keys of its own.
///
/// - ``authority`` signs the server certificates: ``trusted`` (for `127.0.0.1` and `localhost`), ``expired`` and
///   ``wrongHost`` (for `wrong.example.com` only).
/// - ``clientAuthority`` signs ``client``, the identity for mutual TLS; a server asking for client certificates
///   trusts only it.
public struct TestCertificates: Sendable {
    /// The certificate authority of the server certificates, as PEM.
    public let authority: String
    /// A server certificate for `127.0.0.1` and `localhost`, valid from an hour ago for a day.
    public let trusted: TestIdentity
    /// A server certificate for `127.0.0.1` and `localhost` that expired yesterday.
    public let expired: TestIdentity
    /// A server certificate for `wrong.example.com` alone.
    public let wrongHost: TestIdentity
    /// The certificate authority of client certificates, as PEM.
    public let clientAuthority: String
    /// A client certificate signed by ``clientAuthority``, for mutual TLS.
    public let client: TestIdentity

    /// The process's certificates, made on first use.
    public static func shared() throws -> TestCertificates {
        try made.get()
    }

    private static let made = Result { try TestCertificates() }

    private init() throws {
        let now = Date()
        let day: TimeInterval = 24 * 60 * 60
        let serverAuthority = try Authority(name: "Courier Test CA", now: now)
        let clientAuthority = try Authority(name: "Courier Test Client CA", now: now)
        let loopback: [GeneralName] = [
            .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
        ]
        authority = try serverAuthority.certificate.serializeAsPEM().pemString
        trusted = try serverAuthority.issue(
            name: "127.0.0.1",
            names: loopback,
            validity: now.addingTimeInterval(-3_600)...now.addingTimeInterval(day),
            usage: .serverAuth
        )
        expired = try serverAuthority.issue(
            name: "127.0.0.1 (expired)",
            names: loopback,
            validity: now.addingTimeInterval(-2 * day)...now.addingTimeInterval(-day),
            usage: .serverAuth
        )
        wrongHost = try serverAuthority.issue(
            name: "wrong.example.com",
            names: [.dnsName("wrong.example.com")],
            validity: now.addingTimeInterval(-3_600)...now.addingTimeInterval(day),
            usage: .serverAuth
        )
        self.clientAuthority = try clientAuthority.certificate.serializeAsPEM().pemString
        client = try clientAuthority.issue(
            name: "Courier Test Client",
            names: [.dnsName("client.courier.test")],
            validity: now.addingTimeInterval(-3_600)...now.addingTimeInterval(day),
            usage: .clientAuth
        )
    }
}

/// A certificate and its private key, both as PEM.
public struct TestIdentity: Sendable {
    /// The certificate.
    public let certificate: String
    /// The private key (PKCS #8).
    public let privateKey: String
}

/// A self-signed certificate authority that issues leaf certificates.
private struct Authority {
    let key: Certificate.PrivateKey
    let name: DistinguishedName
    let certificate: Certificate

    init(name commonName: String, now: Date) throws {
        key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        name = try DistinguishedName { CommonName(commonName) }
        certificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: key.publicKey,
            notValidBefore: now.addingTimeInterval(-3_600),
            notValidAfter: now.addingTimeInterval(30 * 24 * 3_600),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: key
        )
    }

    func issue(
        name commonName: String,
        names: [GeneralName],
        validity: ClosedRange<Date>,
        usage: ExtendedKeyUsage.Usage
    ) throws -> TestIdentity {
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: Certificate.PublicKey(leafKey.publicKey),
            notValidBefore: validity.lowerBound,
            notValidAfter: validity.upperBound,
            issuer: name,
            subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([usage])
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: key
        )
        return TestIdentity(certificate: try leaf.serializeAsPEM().pemString, privateKey: leafKey.pemRepresentation)
    }
}
