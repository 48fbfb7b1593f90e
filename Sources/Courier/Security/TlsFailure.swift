import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a TLS connection could not be made, told apart the same way on every transport: each cause is reported as
/// ``ApiError/noResponseReceived(error:)`` with a `URLError` of its own ``code``, whose description says which
/// cause it was, and ``ApiError/tlsFailure`` reads it back. `RetryPlugin` never retries any of them: another
/// attempt would meet the same certificate.
public enum TlsFailure: Sendable, Hashable, CaseIterable {
    /// The server's certificate does not chain to a trusted authority (a private or self-signed one, or, with
    /// ``TlsOptions/TrustRoots/only(_:)``, any other than those): `URLError.serverCertificateHasUnknownRoot`.
    case untrustedCertificate
    /// The server's certificate has expired: `URLError.serverCertificateHasBadDate`.
    case expiredCertificate
    /// The server's certificate is not valid yet: `URLError.serverCertificateNotYetValid`.
    case certificateNotYetValid
    /// The server's certificate is not for the host asked for: `URLError.serverCertificateUntrusted`.
    case wrongHost
    /// The server asked for a client certificate and none was presented: `URLError.clientCertificateRequired`.
    case clientCertificateRequired
    /// The server refused the client certificate presented: `URLError.clientCertificateRejected`.
    case clientCertificateRejected
    /// The server's certificate is trusted, but its key is none of ``TlsOptions/pinnedPublicKeys``:
    /// `URLError.serverCertificateUntrusted`, told apart by the error's own description.
    case publicKeyMismatch
    /// The handshake failed for another reason (no protocol version or cipher in common, a server that does not
    /// speak TLS): `URLError.secureConnectionFailed`.
    case handshakeFailed

    /// The `URLError` code this failure is reported with.
    public var code: URLError.Code {
        switch self {
        case .untrustedCertificate: .serverCertificateHasUnknownRoot
        case .expiredCertificate: .serverCertificateHasBadDate
        case .certificateNotYetValid: .serverCertificateNotYetValid
        case .wrongHost: .serverCertificateUntrusted
        case .clientCertificateRequired: .clientCertificateRequired
        case .clientCertificateRejected: .clientCertificateRejected
        case .publicKeyMismatch: .serverCertificateUntrusted
        case .handshakeFailed: .secureConnectionFailed
        }
    }

    /// The failure an error reports, or `nil` when it is not one of these.
    ///
    /// An error made by ``urlError(underlying:detail:)`` says its failure; any other `URLError` is read by its code,
    /// except `.serverCertificateUntrusted`, which Apple's URLSession reports for many certificate problems, a wrong
    /// host among them, and which so tells none of them apart.
    /// - Parameter error: The error, e.g. the one ``ApiError/noResponseReceived(error:)`` carries.
    public init?(_ error: Error) {
        guard let urlError = error as? URLError else { return nil }
        if let name = urlError.userInfo[Self.failureKey] as? String,
            let failure = Self.allCases.first(where: { "\($0)" == name })
        {
            self = failure
            return
        }
        guard urlError.code != .serverCertificateUntrusted,
            let failure = Self.allCases.first(where: { $0.code == urlError.code })
        else { return nil }
        self = failure
    }

    /// Where ``urlError(underlying:detail:)`` names the failure.
    private static let failureKey = "CourierTLSFailure"

    /// The error a transport reports: ``code``, a description saying which failure it was and what the TLS library
    /// said, and the library's own error underneath.
    /// - Parameters:
    ///   - underlying: The TLS library's error.
    ///   - detail: What the TLS library said, in short, e.g. `unable to get local issuer certificate`.
    public func urlError(underlying: Error, detail: String) -> URLError {
        URLError(
            code,
            userInfo: [
                NSLocalizedDescriptionKey: "\(summary) (\(detail))",
                NSUnderlyingErrorKey: underlying,
                Self.failureKey: "\(self)",
            ]
        )
    }

    /// What happened, in a sentence's first half.
    public var summary: String {
        switch self {
        case .untrustedCertificate: "The server's certificate is not from a trusted certificate authority"
        case .expiredCertificate: "The server's certificate has expired"
        case .certificateNotYetValid: "The server's certificate is not valid yet"
        case .wrongHost: "The server's certificate is for another host"
        case .clientCertificateRequired: "The server requires a client certificate and none was presented"
        case .clientCertificateRejected: "The server refused the client certificate"
        case .publicKeyMismatch: "The server's certificate does not have a pinned public key"
        case .handshakeFailed: "The TLS handshake failed"
        }
    }
}

extension ApiError {
    /// The TLS failure that ended the request, when it was one (see ``TlsFailure``).
    public var tlsFailure: TlsFailure? {
        guard case .noResponseReceived(let error?) = self else { return nil }
        return TlsFailure(error)
    }
}
