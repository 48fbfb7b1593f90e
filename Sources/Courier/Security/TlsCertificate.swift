import Foundation

/// One or more X.509 certificates, as PEM text or DER bytes, e.g. a private certificate authority to trust.
///
/// The bytes are read once by the transport that uses them (when it is made, or for an endpoint's options when its
/// first request goes out): a certificate that cannot be read fails each request with
/// ``ApiError/invalidRequest(reason:)`` saying so, and nothing is sent.
public struct TlsCertificate: Sendable, Hashable {
    /// How ``bytes`` are encoded.
    public enum Encoding: Sendable, Hashable {
        /// Text with one or more `-----BEGIN CERTIFICATE-----` blocks.
        case pem
        /// One certificate in binary DER.
        case der
    }

    /// The encoded certificates.
    public let bytes: Data
    /// How they are encoded.
    public let encoding: Encoding

    /// Certificates in PEM text; several may follow one another.
    public init(pem: String) {
        bytes = Data(pem.utf8)
        encoding = .pem
    }

    /// One certificate in DER.
    public init(der: Data) {
        bytes = der
        encoding = .der
    }

    /// The certificates in a `.pem`, `.crt` or `.der` file: PEM when the file has a `-----BEGIN` line (a bundle may
    /// start with comments), DER otherwise.
    /// - Throws: The file system's error when the file cannot be read.
    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        bytes = data
        encoding = data.range(of: Data("-----BEGIN".utf8)) != nil ? .pem : .der
    }
}
