import Foundation

extension RequestBuilder {
    /// The base URL's origin and path, one slash, the percent-encoded subpath, then the base URL's query followed by
    /// the endpoint's, and the base URL's fragment.
    static func url(for endpoint: some Endpoint, base: ParsedBaseUrl) throws(InvalidRequestError) -> URL {
        let subpath: String
        let endpointQuery: String
        var string = base.origin
        if let target = endpoint as? any PercentEncodedTarget {
            (subpath, endpointQuery) = try split(target.percentEncodedTarget)
            try refuseDotSegments(in: subpath, of: "request target path")
            string += joined(base.percentEncodedPath, subpath)
        } else {
            subpath = endpoint.subpath
            endpointQuery = encodedQuery(endpoint.orderedQueryParameters)
            try refuseDotSegments(in: subpath, of: "subpath")
            let encoded = PercentEncoding.encode(subpath, allowing: PercentEncoding.pathAllowed)
            string += joined(base.percentEncodedPath, encoded)
        }
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

    /// Exactly one slash between the base path and the percent-encoded subpath, whichever side brings its own.
    private static func joined(_ basePath: String, _ subpath: String) -> String {
        let trimmedBase = basePath.hasSuffix("/") ? basePath.dropLast() : Substring(basePath)
        // At the byte: a combining mark after the slash joins it into one Character that `hasPrefix("/")` misses.
        let trimmedSubpath =
            subpath.utf8.first == UInt8(ascii: "/") ? Substring(subpath.utf8.dropFirst()) : Substring(subpath)
        guard !trimmedSubpath.isEmpty else { return basePath.isEmpty ? "/" : basePath }
        return trimmedBase + "/" + trimmedSubpath
    }

    /// A percent-encoded `path?query` taken apart, refused if it holds a byte a URL cannot carry as it is.
    private static func split(_ target: String) throws(InvalidRequestError) -> (path: String, query: String) {
        guard PercentEncoding.targetAllowed.containsAll(target.utf8) else {
            throw InvalidRequestError(
                reason: "the request target \(quoted(target)) has characters that are not percent-encoded"
            )
        }
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, "") }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }

    private static func encodedQuery(_ parameters: [(key: String, value: QueryParameterValue)]) -> String {
        guard !parameters.isEmpty else { return "" }
        return parameters.compactMap { key, value in value.encoded(key: key) }.joined(separator: "&")
    }
}

/// An endpoint whose path and query come percent-encoded already, as a generated OpenAPI client's request does:
/// appended to the base URL as they are (after the same checks), instead of ``Endpoint/subpath`` and the query
/// parameters, so that no encoding of the generator's is undone or done twice.
package protocol PercentEncodedTarget {
    /// The path, and `?` and the query if there is one, percent-encoded.
    var percentEncodedTarget: String { get }
}
