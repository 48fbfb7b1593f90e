import Foundation

/// What ``RequestLoggerPlugin`` and ``ResponseLoggerPlugin`` hide before anything is logged: header values, query values, body fields.
public struct LogRedaction: Sendable {
    /// The headers whose values are always hidden.
    public static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// What stands in for a hidden value.
    public static let placeholder = "REDACTED"

    /// Header names whose values are hidden, besides ``credentialHeaders``; any case.
    public var headers: Set<String>

    /// Query parameter (and form field) names whose values are hidden; any case.
    public var queryParameters: Set<String>

    /// JSON object keys whose values are hidden at any depth, in bodies; any case.
    public var jsonFields: Set<String>

    /// Creates the redaction; the credential headers and a URL's password are hidden whatever is given here.
    public init(headers: Set<String> = [], queryParameters: Set<String> = [], jsonFields: Set<String> = []) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = Set(queryParameters.map { $0.lowercased() })
        self.jsonFields = Set(jsonFields.map { $0.lowercased() })
    }

    func hidesHeader(_ name: String) -> Bool {
        let name = name.lowercased()
        return Self.credentialHeaders.contains(name) || headers.contains(name)
    }

    /// `headers` with hidden values replaced.
    func redacted(headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { result, header in
            result[header.key] = hidesHeader(header.key) ? Self.placeholder : header.value
        }
    }

    /// `url` with the password and hidden query values replaced, and the user too when `hidingUser` (as
    /// OpenTelemetry's `url.full` asks).
    func redacted(url: URL?, hidingUser: Bool = false) -> String {
        guard let url else { return "(no URL)" }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "(a URL that could not be parsed)"
        }
        if hidingUser, components.percentEncodedUser != nil { components.percentEncodedUser = Self.placeholder }
        if components.percentEncodedPassword != nil { components.percentEncodedPassword = Self.placeholder }
        if let query = components.percentEncodedQuery {
            components.percentEncodedQuery = redacted(encodedFields: query)
        }
        return components.string ?? "(a URL that could not be parsed)"
    }

    /// `name=value&…` (a query, or a form body) with hidden values replaced.
    func redacted(encodedFields: String) -> String {
        encodedFields.split(separator: "&", omittingEmptySubsequences: false).map { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let decodedName = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name
            guard parts.count == 2, queryParameters.contains(decodedName.lowercased()) else { return String(field) }
            return name + "=" + Self.placeholder
        }
        .joined(separator: "&")
    }

    /// A body as text: JSON with hidden fields replaced, a form with hidden fields replaced, other text as it is,
    /// bytes that are not UTF-8 by their count; cut after `limit` characters.
    func redacted(body: Data, contentType: String?, limit: Int) -> String {
        let mediaType = contentType?.lowercased() ?? ""
        var text: String
        if let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(
                withJSONObject: redacted(json: json),
                options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
            )
        {
            text = String(decoding: data, as: UTF8.self)
        } else if let string = String(data: body, encoding: .utf8) {
            text = mediaType.hasPrefix("application/x-www-form-urlencoded") ? redacted(encodedFields: string) : string
        } else {
            return "(\(body.count) bytes that are not UTF-8 text)"
        }
        if text.count > max(limit, 0) {
            text = String(text.prefix(max(limit, 0))) + "… (\(body.count) bytes in all)"
        }
        return text
    }

    private func redacted(json: Any) -> Any {
        if let object = json as? [String: Any] {
            return object.reduce(into: [String: Any]()) { result, field in
                result[field.key] =
                    jsonFields.contains(field.key.lowercased()) ? Self.placeholder : redacted(json: field.value)
            }
        }
        if let array = json as? [Any] { return array.map(redacted(json:)) }
        return json
    }
}
