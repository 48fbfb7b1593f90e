import Foundation

extension RequestBuilder {
    static func url(for endpoint: some Endpoint, baseUrl: URL) throws(InvalidRequestError) -> URL {
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
        components.percentEncodedPath = try joinedPath(components.percentEncodedPath, endpoint.subpath)
        let query = [components.percentEncodedQuery, encodedQuery(endpoint.orderedQueryParameters)]
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
    ///
    /// A `.` or `..` segment is refused: the transport (libcurl on Linux) would resolve it away, sending the
    /// request somewhere other than the URL the endpoint spelled.
    private static func joinedPath(_ basePath: String, _ subpath: String) throws(InvalidRequestError) -> String {
        for (segment, source) in [(basePath, "base URL path"), (subpath, "subpath")] {
            let segments = segment.split(separator: "/", omittingEmptySubsequences: false)
            if segments.contains(where: { $0 == "." || $0 == ".." }) {
                throw InvalidRequestError(
                    reason: "the \(source) \(quoted(segment)) has a \".\" or \"..\" segment, which would be resolved "
                        + "away before sending"
                )
            }
        }
        let trimmedBase = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        let trimmedSubpath = subpath.hasPrefix("/") ? String(subpath.dropFirst()) : subpath
        guard !trimmedSubpath.isEmpty else { return basePath.isEmpty ? "/" : basePath }
        return trimmedBase + "/" + PercentEncoding.encode(trimmedSubpath, allowing: PercentEncoding.pathAllowed)
    }

    private static func encodedQuery(_ parameters: [(key: String, value: QueryParameterValue)]) -> String {
        parameters.compactMap { key, value in value.encoded(key: key) }.joined(separator: "&")
    }
}
