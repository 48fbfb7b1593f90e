#if AsyncHTTPClient || WebSocket
import Courier
import Foundation
import NIOSSL

/// swift-nio-ssl's handshake errors as Courier's `TlsFailure`s, read by the reasons table all transports share
/// (`TlsFailure.init(reason:)`).
///
/// BoringSSL reports every failed certificate check as `CERTIFICATE_VERIFY_FAILED`, without the reason, and neither
/// AsyncHTTPClient nor the WebSocket client offers a verification callback that would see it: an expired certificate
/// is reported as `TlsFailure.untrustedCertificate` here. A certificate for another host is caught by swift-nio-ssl
/// itself, and alerts from the server name their cause.
package enum TlsFailures {
    package static func urlError(for error: Error) -> URLError? {
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return TlsFailure.wrongHost.urlError(underlying: error, detail: "\(extra)")
        }
        if let sslError = error as? NIOSSLError {
            switch sslError {
            case .handshakeFailed(let boringError):
                let reasons = Self.reasons(in: boringError).joined(separator: ", ")
                let failure = TlsFailure(reason: reasons) ?? .handshakeFailed
                return failure.urlError(underlying: error, detail: reasons)
            case .unableToValidateCertificate, .noCertificateToValidate:
                return TlsFailure.untrustedCertificate.urlError(underlying: error, detail: "\(sslError)")
            default: return nil
            }
        }
        // Read from an established connection: under TLS 1.3 the server judges the client's certificate after the
        // client has finished its handshake, and says so with an alert. Any other error there is not a TLS failure.
        if let boringError = error as? BoringSSLError {
            let reasons = Self.reasons(in: boringError).joined(separator: ", ")
            guard let failure = TlsFailure(reason: reasons),
                failure == .clientCertificateRequired || failure == .clientCertificateRejected
            else { return nil }
            return failure.urlError(underlying: error, detail: reasons)
        }
        return nil
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
}
#endif
