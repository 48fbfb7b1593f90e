import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An answer that is not valid HTTP, that was cut off, or whose compressed body does not inflate, reported the
/// same way by every transport: `URLError(.badServerResponse)`, `.networkConnectionLost` and
/// `.cannotDecodeContentData`, whatever words libcurl or NIO used.
package enum MalformedResponse {
    /// Why a response's framing cannot be trusted, or `nil` when it can.
    ///
    /// RFC 9112, section 6.3: `Content-Length` values that disagree make the body's end unknowable, and
    /// `Content-Length` beside `Transfer-Encoding` is how responses are split and requests smuggled. NIO's parser
    /// refuses both, and any repeated `Content-Length` (RFC 9110 allows that); libcurl reads on. Courier refuses them
    /// over URLSession too, so that both transports agree. Answers without a body (to HEAD, 1xx, 204, 304) end at
    /// their head whatever it says, and are not checked.
    /// - Parameters:
    ///   - contentLength: The `Content-Length` field, with repeated ones joined by commas as Foundation joins them
    ///     (repeats spelled in different letter cases reach Foundation's dictionary as one, and are not seen).
    ///   - transferEncoding: The `Transfer-Encoding` field.
    package static func framingProblem(
        contentLength: String?,
        transferEncoding: String?,
        statusCode: Int,
        isHead: Bool
    ) -> String? {
        guard let contentLength, !isHead, statusCode >= 200, statusCode != 204, statusCode != 304 else { return nil }
        if transferEncoding != nil {
            return "the answer has both Content-Length and Transfer-Encoding, so its end is ambiguous"
        }
        // Spaces and tabs around the value are allowed (RFC 9110, section 5.5); Foundation keeps trailing ones. Read
        // in place, as bytes: this runs for every answer.
        let bytes = contentLength.utf8
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }),
            let last = bytes.lastIndex(where: { !isBlank($0) }),
            bytes[first...last].allSatisfy(isDigit)
        else {
            return "the answer's Content-Length \"\(contentLength)\" is not one length"
        }
        return nil
    }

    /// The error for an answer with `problem`.
    package static func error(_ problem: String, url: URL?) -> URLError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: problem]
        userInfo[NSURLErrorFailingURLErrorKey] = url
        return URLError(.badServerResponse, userInfo: userInfo)
    }

    /// What libcurl says of an answer that broke HTTP's grammar or framing.
    private static let malformedPhrases = [
        "illegal or missing hexadecimal sequence in chunked-encoding", "unsupported response code in http response",
        "unsupported http version",
        "failed writing header", "too large response headers", "weird server reply", "invalid content-length",
        "header without colon", "nul byte in header", "received http/0.9",
    ]

    /// What libcurl says when the connection closed or was reset before the answer was whole (a reset usually
    /// comes as `.networkConnectionLost` already, but now and then as `.unknown` with this text), or while the request
    /// was still being sent: a closed connection under an upload is "Send failure: Broken pipe", which
    /// FoundationNetworking reports as `.unknown`, and the AsyncHTTPClient transport as `.networkConnectionLost`.
    private static let cutOffPhrases = [
        "transfer closed with", "connection died", "connection reset by peer", "broken pipe",
    ]

    /// `error` as `.badServerResponse`, `.networkConnectionLost` or `.cannotDecodeContentData` when libcurl's text
    /// says the answer was malformed, cut off or did not inflate (FoundationNetworking reports these as `.unknown`,
    /// and a malformed status line as `.unsupportedURL`), or `error` as it was.
    package static func classifyingLibcurlError(_ error: Error) -> Error {
        guard let urlError = error as? URLError, urlError.code == .unknown || urlError.code == .unsupportedURL
        else { return error }
        let text = (urlError.userInfo[NSLocalizedDescriptionKey] as? String) ?? ""
        let message = text.lowercased()
        let scheme = urlError.failingURL?.scheme?.lowercased()
        let code: URLError.Code
        if malformedPhrases.contains(where: message.contains) {
            code = .badServerResponse
        } else if urlError.code == .unsupportedURL, scheme == "http" || scheme == "https",
            !message.contains("not supported or disabled")
        {
            // For an http or https URL, libcurl's "unsupported protocol" is about the answer (a status line it cannot
            // read), unless libcurl was built without the protocol; under load it comes without its text.
            code = .badServerResponse
        } else if urlError.code == .unknown, cutOffPhrases.contains(where: message.contains) {
            code = .networkConnectionLost
        } else if urlError.code == .unknown, message.contains("error while processing content unencoding") {
            code = .cannotDecodeContentData
        } else {
            return error
        }
        // The failing URL goes along: the caller's message names it.
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: text, NSUnderlyingErrorKey: urlError]
        userInfo[NSURLErrorFailingURLErrorKey] = urlError.userInfo[NSURLErrorFailingURLErrorKey]
        return URLError(code, userInfo: userInfo)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
