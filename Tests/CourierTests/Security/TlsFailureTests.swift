@testable import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What libcurl says, as FoundationNetworking passes it on, told apart; and redirects that leave HTTPS.
@Suite struct TlsFailureTests {
    /// libcurl's texts: "SSL certificate problem: " and OpenSSL's verification result, or OpenSSL's own reason.
    @Test(arguments: [
        ("SSL certificate problem: unable to get local issuer certificate", TlsFailure.untrustedCertificate),
        ("SSL certificate problem: self-signed certificate", .untrustedCertificate),
        ("SSL certificate problem: self signed certificate in certificate chain", .untrustedCertificate),
        ("SSL certificate problem: certificate has expired", .expiredCertificate),
        ("SSL certificate problem: certificate is not yet valid", .certificateNotYetValid),
        ("SSL: no alternative certificate subject name matches target host name '127.0.0.1'", .wrongHost),
        ("SSL: certificate subject name 'wrong.example.com' does not match target host name 'localhost'", .wrongHost),
        ("OpenSSL/3.0.15: error:0A00045C:SSL routines::tlsv13 alert certificate required", .clientCertificateRequired),
        ("OpenSSL/3.0.15: error:0A000418:SSL routines::tlsv1 alert unknown ca", .clientCertificateRejected),
        ("OpenSSL/3.0.15: error:0A00010B:SSL routines::wrong version number", .handshakeFailed),
        ("TLS connect error: error:0A000410:SSL routines::sslv3 alert handshake failure", .handshakeFailed),
    ])
    func libcurlsMessageTellsTheFailure(message: String, expected: TlsFailure) {
        #expect(TlsFailure(reason: message) == expected)
        let error = TlsFailure.classifyingLibcurlError(
            URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])
        )
        #expect(TlsFailure(error) == expected)
        #expect((error as? URLError)?.localizedDescription.contains(message) == true)
    }

    /// swift-nio-ssl's reason codes (BoringSSL's), as AsyncHTTPClient's transport hands them to the same table.
    @Test(arguments: [
        ("CERTIFICATE_VERIFY_FAILED", TlsFailure.untrustedCertificate),
        ("TLSV1_ALERT_CERTIFICATE_REQUIRED", .clientCertificateRequired),
        ("TLSV1_ALERT_UNKNOWN_CA", .clientCertificateRejected),
        ("SSLV3_ALERT_BAD_CERTIFICATE", .clientCertificateRejected),
        ("SSLV3_ALERT_CERTIFICATE_EXPIRED", .clientCertificateRejected),
        ("SSLV3_ALERT_CERTIFICATE_UNKNOWN", .clientCertificateRejected),
        ("WRONG_VERSION_NUMBER", .handshakeFailed),
        ("TLSV1_ALERT_PROTOCOL_VERSION", .handshakeFailed),
        ("SSLV3_ALERT_HANDSHAKE_FAILURE", .handshakeFailed),
        ("UNSUPPORTED_PROTOCOL", .handshakeFailed),
        ("NO_SHARED_CIPHER", .handshakeFailed),
    ])
    func boringSSLsReasonTellsTheFailure(reason: String, expected: TlsFailure) {
        #expect(TlsFailure(reason: reason) == expected)
        #expect(TlsFailure(reason: "HANDSHAKE_FAILURE_ON_CLIENT_HELLO, \(reason)") == expected)
    }

    /// Connection failures that mention OpenSSL but are not a handshake's stay what they were, and are retried as such.
    @Test(arguments: [
        "Couldn't connect to server",
        "OpenSSL SSL_read: error:0A000126:SSL routines::unexpected eof while reading, errno 0",
        "Failed to connect to mtls.example.com port 443 after 3 ms: No route to host",
        "Recv failure: Connection reset by peer",
        "OpenSSL SSL_write: Broken pipe, errno 32",
    ])
    func connectionFailuresAreNotTlsFailures(message: String) {
        #expect(TlsFailure(reason: message) == nil)
        let error = TlsFailure.classifyingLibcurlError(
            URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])
        )
        #expect((error as? URLError)?.code == .unknown)
    }

    @Test func otherFailuresAreLeftAsTheyWere() {
        let refused = URLError(.cannotConnectToHost)
        #expect((TlsFailure.classifyingLibcurlError(refused) as? URLError)?.code == .cannotConnectToHost)
        #expect(ApiError<TestError>.noResponseReceived(error: refused).tlsFailure == nil)
    }

    /// `.serverCertificateUntrusted` is shared by the failures a code alone must not name (see below).
    @Test func everyFailureHasItsOwnCodeAndReadsBackFromTheErrorMadeForIt() {
        let named = TlsFailure.allCases.filter { $0.code != .serverCertificateUntrusted }
        #expect(Set(named.map(\.code)).count == named.count)
        #expect(Set(TlsFailure.allCases).subtracting(named) == [.wrongHost, .publicKeyMismatch])
        for failure in TlsFailure.allCases {
            #expect(TlsFailure(failure.urlError(underlying: URLError(.unknown), detail: "d")) == failure)
        }
    }

    /// Apple's URLSession says `.serverCertificateUntrusted` for many certificate problems: it tells none apart.
    @Test func aSystemErrorIsReadByItsCodeExceptTheAmbiguousOne() {
        #expect(TlsFailure(URLError(.serverCertificateHasBadDate)) == .expiredCertificate)
        #expect(TlsFailure(URLError(.serverCertificateHasUnknownRoot)) == .untrustedCertificate)
        #expect(TlsFailure(URLError(.secureConnectionFailed)) == .handshakeFailed)
        #expect(TlsFailure(URLError(.serverCertificateUntrusted)) == nil)
    }

    /// URLSession on Linux cannot reach the HTTPS test server (no private authority can be trusted), so the
    /// delegate that decides what a redirect carries is asked directly.
    @Test(arguments: [
        ("https://127.0.0.1:8443/redirect", "http://127.0.0.1:8443/echo", false),
        ("https://127.0.0.1:8443/redirect", "http://127.0.0.1:8080/echo", false),
        ("https://localhost/redirect", "http://localhost/echo", false),
        ("https://127.0.0.1:8443/redirect", "https://127.0.0.1:8443/echo", true),
    ])
    func aRedirectLeavingHttpsCarriesNoCredentialOverURLSession(from: String, to: String, keeps: Bool) async throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URLRequest(url: try #require(URL(string: from))))
        defer { task.cancel() }
        var next = URLRequest(url: try #require(URL(string: to)))
        let credentials = ["Authorization": "Bearer secret", "Proxy-Authorization": "Basic c2VjcmV0", "Cookie": "a=b"]
        for (name, value) in credentials { next.setValue(value, forHTTPHeaderField: name) }
        next.setValue("1", forHTTPHeaderField: "X-Kept")
        let origin = try #require(URL(string: from))
        let response = try #require(
            HTTPURLResponse(url: origin, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: [:])
        )
        let redirected = await withCheckedContinuation { continuation in
            URLSessionTransportDelegate().urlSession(
                session,
                task: task,
                willPerformHTTPRedirection: response,
                newRequest: next
            ) { continuation.resume(returning: $0) }
        }
        #expect(redirected?.value(forHTTPHeaderField: "X-Kept") == "1")
        for name in credentials.keys {
            #expect((redirected?.value(forHTTPHeaderField: name) != nil) == keeps, "\(name)")
        }
    }
}
