import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An answer's status and headers, made into an `HTTPURLResponse` only when something asks for one.
///
/// On Linux, `HTTPURLResponse` parses `Content-Type` and other fields as it is made, which costs more than the rest of
/// Courier's work on a request (about 8 µs for a JSON answer's usual headers); decoding a body needs only the status.
/// Plugins, ``ApiProvider/fullResponse(on:decodeBodyTo:)`` and a live transport's delegate ask for the response, and
/// then it is made once.
final class ResponseHead: Sendable {
    /// The HTTP status, or `nil` for a response that is not HTTP.
    let statusCode: Int?
    private let parts: Parts?
    private let made: Locked<URLResponse?>

    private struct Parts: Sendable {
        let url: URL
        let httpVersion: String
        let headerFields: [String: String]
    }

    /// A response that exists already, e.g. URLSession's.
    init(_ response: URLResponse) {
        statusCode = (response as? HTTPURLResponse)?.statusCode
        parts = nil
        made = Locked(response)
    }

    /// An HTTP response to be made from its parts when first asked for.
    init(url: URL, statusCode: Int, httpVersion: String, headerFields: [String: String]) {
        self.statusCode = statusCode
        parts = Parts(url: url, httpVersion: httpVersion, headerFields: headerFields)
        made = Locked(nil)
    }

    /// The response, made on the first call; `nil` only if Foundation refuses to make one from the parts.
    var response: URLResponse? {
        made.withLock { made in
            if let made { return made }
            guard let parts, let statusCode else { return nil }
            made = HTTPURLResponse(
                url: parts.url,
                statusCode: statusCode,
                httpVersion: parts.httpVersion,
                headerFields: parts.headerFields
            )
            return made
        }
    }
}
