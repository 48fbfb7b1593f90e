import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds the `URLRequest` for an endpoint: URL joining, query encoding, method, body and headers.
///
/// Every input that could produce a request different from what the endpoint says is refused with a reason
/// instead: a base URL without an http(s) scheme or host, a method or header name that is not an HTTP token, a
/// header value with CR, LF or NUL (header injection).
enum RequestBuilder {
    static func request<EndpointType: Endpoint>(
        for endpoint: EndpointType,
        baseUrl: URL?
    ) -> Result<URLRequest, InvalidRequestError> {
        Result { () throws(InvalidRequestError) in
            let url = try url(for: endpoint, baseUrl: baseUrl ?? endpoint.baseUrl)
            var request = URLRequest(url: url)
            let method = endpoint.method
            guard isToken(method.name) else {
                throw InvalidRequestError(reason: "the method \(quoted(method.name)) is not a valid HTTP method token")
            }
            request.httpMethod = method.name
            request.httpBody = method.body
            // Checked before `setValue`: FoundationNetworking silently drops a value with CR or LF, which would
            // send the request without the header instead of refusing it.
            for (name, value) in endpoint.headers.sorted(by: { $0.key < $1.key }) {
                try validateHeader(name: name, value: value)
                request.setValue(value, forHTTPHeaderField: name)
            }
            return request
        }
    }

    /// Refuses header names that are not HTTP tokens and values holding CR, LF or NUL, which would let one
    /// header smuggle another (or a whole request) onto the wire.
    static func validateHeaders(of request: URLRequest) throws(InvalidRequestError) {
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            try validateHeader(name: name, value: value)
        }
    }

    private static func validateHeader(name: String, value: String) throws(InvalidRequestError) {
        guard isToken(name) else {
            throw InvalidRequestError(reason: "the header name \(quoted(name)) is not a valid HTTP token")
        }
        // The value itself stays out of the reason: it may be a credential, and reasons end up in logs.
        guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw InvalidRequestError(reason: "the value of header \(quoted(name)) contains CR, LF or NUL")
        }
    }

    private static func url(for endpoint: some Endpoint, baseUrl: URL) throws(InvalidRequestError) -> URL {
        guard var components = URLComponents(url: baseUrl, resolvingAgainstBaseURL: true) else {
            throw InvalidRequestError(reason: "the base URL \(quoted(baseUrl.absoluteString)) cannot be parsed")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw InvalidRequestError(
                reason: "the base URL \(quoted(baseUrl.absoluteString)) does not start with http:// or https://"
            )
        }
        guard let host = components.host, !host.isEmpty else {
            throw InvalidRequestError(reason: "the base URL \(quoted(baseUrl.absoluteString)) has no host")
        }
        components.percentEncodedPath = joinedPath(components.percentEncodedPath, endpoint.subpath)
        let query = [components.percentEncodedQuery, encodedQuery(endpoint.queryParameters)]
            .compactMap { $0 }
            .filter { !$0.isEmpty }
            .joined(separator: "&")
        components.percentEncodedQuery = query.isEmpty ? nil : query
        guard let url = components.url else {
            throw InvalidRequestError(
                reason: "the base URL \(quoted(baseUrl.absoluteString)) and subpath \(quoted(endpoint.subpath)) "
                    + "do not form a URL"
            )
        }
        return url
    }

    /// Exactly one slash between the base path and the subpath, whichever side brings its own.
    private static func joinedPath(_ basePath: String, _ subpath: String) -> String {
        let trimmedBase = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        let trimmedSubpath = subpath.hasPrefix("/") ? String(subpath.dropFirst()) : subpath
        guard !trimmedSubpath.isEmpty else { return basePath.isEmpty ? "/" : basePath }
        return trimmedBase + "/" + percentEncoded(trimmedSubpath, allowing: pathAllowed)
    }

    /// Sorted by key so that the same endpoint always produces the same URL (a dictionary has no order).
    private static func encodedQuery(_ parameters: [String: QueryParameterValue]) -> String {
        parameters.sorted { $0.key < $1.key }
            .flatMap { key, value in
                value.values.map {
                    percentEncoded(key, allowing: unreserved) + "=" + percentEncoded($0, allowing: unreserved)
                }
            }
            .joined(separator: "&")
    }

    private static func percentEncoded(_ string: String, allowing allowed: Set<UInt8>) -> String {
        var encoded = ""
        encoded.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if allowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0x0F)]
            }
        }
        return encoded
    }

    /// RFC 3986 unreserved characters: everything else in a query key or value is percent-encoded, so that
    /// `+`, `&`, `=` and `#` arrive as themselves.
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// RFC 3986 path characters plus `/`; `?`, `#`, `%` and spaces are encoded, so a subpath cannot start a
    /// query or fragment.
    private static let pathAllowed = unreserved.union("!$&'()*+,;=:@/".utf8)

    private static let hexDigits = Array("0123456789ABCDEF").map(String.init)

    /// RFC 9110 token characters, for methods and header names.
    private static let tokenCharacters = unreserved.union("!#$%&'*+^`|".utf8)

    private static func isToken(_ string: String) -> Bool {
        !string.isEmpty && string.utf8.allSatisfy(tokenCharacters.contains)
    }

    private static func quoted(_ string: String) -> String {
        "\"" + string.debugDescription.dropFirst().dropLast() + "\""
    }
}
