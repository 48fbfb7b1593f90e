import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TLSFailure {
    /// The failure libcurl's message tells, for URLSession on Linux, which reports every TLS failure as
    /// `URLError.unknown` (or `.secureConnectionFailed`) with libcurl's text: "SSL certificate problem: …" carries
    /// OpenSSL's verification result, other handshake failures OpenSSL's reason.
    /// - Parameter message: libcurl's error text; `nil` results when it tells no TLS failure.
    public init?(libcurlMessage message: String) {
        let text = message.lowercased()
        if text.contains("ssl certificate problem") {
            if text.contains("has expired") {
                self = .expiredCertificate
            } else if text.contains("not yet valid") {
                self = .certificateNotYetValid
            } else if text.contains("hostname mismatch") || text.contains("does not match") {
                self = .wrongHost
            } else {
                self = .untrustedCertificate
            }
        } else if text.contains("no alternative certificate subject name matches")
            || text.contains("does not match target host name") || text.contains("subject name does not match")
        {
            self = .wrongHost
        } else if text.contains("certificate required") {
            self = .clientCertificateRequired
        } else if text.contains("alert unknown ca") || text.contains("alert bad certificate")
            || text.contains("alert certificate unknown")
        {
            self = .clientCertificateRejected
        } else if Self.handshakePhrases.contains(where: { text.contains($0) }) {
            self = .handshakeFailed
        } else {
            // Not a handshake: e.g. "OpenSSL SSL_read: … unexpected eof" is a connection closed mid-answer, which
            // stays what it was (and is retried as such).
            return nil
        }
    }

    /// What libcurl and OpenSSL say of a handshake that failed for a reason other than a certificate.
    private static let handshakePhrases = [
        "ssl connect error", "ssl_connect", "tls connect error", "wrong version number", "handshake failure",
        "alert protocol version", "unsupported protocol", "no protocols available", "no shared cipher",
        "no cipher match", "cipher list",
    ]

    /// `error` with the TLS failure it reports made explicit, or `error` as it was.
    static func classifyingLibcurlError(_ error: Error) -> Error {
        guard let urlError = error as? URLError, urlError.code == .unknown || urlError.code == .secureConnectionFailed
        else { return error }
        let message = (urlError.userInfo[NSLocalizedDescriptionKey] as? String) ?? urlError.localizedDescription
        // FoundationNetworking makes `.secureConnectionFailed` of libcurl's SSL connect error alone.
        let fallback: TLSFailure? = urlError.code == .secureConnectionFailed ? .handshakeFailed : nil
        guard let failure = TLSFailure(libcurlMessage: message) ?? fallback else { return error }
        return failure.urlError(underlying: urlError, detail: message)
    }
}
