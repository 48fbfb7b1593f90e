import Foundation

extension RequestBuilder {
    /// The base URL's origin and path, one slash, the percent-encoded subpath, then the base URL's query followed by
    /// the endpoint's, and the base URL's fragment.
    static func url(for endpoint: some Endpoint, base: ParsedBaseUrl) throws(InvalidRequestError) -> URL {
        let subpath = endpoint.subpath
        var string = base.origin
        string += try joinedPath(base.percentEncodedPath, subpath)
        let endpointQuery = encodedQuery(endpoint.orderedQueryParameters)
        switch (base.percentEncodedQuery ?? "", endpointQuery) {
        case ("", ""): break
        case (let baseQuery, ""): string += "?" + baseQuery
        case ("", let query): string += "?" + query
        case (let baseQuery, let query): string += "?" + baseQuery + "&" + query
        }
        if let fragment = base.percentEncodedFragment { string += "#" + fragment }
        guard let url = URL(string: string) else {
            throw InvalidRequestError(
                reason: "the base URL \(quoted(base.url.absoluteString)) and subpath \(quoted(subpath)) "
                    + "do not form a URL"
            )
        }
        return url
    }

    /// Refuses a `.` or `..` segment: the transport (libcurl on Linux) would resolve it away, sending the request
    /// somewhere other than the URL the endpoint spelled.
    static func refuseDotSegments(in path: String, of source: String) throws(InvalidRequestError) {
        guard path.utf8.contains(UInt8(ascii: ".")) else { return }
        // Split at the byte: as Characters, a combining mark after "/" would join with it and hide the segment.
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if segments.contains(where: { $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }) {
            throw InvalidRequestError(
                reason: "the \(source) \(quoted(path)) has a \".\" or \"..\" segment, which would be resolved "
                    + "away before sending"
            )
        }
    }

    /// Exactly one slash between the base path and the subpath, whichever side brings its own.
    private static func joinedPath(_ basePath: String, _ subpath: String) throws(InvalidRequestError) -> String {
        try refuseDotSegments(in: subpath, of: "subpath")
        let trimmedBase = basePath.hasSuffix("/") ? basePath.dropLast() : Substring(basePath)
        // At the byte: a combining mark after the slash joins it into one Character that `hasPrefix("/")` misses.
        let trimmedSubpath =
            subpath.utf8.first == UInt8(ascii: "/") ? Substring(subpath.utf8.dropFirst()) : Substring(subpath)
        guard !trimmedSubpath.isEmpty else { return basePath.isEmpty ? "/" : basePath }
        return trimmedBase + "/" + PercentEncoding.encode(trimmedSubpath, allowing: PercentEncoding.pathAllowed)
    }

    private static func encodedQuery(_ parameters: [(key: String, value: QueryParameterValue)]) -> String {
        guard !parameters.isEmpty else { return "" }
        return parameters.compactMap { key, value in value.encoded(key: key) }.joined(separator: "&")
    }
}
