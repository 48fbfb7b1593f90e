#if canImport(CCourierCurl)
import CCourierCurl
import CLibcurl
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// libcurl's result codes as the `URLError`s every Courier transport reports for the same failures, read from the
/// code and, for TLS, from OpenSSL's verification result: never from libcurl's words alone.
enum CurlErrors {
    static func error(for code: CURLcode, of exchange: CurlSending) -> any Error {
        let words = exchange.failureWords
        let described = words.isEmpty ? String(cString: curl_easy_strerror(code)) : words
        func urlError(_ urlCode: URLError.Code) -> URLError {
            URLError(
                urlCode,
                userInfo: [
                    NSLocalizedDescriptionKey: described,
                    NSURLErrorFailingURLErrorKey: exchange.url,
                    "CURLcode": Int(code.rawValue),
                ]
            )
        }
        // TLS 1.3 alerts the client after its side of the handshake has ended: a missing or refused client
        // certificate arrives with the first read, as a failed read.
        if code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR || code == CURLE_GOT_NOTHING, exchange.isSecure,
            let failure = TlsFailure(reason: described)
        {
            return failure.urlError(underlying: urlError(.secureConnectionFailed), detail: described)
        }
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            // For an http or https URL, an answer whose status line libcurl cannot read.
            let scheme = exchange.url.scheme?.lowercased()
            return urlError(scheme == "http" || scheme == "https" ? .badServerResponse : .unsupportedURL)
        case CURLE_URL_MALFORMAT: return urlError(.badURL)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return urlError(.cannotFindHost)
        case CURLE_COULDNT_CONNECT: return urlError(.cannotConnectToHost)
        case CURLE_OPERATION_TIMEDOUT: return urlError(.timedOut)
        case CURLE_WEIRD_SERVER_REPLY: return urlError(.badServerResponse)
        case CURLE_TOO_MANY_REDIRECTS: return urlError(.httpTooManyRedirects)
        case CURLE_BAD_CONTENT_ENCODING: return urlError(.cannotDecodeContentData)
        case CURLE_OUT_OF_MEMORY where !exchange.headTaken:
            // libcurl's code for a header line over its 100 KB limit: the server's answer, not this process's memory.
            return urlError(.badServerResponse)
        case CURLE_RECV_ERROR where !exchange.headTaken && exchange.headerBytes >= maximumHeadBytes:
            // A head over libcurl's 300 KB limit for all its lines.
            return urlError(.badServerResponse)
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3:
            return urlError(.networkConnectionLost)
        case CURLE_RECV_ERROR:
            // A chunk size that is not hexadecimal is a malformed answer; anything else, a connection cut.
            let lowered = described.lowercased()
            return urlError(lowered.contains("chunk") ? .badServerResponse : .networkConnectionLost)
        case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR, CURLE_READ_ERROR:
            return urlError(.unknown)
        case CURLE_SSL_CACERT_BADFILE:
            return InvalidRequestError(reason: "the TLS trust roots could not be read: \(described)")
        case CURLE_SSL_CERTPROBLEM:
            return InvalidRequestError(reason: "the TLS client identity cannot be used: \(described)")
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return TlsFailure.publicKeyMismatch.urlError(
                underlying: urlError(.secureConnectionFailed),
                detail: described
            )
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CIPHER,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED:
            let failure = tlsFailure(verifyResult: exchange.verifyResult, words: described) ?? .handshakeFailed
            return failure.urlError(underlying: urlError(.secureConnectionFailed), detail: described)
        default:
            return urlError(.unknown)
        }
    }

    /// libcurl's limit on one header line (`CURL_MAX_HTTP_HEADER`, 100 KB); a whole head may have three times that.
    static let maximumHeadBytes = 100 * 1024

    /// The failure OpenSSL's verification result tells (`X509_V_ERR_*`), else the one libcurl's words tell: libcurl
    /// checks the host name itself, after a verification OpenSSL passed.
    static func tlsFailure(verifyResult: Int, words: String) -> TlsFailure? {
        switch verifyResult {
        case 9: return .certificateNotYetValid
        case 10: return .expiredCertificate
        case 62, 64: return .wrongHost
        case 2, 18, 19, 20, 21, 27, 28: return .untrustedCertificate
        default: return TlsFailure(reason: words)
        }
    }
}

extension CurlSending {
    var isSecure: Bool { url.scheme?.lowercased() == "https" }

    /// OpenSSL's verification result for the server's certificate (`X509_V_OK`, 0, when it passed or was not made).
    var verifyResult: Int {
        var result = 0
        _ = courier_curl_info_long(easy, CURLINFO_SSL_VERIFYRESULT, &result)
        return result
    }
}
#endif
