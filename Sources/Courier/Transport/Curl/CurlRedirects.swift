#if canImport(CCourierCurl)
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which answers are redirects to follow, and the request that follows one when Courier follows it rather than
/// libcurl (see ``CurlRedirectChain``).
enum CurlRedirects {
    /// Whether libcurl follows the redirects of a request with `method` itself: those of a `GET` or a `HEAD`, which
    /// have no body. libcurl sends a method it was given by name (`PUT`, `PATCH`, `DELETE`) on after any redirect,
    /// even a 303, and a `POST` it turns into a `GET` keeps its `Content-Type`.
    static func libcurlFollows(_ method: String) -> Bool {
        method == "GET" || method == "HEAD"
    }

    static func follows(statusCode: Int, location: @autoclosure () -> String?) -> Bool {
        guard (300..<400).contains(statusCode), statusCode != 304 else { return false }
        // libcurl passes over an empty `Location`: the 3xx is then the answer.
        guard let location = location() else { return false }
        return !location.allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// The request that follows `redirect` of `request`, by HTTP's rules (RFC 9110, section 15.4) and Courier's: a
    /// 303, or a 301 or 302 of a `POST` (as browsers and URLSession do), asks for a `GET` without the body and its
    /// fields; otherwise the method and the body are kept. A target of another origin (scheme, host or port) gets no
    /// `Authorization` and no `Cookie` field of the request's own.
    /// - Parameters:
    ///   - followed: How many redirects were followed before this one.
    ///   - options: The options of the request; those of the next are returned with it.
    static func request(
        following redirect: CurlRedirect,
        of request: URLRequest,
        options: TransportOptions,
        followed: Int
    ) throws -> (URLRequest, TransportOptions) {
        guard let origin = request.url,
            let target = URL(string: redirect.location, relativeTo: origin)?.absoluteURL
        else {
            throw URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
        }
        guard followed < RedirectPolicy.limit else {
            throw URLError(.httpTooManyRedirects, userInfo: [NSURLErrorFailingURLErrorKey: target])
        }
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw URLError(.unsupportedURL, userInfo: [NSURLErrorFailingURLErrorKey: target])
        }
        var next = request
        var nextOptions = options
        next.url = target
        let method = request.httpMethod ?? "GET"
        if redirect.statusCode == 303
            || (method == "POST" && (redirect.statusCode == 301 || redirect.statusCode == 302))
        {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            nextOptions.bodyFile = nil
            nextOptions.requestBody = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location"] {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        } else if options.requestBody != nil {
            throw CurlProducedBody.resendRefusal
        }
        // libcurl sends `Proxy-Authorization` to the proxy alone (`CURLOPT_PROXYHEADER`), which a redirect keeps.
        for name in RedirectPolicy.fieldsToDrop(from: origin, to: target, proxyCredentials: .toProxyAlone) {
            next.setValue(nil, forHTTPHeaderField: name)
        }
        return (next, nextOptions)
    }
}

/// A redirect that Courier follows: the answer of one exchange of a ``CurlRedirectChain``, never a caller's.
struct CurlRedirect: Error {
    let statusCode: Int
    let location: String
}
#endif
