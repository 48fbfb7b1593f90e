#if DEBUG
@testable import Courier
import Foundation

extension FuzzTarget {
    /// A URL built from a fuzzed subpath and query parameters, read back: the decoded path is the base path, one
    /// slash and the subpath, and the query gives back every key and value in order, whatever bytes they hold.
    ///
    /// Input: the subpath, then key and value strings, separated by NUL bytes. A value starting with byte 1, 2 or 3 is
    /// an array (repeated key, bracketed key, comma-separated) of the rest's pieces between 0x1F bytes.
    static let url = FuzzTarget(name: "url") { input in
        let pieces = FuzzInput.pieces(input)
        let endpoint = FuzzedEndpoint<EmptyBodyResponse>(
            subpath: FuzzInput.text(pieces[0]),
            orderedQueryParameters: stride(from: 1, to: pieces.count - 1, by: 2).map { index in
                (key: FuzzInput.text(pieces[index]), value: queryValue(pieces[index + 1]))
            }
        )
        guard let baseUrl = URL(string: "http://127.0.0.1:8080/base"), let base = try? ParsedBaseUrl(baseUrl) else {
            preconditionFailure("the fixed base URL does not parse")
        }
        // By bytes, as the transport reads the path: `String` would join a slash and a combining mark that follows it
        // into one character, hiding the slash.
        let segments = endpoint.subpath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        let hasDotSegment = segments.contains { $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }
        let url: URL
        do throws(InvalidRequestError) {
            url = try RequestBuilder.url(for: endpoint, base: base)
        } catch {
            guard hasDotSegment else {
                preconditionFailure(
                    "no URL for subpath \(endpoint.subpath.debugDescription) and query "
                        + "\(endpoint.orderedQueryParameters): \(error.reason)"
                )
            }
            return
        }
        if hasDotSegment {
            preconditionFailure("the subpath \(endpoint.subpath.debugDescription) has a dot segment, yet gave \(url)")
        }
        checkPath(of: url, endpoint: endpoint)
        checkQuery(of: url, endpoint: endpoint)
    }

    /// The base path `/base`, then one slash and the subpath with one leading slash of its own dropped; an empty
    /// subpath adds nothing.
    private static func checkPath(of url: URL, endpoint: FuzzedEndpoint<EmptyBodyResponse>) {
        let subpath = endpoint.subpath
        let trimmed = subpath.utf8.first == UInt8(ascii: "/") ? String(Substring(subpath.utf8.dropFirst())) : subpath
        let expected = trimmed.isEmpty ? "/base" : "/base/" + trimmed
        let afterOrigin = url.absoluteString.dropFirst("http://127.0.0.1:8080".count)
        let encodedPath = String(afterOrigin.prefix { $0 != "?" && $0 != "#" })
        guard url.absoluteString.hasPrefix("http://127.0.0.1:8080/"),
            FuzzInput.same(FuzzInput.percentDecoded(encodedPath), expected),
            url.path(percentEncoded: true) == encodedPath
        else {
            preconditionFailure(
                "the subpath \(endpoint.subpath.debugDescription) gave the URL \(url.absoluteString), "
                    + "path \(url.path(percentEncoded: true)); expected the decoded path \(expected.debugDescription)"
            )
        }
    }

    /// Every field `key=value` with both sides percent-decoded, in the order the endpoint gave them.
    private static func checkQuery(of url: URL, endpoint: FuzzedEndpoint<EmptyBodyResponse>) {
        let expected = endpoint.orderedQueryParameters.flatMap { key, value in expectedFields(key: key, value: value) }
        let query = url.absoluteString.firstIndex(of: "?").map { url.absoluteString[$0...].dropFirst() }
        let fields: [[String]]? = query.map { query in
            query.split(separator: "&", omittingEmptySubsequences: false).map { field in
                let (key, value) =
                    field.firstIndex(of: "=").map { (field[..<$0], field[$0...].dropFirst()) }
                    ?? (field, "")
                // A comma-separated array is split before decoding: a comma inside a value arrives as `%2C`.
                return [key].compactMap { FuzzInput.percentDecoded($0) }
                    + value.split(separator: ",", omittingEmptySubsequences: false).compactMap {
                        FuzzInput.percentDecoded($0)
                    }
            }
        }
        guard (fields ?? []).elementsEqual(expected, by: { $0.elementsEqual($1, by: FuzzInput.same) }),
            !(fields?.isEmpty ?? false), url.query(percentEncoded: true) == query.map(String.init)
        else {
            preconditionFailure(
                "the query \(endpoint.orderedQueryParameters) gave the URL \(url.absoluteString), "
                    + "which reads back as \(fields ?? []); expected \(expected)"
            )
        }
    }

    /// The fields one parameter is sent as, each the decoded key followed by its decoded values.
    private static func expectedFields(key: String, value: QueryParameterValue) -> [[String]] {
        switch value {
        case .string(let value): [[key, value]]
        case .array(let values, .repeatedKey): values.map { [key, $0] }
        case .array(let values, .bracketedKey): values.map { [key + "[]", $0] }
        case .array(let values, .commaSeparated): values.isEmpty ? [] : [[key] + values]
        }
    }

    /// A single value, or an array when the piece starts with byte 1, 2 or 3 (its style).
    private static func queryValue(_ piece: ArraySlice<UInt8>) -> QueryParameterValue {
        let styles: [UInt8: QueryParameterValue.ArrayStyle] = [1: .repeatedKey, 2: .bracketedKey, 3: .commaSeparated]
        guard let first = piece.first, let style = styles[first] else { return .string(FuzzInput.text(piece)) }
        let rest = piece.dropFirst()
        let values = rest.isEmpty ? [] : FuzzInput.pieces(rest, separator: 0x1F).map { FuzzInput.text($0) }
        return .array(values, style: style)
    }
}
#endif
