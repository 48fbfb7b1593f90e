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
    /// `Content-Length` beside `Transfer-Encoding` is how responses are split and requests smuggled; a client must
    /// not use such an answer. AsyncHTTPClient's parser refuses both; libcurl reads on, so Courier checks.
    /// - Parameter headerFields: The fields, with repeated ones joined by commas as Foundation joins them.
    package static func framingProblem(in headerFields: [String: String]) -> String? {
        var contentLength: String?
        var transferEncoding: String?
        for (name, value) in headerFields {
            if name.caseInsensitiveCompare("Content-Length") == .orderedSame { contentLength = value }
            if name.caseInsensitiveCompare("Transfer-Encoding") == .orderedSame { transferEncoding = value }
        }
        guard let contentLength else { return nil }
        if transferEncoding != nil {
            return "the answer has both Content-Length and Transfer-Encoding, so its end is ambiguous"
        }
        let values = Set(contentLength.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard values.count == 1, let value = values.first, !value.isEmpty, value.utf8.allSatisfy(isDigit) else {
            return "the answer's Content-Length \"\(contentLength)\" is not one length"
        }
        return nil
    }

    /// The error for an answer with `problem`.
    package static func error(_ problem: String) -> URLError {
        URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: problem])
    }

    /// What libcurl says of an answer that broke HTTP's grammar or framing.
    private static let malformedPhrases = [
        "illegal or missing hexadecimal sequence in chunked-encoding", "unsupported response code in http response",
        "failed writing header", "too large response headers", "weird server reply", "invalid content-length",
        "header without colon", "nul byte in header", "received http/0.9",
    ]

    /// What libcurl says when the connection closed before the announced body was whole.
    private static let cutOffPhrases = ["transfer closed with", "connection died"]

    /// `error` as `.badServerResponse`, `.networkConnectionLost` or `.cannotDecodeContentData` when libcurl's text
    /// says the answer was malformed, cut off or did not inflate (FoundationNetworking reports these as `.unknown`,
    /// and a malformed status line as `.unsupportedURL`), or `error` as it was.
    package static func classifyingLibcurlError(_ error: Error) -> Error {
        guard let urlError = error as? URLError, urlError.code == .unknown || urlError.code == .unsupportedURL
        else { return error }
        let message = ((urlError.userInfo[NSLocalizedDescriptionKey] as? String) ?? "").lowercased()
        let scheme = urlError.failingURL?.scheme?.lowercased()
        let code: URLError.Code
        // For an http or https URL, libcurl's "unsupported protocol" is about the answer (a status line it cannot
        // read), and under load it comes without its text.
        if urlError.code == .unsupportedURL, scheme == "http" || scheme == "https" {
            code = .badServerResponse
        } else if malformedPhrases.contains(where: message.contains) {
            code = .badServerResponse
        } else if urlError.code == .unknown, cutOffPhrases.contains(where: message.contains) {
            code = .networkConnectionLost
        } else if urlError.code == .unknown, message.contains("error while processing content unencoding") {
            code = .cannotDecodeContentData
        } else {
            return error
        }
        return URLError(code, userInfo: [NSLocalizedDescriptionKey: message, NSUnderlyingErrorKey: urlError])
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
