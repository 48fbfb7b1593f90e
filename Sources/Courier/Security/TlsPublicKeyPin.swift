import Foundation

/// A server key a connection must present: the SHA-256 digest of the DER-encoded `SubjectPublicKeyInfo` of the
/// server's own certificate, as curl's `--pinnedpublickey sha256//…` and HTTP Public Key Pinning write it.
///
/// Make one from the base64 text that
/// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64` prints
/// for the certificate, or from the 32 bytes of the digest. A pin is checked after the certificate's chain and host
/// are, never instead of them. The text is read when a request is sent: one that is not the base64 of 32 bytes fails
/// the request with ``ApiError/invalidRequest(reason:)`` saying so, and nothing is sent.
public struct TlsPublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The digest in base64, without the `sha256//` prefix.
    public let base64Sha256: String

    /// A pin from the digest in base64, with or without the `sha256//` prefix.
    public init(sha256 base64: String) {
        let prefix = "sha256//"
        base64Sha256 = base64.hasPrefix(prefix) ? String(base64.dropFirst(prefix.count)) : base64
    }

    /// A pin from the digest's 32 bytes.
    public init(sha256 digest: Data) {
        base64Sha256 = digest.base64EncodedString()
    }

    /// The pin as curl writes it: `sha256//` and the digest in base64.
    public var description: String { "sha256//\(base64Sha256)" }

    /// The pin checked: the base64 of exactly 32 bytes, in its canonical form.
    package func checked() throws(InvalidRequestError) -> String {
        guard let digest = Data(base64Encoded: base64Sha256), digest.count == 32,
            digest.base64EncodedString() == base64Sha256
        else {
            throw InvalidRequestError(
                reason: "the public-key pin \"\(description)\" is not the base64 of a SHA-256 digest (32 bytes)"
            )
        }
        return description
    }
}
