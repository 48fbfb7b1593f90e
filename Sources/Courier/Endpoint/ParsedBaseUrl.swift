import Foundation

/// A base URL checked and taken apart once, so that each request only appends its subpath and query to strings.
///
/// Parsing a URL with `URLComponents` and forming one again costs more than the rest of building a request; a
/// provider's requests almost always share one base URL, so ``BaseUrlCache`` keeps the last one parsed.
struct ParsedBaseUrl: Sendable {
    let url: URL
    /// `scheme://user:password@host:port`, as the base URL spelled it.
    let origin: String
    let percentEncodedPath: String
    let percentEncodedQuery: String?
    let percentEncodedFragment: String?

    /// Refuses a base URL that is not absolute http(s) with a host.
    init(_ url: URL) throws(InvalidRequestError) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw InvalidRequestError(
                reason: "the base URL \(RequestBuilder.quoted(url.absoluteString)) cannot be parsed"
            )
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw InvalidRequestError(
                reason:
                    "the base URL \(RequestBuilder.quoted(url.absoluteString)) does not start with http:// or https://"
            )
        }
        guard let host = components.host, !host.isEmpty else {
            throw InvalidRequestError(reason: "the base URL \(RequestBuilder.quoted(url.absoluteString)) has no host")
        }
        try RequestBuilder.refuseDotSegments(in: components.percentEncodedPath, of: "base URL path")
        self.url = url
        percentEncodedPath = components.percentEncodedPath
        percentEncodedQuery = components.percentEncodedQuery
        percentEncodedFragment = components.percentEncodedFragment
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        guard let origin = components.string else {
            throw InvalidRequestError(
                reason: "the base URL \(RequestBuilder.quoted(url.absoluteString)) cannot be parsed"
            )
        }
        self.origin = origin
    }
}

/// The last base URL a provider parsed, reused while the next request has the same one.
final class BaseUrlCache: Sendable {
    private let last = Locked<ParsedBaseUrl?>(nil)

    init() {}

    func parsed(_ url: URL) throws(InvalidRequestError) -> ParsedBaseUrl {
        if let hit = last.withLock({ $0 }), hit.url == url { return hit }
        let parsed = try ParsedBaseUrl(url)
        last.withLock { $0 = parsed }
        return parsed
    }
}
