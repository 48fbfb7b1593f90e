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
        } else if text.contains("ssl") || text.contains("tls") {
            self = .handshakeFailed
        } else {
            return nil
        }
    }

    /// `error` with the TLS failure it reports made explicit, or `error` as it was.
    static func classifyingLibcurlError(_ error: Error) -> Error {
        guard let urlError = error as? URLError, urlError.code == .unknown || urlError.code == .secureConnectionFailed
        else { return error }
        let message = (urlError.userInfo[NSLocalizedDescriptionKey] as? String) ?? urlError.localizedDescription
        guard let failure = TLSFailure(libcurlMessage: message) else { return error }
        return failure.urlError(underlying: urlError, detail: message)
    }
}
