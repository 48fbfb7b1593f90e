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
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        public var description: String { "\(name)=\(value)" }
    }
}

/// One part of a multipart body as the server read it.
public struct ReceivedPart: Equatable, Sendable {
    /// The part's header lines, as `[name, value]`.
    public let headers: [[String]]
    /// The part's content.
    public let body: Data

    /// The `name` parameter of `Content-Disposition`, as sent (still with `%22`, `%0D`, `%0A` escapes).
    public var name: String? { dispositionParameter("name") }
    /// The `filename` parameter of `Content-Disposition`, as sent.
    public var filename: String? { dispositionParameter("filename") }
    /// The part's `Content-Type`.
    public var contentType: String? {
        headers.first { $0.first?.lowercased() == "content-type" }?.last
    }

    private func dispositionParameter(_ parameter: String) -> String? {
        guard let disposition = headers.first(where: { $0.first?.lowercased() == "content-disposition" })?.last,
            let start = disposition.range(of: "; \(parameter)=\"")
        else { return nil }
        let rest = disposition[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    /// Splits `body` at `boundary` into parts, or `nil` when it is not well formed.
    public static func parse(_ body: Data, boundary: String) -> [ReceivedPart]? {
        let delimiter = Data("\r\n--\(boundary)".utf8)
        // The first delimiter has no CRLF before it; add one so every delimiter looks the same.
        var rest = Data("\r\n".utf8) + body
        var parts: [ReceivedPart] = []
        guard let first = rest.range(of: delimiter), first.lowerBound == rest.startIndex else { return nil }
        rest = rest[first.upperBound...]
        while true {
            if rest.starts(with: Data("--\r\n".utf8)) { return parts }
            guard rest.starts(with: Data("\r\n".utf8)), let next = rest.range(of: delimiter) else { return nil }
            let part = rest[rest.index(rest.startIndex, offsetBy: 2)..<next.lowerBound]
            guard let split = part.range(of: Data("\r\n\r\n".utf8)) else { return nil }
            let headerLines = String(decoding: part[..<split.lowerBound], as: UTF8.self)
                .components(separatedBy: "\r\n")
                .map { line -> [String] in
                    let pieces = line.split(separator: ":", maxSplits: 1).map(String.init)
                    return [pieces.first ?? "", (pieces.last ?? "").trimmingCharacters(in: .whitespaces)]
                }
            parts.append(ReceivedPart(headers: headerLines, body: Data(part[split.upperBound...])))
            rest = rest[next.upperBound...]
        }
    }
}
