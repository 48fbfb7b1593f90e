import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TlsFailure {
    /// `error` with the TLS failure it reports made explicit, or `error` as it was: URLSession on Linux reports every
    /// TLS failure as `URLError.unknown` (or `.secureConnectionFailed`) with libcurl's text, "SSL certificate
    /// problem: …" and OpenSSL's verification result, or OpenSSL's reason for other handshake failures.
    static func classifyingLibcurlError(_ error: Error) -> Error {
        guard let urlError = error as? URLError, urlError.code == .unknown || urlError.code == .secureConnectionFailed
        else { return error }
        let message = (urlError.userInfo[NSLocalizedDescriptionKey] as? String) ?? urlError.localizedDescription
        // FoundationNetworking makes `.secureConnectionFailed` of libcurl's SSL connect error alone.
        let fallback: TlsFailure? = urlError.code == .secureConnectionFailed ? .handshakeFailed : nil
        guard let failure = TlsFailure(reason: message) ?? fallback else { return error }
        return failure.urlError(underlying: urlError, detail: message)
    }
}
