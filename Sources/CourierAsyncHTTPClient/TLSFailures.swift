import Courier
import Foundation
import NIOSSL

/// swift-nio-ssl's handshake errors as Courier's `TLSFailure`s.
///
/// BoringSSL reports every failed certificate check as `CERTIFICATE_VERIFY_FAILED`, without the reason, and
/// AsyncHTTPClient offers no verification callback that would see it: an expired certificate is reported as
/// `TLSFailure.untrustedCertificate` here. A certificate for another host is caught by swift-nio-ssl itself, and
/// alerts from the server name their cause.
enum TLSFailures {
    static func urlError(for error: Error) -> URLError? {
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return TLSFailure.wrongHost.urlError(underlying: error, detail: "\(extra)")
        }
        let reasons: [String]
        if let sslError = error as? NIOSSLError {
            switch sslError {
            case .handshakeFailed(let boringError): reasons = Self.reasons(in: boringError)
            case .unableToValidateCertificate, .noCertificateToValidate:
                return TLSFailure.untrustedCertificate.urlError(underlying: error, detail: "\(sslError)")
            default: return nil
            }
        } else if let boringError = error as? BoringSSLError {
            reasons = Self.reasons(in: boringError)
        } else {
            return nil
        }
        return failure(forReasons: reasons).urlError(underlying: error, detail: reasons.joined(separator: ", "))
    }

    /// BoringSSL's reason codes, e.g. `CERTIFICATE_VERIFY_FAILED`, or `TLSV1_ALERT_CERTIFICATE_REQUIRED` for an alert
    /// the server sent.
    private static func reasons(in error: BoringSSLError) -> [String] {
        guard case .sslError(let errors) = error else { return ["\(error)"] }
        return errors.map { entry in
            let text = "\(entry)"
            guard let reasonStart = text.range(of: "OPENSSL_internal:") else { return text }
            return String(text[reasonStart.upperBound...].prefix { $0 != " " })
        }
    }

    private static func failure(forReasons reasons: [String]) -> TLSFailure {
        let text = reasons.joined(separator: " ").uppercased()
        if text.contains("CERTIFICATE_REQUIRED") { return .clientCertificateRequired }
        if text.contains("ALERT_UNKNOWN_CA") || text.contains("ALERT_BAD_CERTIFICATE")
            || text.contains("ALERT_CERTIFICATE_UNKNOWN") || text.contains("ALERT_CERTIFICATE_EXPIRED")
        {
            return .clientCertificateRejected
        }
        if text.contains("CERTIFICATE_VERIFY_FAILED") { return .untrustedCertificate }
        return .handshakeFailed
    }
}
