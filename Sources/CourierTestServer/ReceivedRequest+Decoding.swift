import Foundation

/// The server's reading of a request, decoded here independently of Courier's encoders, so that a round trip
/// through both proves they agree.
extension ReceivedRequest {
    /// The query as name–value pairs in the order sent, percent-decoded (a `+` stays a `+`, as RFC 3986 says).
    public var decodedQuery: [Field] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return Field(
                name: String(parts[0]).removingPercentEncoding ?? "<bad encoding>",
                value: parts.count > 1 ? String(parts[1]).removingPercentEncoding ?? "<bad encoding>" : ""
            )
        }
    }

    /// The path, percent-decoded.
    public var decodedPath: String { path.removingPercentEncoding ?? "<bad encoding>" }

    /// An `application/x-www-form-urlencoded` body as name–value pairs in order (`+` is a space).
    public var formFields: [Field] {
        guard !body.isEmpty else { return [] }
        return bodyText.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "<bad encoding>"
            }
            return Field(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// A `multipart/form-data` body split into its parts, or `nil` when it is not well formed.
    public var multipartParts: [ReceivedPart]? {
        guard let contentType = header("Content-Type"), contentType.hasPrefix("multipart/form-data"),
            let boundaryRange = contentType.range(of: "boundary=")
        else { return nil }
        let boundary = String(contentType[boundaryRange.upperBound...])
        return ReceivedPart.parse(body, boundary: boundary)
    }

    /// A name and a value, as a query or a form carries them.
    public struct Field: Equatable, Sendable, CustomStringConvertible {
        /// The decoded name.
        public let name: String
        /// The decoded value.
        public let value: String

        /// Creates a field, e.g. as the expected value of a test.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// `name=value`, decoded.
        public var description: String { "\(name)=\(value)" }
    }
}
