extension TlsFailure {
    /// The failure that a TLS library's words for a failed handshake tell, whichever library said them: libcurl
    /// passes OpenSSL's on ("SSL certificate problem: certificate has expired", "tlsv13 alert certificate
    /// required"), swift-nio-ssl BoringSSL's reason codes (`CERTIFICATE_VERIFY_FAILED`,
    /// `TLSV1_ALERT_CERTIFICATE_REQUIRED`). Both are read as the same words, so that every transport, and any
    /// transport still to come, tells failures apart by one table.
    /// - Parameter text: What the library said; `nil` results when it tells no TLS failure (e.g. "unexpected eof
    ///   while reading": a connection closed in the middle of an answer stays what it was, and is retried as such).
    package init?(reason text: String) {
        let words = text.lowercased().replacingOccurrences(of: "_", with: " ")
        guard let entry = Self.reasons.first(where: { $0.phrases.contains(where: words.contains) }) else { return nil }
        self = entry.failure
    }

    /// The words of OpenSSL, BoringSSL and libcurl for each failure, lowercased and with spaces for underscores; the
    /// first entry that matches wins, so that an alert about the client's certificate is not read as a problem with
    /// the server's.
    private static let reasons: [(failure: TlsFailure, phrases: [String])] = [
        (.clientCertificateRequired, ["certificate required"]),
        (
            .clientCertificateRejected,
            [
                "alert unknown ca", "alert bad certificate", "alert certificate unknown", "alert certificate expired",
                "alert certificate revoked", "alert unsupported certificate",
            ]
        ),
        (.expiredCertificate, ["certificate has expired"]),
        (.certificateNotYetValid, ["certificate is not yet valid"]),
        (
            .wrongHost,
            [
                "hostname mismatch", "ip address mismatch", "no alternative certificate subject name matches",
                "does not match target host name", "subject name does not match",
            ]
        ),
        // BoringSSL says no more than this of any failed check of the server's chain.
        (.untrustedCertificate, ["ssl certificate problem", "certificate verify failed"]),
        (
            .handshakeFailed,
            [
                "ssl connect", "tls connect error", "wrong version number", "handshake failure",
                "alert protocol version", "unsupported protocol", "no protocols available", "no shared cipher",
                "no cipher match", "cipher list",
            ]
        ),
    ]
}
