import Foundation

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

    /// Searched in UTF-8 bytes: as Characters, a quote followed by a combining scalar (say U+FE00) is one
    /// grapheme and would not be found as a quote.
    private func dispositionParameter(_ parameter: String) -> String? {
        guard let disposition = headers.first(where: { $0.first?.lowercased() == "content-disposition" })?.last
        else { return nil }
        let bytes = Array(disposition.utf8)
        let opening = Array("; \(parameter)=\"".utf8)
        guard
            let start = (0...(bytes.count - opening.count)).first(where: {
                Array(bytes[$0..<($0 + opening.count)]) == opening
            })
        else { return nil }
        let valueStart = start + opening.count
        guard let end = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: bytes[valueStart..<end], as: UTF8.self)
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
